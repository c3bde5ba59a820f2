/* oshrun's embedded PMIx server: one namespace, every rank on this node. Its callbacks run on
 * the PMIx progress thread, so they only record what happened under job->lock and wake the
 * main thread; they never signal, reap or exit themselves. */
#define _GNU_SOURCE /* accept4 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include <pmix.h>
#include <pmix_server.h>

#include "oshrun.h"

static shoal_job_t *the_job; /* the callbacks get no user pointer */

/* Refused connections, by kind, under the_job->lock. The first of each kind is told at once;
 * the others are only counted, or anyone who can reach the port could fill the job's log,
 * and shoal_oshrun_server_report tells their total at the job's end. A refusal as another PE
 * comes after PMIx took the connection: its teardown then hangs. */
enum { REFUSED_OUTSIDE, REFUSED_SECOND, REFUSED_AS_OTHER, REFUSED_KINDS };
static int refused[REFUSED_KINDS];
static const char *const refused_total[REFUSED_KINDS] = {
    "oshrun: refused %d PMIx connections from outside the PEs in all\n",
    "oshrun: refused %d second PMIx connections from the PEs in all\n",
    "oshrun: refused %d PMIx connections as a PE from another PE in all\n",
};

/* Counts a refusal of this kind; whether it is the first. Call under the_job->lock. */
static int count_refusal(int kind)
{
    return ++refused[kind] == 1;
}

/* Waits for a number of pmix_op_cbfunc_t completions. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int pending;
    pmix_status_t status;
} op_wait_t;

static void op_done(pmix_status_t status, void *cbdata)
{
    op_wait_t *w = cbdata;

    pthread_mutex_lock(&w->lock);
    if (status != PMIX_SUCCESS && w->status == PMIX_SUCCESS) {
        w->status = status;
    }
    w->pending--;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

static shoal_pe_t *pe_of(const pmix_proc_t *proc)
{
    if (the_job == NULL || !PMIX_CHECK_NSPACE(proc->nspace, the_job->nspace) ||
        proc->rank >= (pmix_rank_t)the_job->np) {
        return NULL;
    }
    return &the_job->pes[proc->rank];
}

static int vetting; /* accept below is in use: connections are traced to their PE */

/* Whether PMIx may have the connection sd: its far end must be held by a PE's process, or by
 * one that it started (a PE may run under strace -f or a script), and that PE must have no
 * connection yet. Runs on PMIx's listener thread, before PMIx reads a byte of sd. */
static int vet(int sd)
{
    int rank = shoal_oshrun_conn_owner(the_job, sd), taken = 0, first = 0;
    pid_t pid = 0;

    if (rank == -2) {
        return 1; /* not TCP: a transport this check does not know, let PMIx judge */
    }
    pthread_mutex_lock(&the_job->lock);
    vetting = 1;
    if (rank >= 0) {
        shoal_pe_t *pe = &the_job->pes[rank];

        pid = pe->pid;
        taken = !pe->connected && !pe->pending;
        pe->pending |= taken;
    }
    if (!taken) {
        first = count_refusal(rank >= 0 ? REFUSED_SECOND : REFUSED_OUTSIDE);
    }
    pthread_mutex_unlock(&the_job->lock);
    if (first && rank >= 0) {
        fprintf(stderr,
                "oshrun: refused a second PMIx connection from PE %d (pid %d) or its children\n",
                rank, (int)pid);
    } else if (first) {
        fprintf(stderr,
                "oshrun: refused a PMIx connection from outside the PEs and their children\n");
    }
    return taken;
}

/* PMIx 4.2 says nothing of who connects (its client_connected has only the rank the client
 * claims, and its listener hook is never called), and refusing in client_connected frees
 * PMIx's record of the rank while it is still in use. So oshrun takes the place of accept():
 * a definition in the executable is found before libc's by the dynamic linker, also for
 * libpmix's listener thread, and a refused connection is closed before PMIx reads it. */
__attribute__((visibility("default"))) int accept(int fd, __SOCKADDR_ARG addr,
                                                  socklen_t *__restrict len)
{
    for (;;) {
        struct pollfd pfd = {fd, POLLIN, 0};
        int sd = accept4(fd, addr, len, 0);

        if (sd < 0 || the_job == NULL || vet(sd)) {
            return sd;
        }
        close(sd);
        /* the next one, if it is there: PMIx's listener must not block here */
        if (poll(&pfd, 1, 0) != 1) {
            errno = EAGAIN;
            return -1;
        }
    }
}

