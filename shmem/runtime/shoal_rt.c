/* PMIx client. Without a PMIx server in the environment the program runs as one
 * PE (a singleton), so `./prog` works without a launcher. */
#include "shoal_rt.h"
#include "shoal_env.h"
#include "shoal_exit.h"
#include "shoal_log.h"
#include "shoal_status.h"

#include <pmix.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pmix_proc_t rt_me;
static int rt_singleton = 1;
static int rt_active;
static int rt_rank, rt_size, rt_local_size;
/* Which run of the library this is: the first, or one after a shmem_finalize
 * (OpenSHMEM 1.6). Keys carry it, so that no value published by an earlier run
 * is ever read as this run's. */
static unsigned rt_generation;

/* key as this run publishes it: "shoal.wireup.2". */
static const char *run_key(const char *key, char *buf, size_t len)
{
    snprintf(buf, len, "%s.%u", key, rt_generation);
    return buf;
}

/* The launcher's PMIx server is gone (the launcher was killed, say): nothing will
 * end this PE, and a PE waiting for its peers would spin forever. Runs in PMIx's
 * thread; ends the process at once. */
static void lost_server(size_t id, pmix_status_t status, const pmix_proc_t *source,
                        pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                        pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)source;
    (void)info;
    (void)ninfo;
    (void)results;
    (void)nresults;
    (void)cbfunc;
    (void)cbdata;
    shoal_log_error("lost the connection to the launcher (%s): ending this PE",
                    PMIx_Error_string(status));
    _exit(1);
}

static pmix_status_t lost_connection = PMIX_ERR_LOST_CONNECTION;

/* A job-level uint32 the launcher provides. */
static pmix_status_t get_job_u32(const char *key, uint32_t *out)
{
    pmix_value_t *val = NULL;
    pmix_proc_t wildcard;
    pmix_status_t rc;

    PMIX_PROC_CONSTRUCT(&wildcard);
    PMIX_LOAD_PROCID(&wildcard, rt_me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wildcard, key, NULL, 0, &val);
    if (rc != PMIX_SUCCESS)
        return rc;
    *out = val->data.uint32;
    PMIX_VALUE_RELEASE(val);
    return PMIX_SUCCESS;
}

shoal_status_t shoal_rt_init(int *rank_out, int *size_out, int *local_size_out)
{
    uint32_t size, local_size;
    pmix_status_t rc;

    /* A server that started us always leaves its namespace in the environment;
     * without one, PMIx_Init would only make itself a singleton with more work. */
    if (!shoal_env_launched_by_pmix()) {
        *rank_out = 0;
        *size_out = 1;
        *local_size_out = 1;
        return SHOAL_OK;
    }
    if (rt_active) { /* a run after shmem_finalize: the connection is kept */
        rt_generation++;
        *rank_out = rt_rank;
        *size_out = rt_size;
        *local_size_out = rt_local_size;
        return SHOAL_OK;
    }
    rc = PMIx_Init(&rt_me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        shoal_log_error("PMIx_Init failed: %s; was the program started by a PMIx launcher?",
                        PMIx_Error_string(rc));
        return SHOAL_ERR_RUNTIME;
    }
    rt_active = 1;
    rt_generation++;
    PMIx_Register_event_handler(&lost_connection, 1, NULL, 0, lost_server, NULL, NULL);
    /* The job size, not PMIX_UNIV_SIZE: mpirun sets that to its slot count. */
    rc = get_job_u32(PMIX_JOB_SIZE, &size);
    if (rc != PMIX_SUCCESS) {
        shoal_log_error("PMIx_Get(PMIX_JOB_SIZE) failed: %s", PMIx_Error_string(rc));
        PMIx_Finalize(NULL, 0);
        rt_active = 0;
        return SHOAL_ERR_RUNTIME;
    }
    /* Unknown locality: assume some peers are elsewhere, so UCX gets set up. */
    if (get_job_u32(PMIX_LOCAL_SIZE, &local_size) != PMIX_SUCCESS)
        local_size = 0;
    rt_singleton = 0;
    *rank_out = rt_rank = (int)rt_me.rank;
    *size_out = rt_size = (int)size;
    *local_size_out = rt_local_size = (int)local_size;
    return SHOAL_OK;
}

shoal_status_t shoal_rt_local_peers(int **ranks_out, int *n_out)
{
    pmix_value_t *val = NULL;
    pmix_proc_t wildcard;
    int *ranks, n = 1, i;
    const char *p;

    if (rt_singleton)
        return SHOAL_ERR_RUNTIME;
    PMIX_PROC_CONSTRUCT(&wildcard);
    PMIX_LOAD_PROCID(&wildcard, rt_me.nspace, PMIX_RANK_WILDCARD);
    if (PMIx_Get(&wildcard, PMIX_LOCAL_PEERS, NULL, 0, &val) != PMIX_SUCCESS)
        return SHOAL_ERR_RUNTIME;
    if (val->type != PMIX_STRING || val->data.string == NULL) {
        PMIX_VALUE_RELEASE(val);
        return SHOAL_ERR_RUNTIME;
    }
    for (p = val->data.string; *p != '\0'; p++)
        n += *p == ',';
    ranks = malloc((size_t)n * sizeof(int));
    if (ranks == NULL) {
        PMIX_VALUE_RELEASE(val);
        return SHOAL_ERR_NO_MEMORY;
    }
    for (i = 0, p = val->data.string; i < n; i++) {
        ranks[i] = atoi(p);
        p = strchr(p, ',');
        p = p != NULL ? p + 1 : "";
    }
    PMIX_VALUE_RELEASE(val);
    *ranks_out = ranks;
    *n_out = n;
    return SHOAL_OK;
}

/* The connection outlives shmem_finalize, to the end of the process: a PE that
 * initialises again reuses it. Were it closed there and opened again, the first
 * fence of the new run could meet a peer's PMIx_Finalize of the old one (the
 * fence then fails with PARTIAL_SUCCESS, or with INVALID-ARG where a node's
 * server counted the two runs' fences as one; 4 PEs under mpirun, oshrun and
 * srun). */
void shoal_rt_close(void)
{
    if (rt_active)
        PMIx_Finalize(NULL, 0);
    rt_active = 0;
}

int shoal_rt_is_singleton(void)
{
    return rt_singleton;
}

shoal_status_t shoal_rt_publish(const char *key, const void *data, size_t len)
{
    pmix_value_t value;
    pmix_status_t rc;
    char name[PMIX_MAX_KEYLEN + 1];

    if (rt_singleton)
        return SHOAL_OK;
    PMIX_VALUE_CONSTRUCT(&value);
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = (char *)data;
    value.data.bo.size = len;
    rc = PMIx_Put(PMIX_GLOBAL, run_key(key, name, sizeof(name)), &value);
    if (rc != PMIX_SUCCESS) {
        shoal_log_error("PMIx_Put(%s) failed: %s", key, PMIx_Error_string(rc));
        return SHOAL_ERR_RUNTIME;
    }
    return SHOAL_OK;
}

/* A collective that failed because a peer died: the launcher is ending the job
 * and names that peer; exiting first would make us look like the culprit. */
static shoal_status_t collective_failed(const char *what, pmix_status_t rc)
{
    if (rc == PMIX_ERR_PARTIAL_SUCCESS || rc == PMIX_ERR_LOST_CONNECTION ||
        rc == PMIX_ERR_PROC_ABORTED || rc == PMIX_ERR_UNREACH) {
        shoal_log_debug("%s failed (%s): a peer is gone; waiting for the launcher", what,
                        PMIx_Error_string(rc));
        sleep(10);
    }
    shoal_log_error("%s failed: %s", what, PMIx_Error_string(rc));
    return SHOAL_ERR_RUNTIME;
}

shoal_status_t shoal_rt_commit(void)
{
    pmix_status_t rc;

    if (rt_singleton)
        return SHOAL_OK;
    rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS) {
        shoal_log_error("PMIx_Commit failed: %s", PMIx_Error_string(rc));
        return SHOAL_ERR_RUNTIME;
    }
    return SHOAL_OK;
}

/* A fence of every PE that also collects the data committed so far. Collecting
 * makes it global under every PMIx server: Slurm's (22.05, its tree fence) ends
 * a fence that collects nothing on each node alone once that node's processes
 * have arrived, so a finalize that relied on one tore down its endpoints while
 * PEs of other nodes still flushed to them ("Endpoint timeout" lines). */
static shoal_status_t fence(const char *what)
{
    pmix_info_t info;
    bool collect = true;
    pmix_status_t rc;

    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS)
        return collective_failed(what, rc);
    return SHOAL_OK;
}

shoal_status_t shoal_rt_exchange(void)
{
    shoal_status_t status = shoal_rt_commit();

    if (rt_singleton || status != SHOAL_OK)
        return status;
    return fence("PMIx_Fence (data exchange)");
}

shoal_status_t shoal_rt_lookup(int rank, const char *key, void **data_out, size_t *len_out)
{
    pmix_value_t *val = NULL;
    pmix_proc_t proc;
    pmix_status_t rc;
    char name[PMIX_MAX_KEYLEN + 1];
    void *copy;

    PMIX_PROC_CONSTRUCT(&proc);
    PMIX_LOAD_PROCID(&proc, rt_me.nspace, (pmix_rank_t)rank);
    rc = PMIx_Get(&proc, run_key(key, name, sizeof(name)), NULL, 0, &val);
    if (rc != PMIX_SUCCESS) {
        shoal_log_error("PMIx_Get(%s) of PE %d failed: %s", key, rank, PMIx_Error_string(rc));
        return SHOAL_ERR_RUNTIME;
    }
    if (val->type != PMIX_BYTE_OBJECT || (copy = malloc(val->data.bo.size)) == NULL) {
        PMIX_VALUE_RELEASE(val);
        shoal_log_error("PMIx_Get(%s) of PE %d: unexpected value", key, rank);
        return SHOAL_ERR_RUNTIME;
    }
    memcpy(copy, val->data.bo.bytes, val->data.bo.size);
    *len_out = val->data.bo.size;
    *data_out = copy;
    PMIX_VALUE_RELEASE(val);
    return SHOAL_OK;
}

shoal_status_t shoal_rt_barrier(void)
{
    return rt_singleton ? SHOAL_OK : fence("PMIx_Fence");
}

/* status 0 is passed on: shmem_global_exit(0) ends the job successfully. Any other is
 * made one a process can end with (shoal_exit.h) here, before the launcher sees it: Open
 * MPI's mpirun would end a job aborted with 256 with 0. */
static volatile sig_atomic_t abort_status;

static void abort_late(int sig)
{
    (void)sig;
    _exit(abort_status);
}

/* PMIx_Abort waits for the launcher's answer, which never comes where the local
 * daemon cannot reach it (a node cut off from the network): the PE exits anyway
 * after ABORT_WAIT_S, as a PE whose launcher cannot reach it must. */
#define ABORT_WAIT_S 5

void shoal_rt_abort(int status, const char *message)
{
    status = shoal_exit_status(status);
    abort_status = status;
    signal(SIGALRM, abort_late);
    alarm(ABORT_WAIT_S);
    if (rt_active)
        PMIx_Abort(status, message, NULL, 0);
    _exit(status);
}