/* PMIx_ERROR_LOG prints any other status: oshrun says why itself */
#ifdef PMIX_ERR_SILENT
#define REFUSED PMIX_ERR_SILENT
#else
#define REFUSED PMIX_ERR_NOT_SUPPORTED
#endif

/* The connection was vetted in accept() for the PE whose process holds it; here it claims a
 * rank, which must be that PE's. A mismatch (a PE connecting as another) is refused, though
 * PMIx 4.2 is then unsafe to tear down (see shoal_oshrun_server_can_cleanup). */
static pmix_status_t client_connected(const pmix_proc_t *proc, void *server_object,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    shoal_pe_t *pe = pe_of(proc);
    int ok, first = 0;

    (void)server_object;
    if (pe == NULL) {
        return REFUSED; /* not reached: PMIx refuses ranks it was not told of */
    }
    pthread_mutex_lock(&the_job->lock);
    ok = !pe->connected && (!vetting || pe->pending > 0);
    if (ok) {
        pe->connected = 1;
        pe->pending = 0;
    } else {
        first = count_refusal(REFUSED_AS_OTHER);
    }
    pthread_mutex_unlock(&the_job->lock);
    if (first) {
        fprintf(stderr, "oshrun: refused a PMIx connection as PE %u: it came from another PE\n",
                proc->rank);
    }
    if (!ok) {
        return REFUSED;
    }
    if (cbfunc != NULL) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
    return PMIX_SUCCESS;
}

/* Whether proc is a PE whose connection was taken: only it can speak for the PE. */
static shoal_pe_t *connected_pe(const pmix_proc_t *proc)
{
    shoal_pe_t *pe = pe_of(proc);
    int connected;

    if (pe == NULL) {
        return NULL;
    }
    pthread_mutex_lock(&the_job->lock);
    connected = pe->connected;
    pthread_mutex_unlock(&the_job->lock);
    return connected ? pe : NULL;
}

/* Recorded before the client is released, so it is visible before the PE can exit. */
static pmix_status_t client_finalized(const pmix_proc_t *proc, void *server_object,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    shoal_pe_t *pe = connected_pe(proc);

    (void)server_object;
    if (pe != NULL) {
        pthread_mutex_lock(&the_job->lock);
        pe->finalized = 1;
        pthread_mutex_unlock(&the_job->lock);
    }
    if (cbfunc != NULL) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
    return PMIX_SUCCESS;
}

/* Any abort ends the whole job, whatever procs[] asks for: Shoal has no partial jobs. */
static pmix_status_t client_abort(const pmix_proc_t *proc, void *server_object, int status,
                                  const char msg[], pmix_proc_t procs[], size_t nprocs,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    (void)procs;
    (void)nprocs;
    if (connected_pe(proc) != NULL) {
        pthread_mutex_lock(&the_job->lock);
        if (the_job->abort_rank < 0) {
            the_job->abort_rank = (int)proc->rank;
            the_job->abort_status = status;
            the_job->abort_msg = strdup(msg != NULL ? msg : "");
        }
        pthread_mutex_unlock(&the_job->lock);
        shoal_oshrun_wake(the_job);
    }
    if (cbfunc != NULL) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
    return PMIX_SUCCESS;
}

static void fence_release(void *cbdata)
{
    free(cbdata);
}

/* Every participant is local, so the collected data is already complete: hand it back.
 * The library owns `data` and may free it once we return, while the modex callback can use
 * the blob later on its own thread, so it gets a copy that fence_release frees. */
static pmix_status_t fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                              void *cbdata)
{
    char *copy = NULL;

    (void)procs;
    (void)nprocs;
    (void)info;
    (void)ninfo;
    if (ndata > 0) {
        copy = malloc(ndata);
        if (copy == NULL) {
            return PMIX_ERR_NOMEM;
        }
        memcpy(copy, data, ndata);
    }
    if (cbfunc != NULL) {
        cbfunc(PMIX_SUCCESS, copy, ndata, cbdata, fence_release, copy);
    } else {
        free(copy);
    }
    return PMIX_SUCCESS;
}

/* Only called for procs on other servers; there are none. */
static pmix_status_t direct_modex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                  pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    (void)proc;
    (void)info;
    (void)ninfo;
    (void)cbfunc;
    (void)cbdata;
    return PMIX_ERR_NOT_SUPPORTED;
}

static pmix_server_module_t module = {
    .client_connected = client_connected,
    .client_finalized = client_finalized,
    .abort = client_abort,
    .fence_nb = fence_nb,
    .direct_modex = direct_modex,
};

int shoal_oshrun_server_init(shoal_job_t *job)
{
    pmix_info_t info[4];
    bool no = false;
    pmix_status_t rc;

    the_job = job;
    /* PMIx's shared-memory datastore (gds ds12/ds21) zeroes megabytes of
     * segments for every job, a third of a small job's start-up CPU time, for a
     * few keys per PE; the hash one serves a one-node job as well, and the
     * server tells the PEs which it uses. A user's PMIX_MCA_gds still wins. */
    setenv("PMIX_MCA_gds", "hash", 0);
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, job->tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, job->tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_TOOL_SUPPORT, &no, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[3], PMIX_SERVER_SYSTEM_SUPPORT, &no, PMIX_BOOL);
    /* PMIx loads the node's topology through hwloc here, and hwloc's I/O
     * discovery reads the configuration of every PCI device in /sys: without
     * it oshrun's CPU time for a one-PE job falls from 31 ms to 17 ms, and no
     * PE of a one-node job asks for device distances. Only this call goes
     * without it (a PE that uses hwloc sees every device), and a user's
     * HWLOC_COMPONENTS still wins. */
    bool user_hwloc = getenv("HWLOC_COMPONENTS") != NULL;
    if (!user_hwloc) {
        setenv("HWLOC_COMPONENTS", "-pci,-linuxio", 1);
    }
    rc = PMIx_server_init(&module, info, 4);
    if (!user_hwloc) {
        unsetenv("HWLOC_COMPONENTS");
    }
    for (int i = 0; i < 4; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "oshrun: cannot start the PMIx server: %s\n", PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

/* "0,1,...,np-1" */
static char *rank_list(int np)
{
    size_t len = (size_t)np * 7 + 1;
    char *s = malloc(len), *p = s;

    if (s == NULL) {
        return NULL;
    }
    *p = '\0';
    for (int r = 0; r < np; r++) {
        p += snprintf(p, len - (size_t)(p - s), r ? ",%d" : "%d", r);
    }
    return s;
}

static pmix_data_array_t *proc_info(int rank, const char *host)
{
    pmix_data_array_t *da;
    pmix_info_t *in;
    pmix_rank_t r = (pmix_rank_t)rank;
    uint16_t lrank = (uint16_t)rank;
    uint32_t zero = 0;

    PMIX_DATA_ARRAY_CREATE(da, 6, PMIX_INFO);
    if (da == NULL) {
        return NULL;
    }
    in = da->array;
    PMIX_INFO_LOAD(&in[0], PMIX_RANK, &r, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&in[1], PMIX_LOCAL_RANK, &lrank, PMIX_UINT16);
    PMIX_INFO_LOAD(&in[2], PMIX_NODE_RANK, &lrank, PMIX_UINT16);
    PMIX_INFO_LOAD(&in[3], PMIX_NODEID, &zero, PMIX_UINT32);
    PMIX_INFO_LOAD(&in[4], PMIX_APPNUM, &zero, PMIX_UINT32);
    PMIX_INFO_LOAD(&in[5], PMIX_HOSTNAME, host, PMIX_STRING);
    return da;
}

/* Job info as a PMIx 4 client expects to PMIx_Get it, then one registration per rank. */
int shoal_oshrun_server_register(shoal_job_t *job)
{
    op_wait_t w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, PMIX_SUCCESS};
    char host[256], *peers = NULL, *regex = NULL, *ppn = NULL;
    uint32_t np = (uint32_t)job->np, one = 1, zero = 0;
    size_t ninfo = 14 + (size_t)job->np, n = 0;
    pmix_info_t *info = NULL;
    pmix_status_t rc;
    int ret = -1;

    if (gethostname(host, sizeof(host)) != 0) {
        strcpy(host, "localhost");
    }
    host[sizeof(host) - 1] = '\0';
    peers = rank_list(job->np);
    if (peers == NULL || PMIx_generate_regex(host, &regex) != PMIX_SUCCESS ||
        PMIx_generate_ppn(peers, &ppn) != PMIX_SUCCESS) {
        fprintf(stderr, "oshrun: cannot describe the job to PMIx\n");
        goto err_free;
    }

    PMIX_INFO_CREATE(info, ninfo);
    PMIX_INFO_LOAD(&info[n++], PMIX_JOBID, job->nspace, PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], PMIX_JOB_SIZE, &np, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_UNIV_SIZE, &np, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_MAX_PROCS, &np, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_APP_SIZE, &np, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_LOCAL_SIZE, &np, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_NODE_SIZE, &np, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_NUM_NODES, &one, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_NODEID, &zero, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_HOSTNAME, host, PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], PMIX_NODE_MAP, regex, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[n++], PMIX_PROC_MAP, ppn, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[n++], PMIX_TMPDIR, job->tmpdir, PMIX_STRING);
    for (int r = 0; r < job->np; r++, n++) {
        /* the info owns the array from here; PMIX_INFO_FREE releases it */
        PMIX_LOAD_KEY(info[n].key, PMIX_PROC_INFO_ARRAY);
        info[n].value.type = PMIX_DATA_ARRAY;
        info[n].value.data.darray = proc_info(r, host);
        if (info[n].value.data.darray == NULL) {
            goto err_free;
        }
    }

    /* Registrations complete asynchronously; start them all, then wait once. */
    w.pending = 1 + job->np;
    rc = PMIx_server_register_nspace(job->nspace, job->np, info, ninfo, op_done, &w);
    if (rc == PMIX_OPERATION_SUCCEEDED) {
        op_done(PMIX_SUCCESS, &w);
    } else if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "oshrun: cannot register the job with PMIx: %s\n", PMIx_Error_string(rc));
        goto err_free;
    }
    for (int r = 0; r < job->np; r++) {
        pmix_proc_t proc;

        PMIX_LOAD_PROCID(&proc, job->nspace, (pmix_rank_t)r);
        rc = PMIx_server_register_client(&proc, geteuid(), getegid(), &job->pes[r], op_done, &w);
        if (rc == PMIX_OPERATION_SUCCEEDED) {
            op_done(PMIX_SUCCESS, &w);
        } else if (rc != PMIX_SUCCESS) {
            op_done(rc, &w);
        }
    }
    pthread_mutex_lock(&w.lock);
    while (w.pending > 0) {
        pthread_cond_wait(&w.cond, &w.lock);
    }
    pthread_mutex_unlock(&w.lock);
    if (w.status != PMIX_SUCCESS) {
        fprintf(stderr, "oshrun: cannot register the job with PMIx: %s\n",
                PMIx_Error_string(w.status));
        goto err_free;
    }
    ret = 0;

err_free:
    if (info != NULL) {
        PMIX_INFO_FREE(info, ninfo);
    }
    free(ppn);
    free(regex);
    free(peers);
    return ret;
}

int shoal_oshrun_server_setup_fork(shoal_job_t *job, int rank, char ***env)
{
    pmix_proc_t proc;
    pmix_status_t rc;

    PMIX_LOAD_PROCID(&proc, job->nspace, (pmix_rank_t)rank);
    rc = PMIx_server_setup_fork(&proc, env);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "oshrun: cannot prepare PE %d for PMIx: %s\n", rank, PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

int shoal_oshrun_server_can_cleanup(shoal_job_t *job)
{
    int n;

    pthread_mutex_lock(&job->lock);
    n = refused[REFUSED_AS_OTHER];
    pthread_mutex_unlock(&job->lock);
    return n == 0;
}

void shoal_oshrun_server_report(shoal_job_t *job)
{
    int n[REFUSED_KINDS];

    pthread_mutex_lock(&job->lock);
    memcpy(n, refused, sizeof(n));
    pthread_mutex_unlock(&job->lock);
    for (int k = 0; k < REFUSED_KINDS; k++) {
        if (n[k] > 1) {
            fprintf(stderr, refused_total[k], n[k]);
        }
    }
}

/* PMIx 4.2's teardown crashes now and then after clients were lost without finalizing
 * (a few runs in a hundred), and hangs after a refused connection, so the caller skips this
 * and _exits after a failed job or when shoal_oshrun_server_can_cleanup says no. */
void shoal_oshrun_server_cleanup(shoal_job_t *job)
{
    (void)job;
    PMIx_server_finalize();
    the_job = NULL;
}
