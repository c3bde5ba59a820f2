/* UCP context, worker, registered segments and per-peer endpoints. Endpoints are
 * made when the core first talks to a peer. One lock serialises every use of the
 * worker, so the progress thread can serve peers while the PE computes (UCX over
 * shared memory or TCP does RMA in software: the target must progress). A blocking
 * call progresses until its request completes, yielding the core now and then. */
#include "shoal_ucx.h"
#include "shoal_log.h"
#include "shoal_status.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucp/api/ucp.h>

#define SPINS_BEFORE_YIELD 64

/* A worker and what its users share: one lock serialises every call on it, and
 * the non-blocking requests not yet completed (quiet waits for each, because a
 * worker flush alone does not cover software-emulated RMA still queued). The
 * kept requests are touched only under the lock: quiets of several threads that
 * drop it to yield find the list as the last holder left it, never a request
 * another quiet already freed. */
struct shoal_ucx_worker {
    shoal_ucx_t *ucx;
    ucp_worker_h worker;
    pthread_mutex_t lock;
    struct kept {
        void *req;
        void *bounce;       /* freed once req completes, or NULL */
        unsigned long seq;  /* the order it was kept in */
        int pe;             /* the peer it went to, for messages */
    } *pending;             /* live: [head, npending), oldest first */
    size_t head, npending, max_pending;
    unsigned long kept;     /* requests kept so far: the next seq */
    /* Operations issued, and how many of them a finished quiet covered (both
     * written under lock): quiet and fence have nothing to do while they are
     * equal, as when the direct path served every peer. */
    unsigned long issued, quieted;
    /* Operations of untracked sections (collective tokens and region puts) sent
     * since the last flush, which issued leaves out: a barrier_all's quiet would otherwise flush
     * the last barrier's token, a round trip or two over TCP for nothing (under
     * lock). A fence still orders them. */
    int tokens;
    /* The peer of the last wait that ran out of time (-1: a flush, which has no
     * one peer), for the caller's message. */
    int stuck_pe;
    struct ucx_peer *peers;   /* its endpoints' peers, for finding a stuck one (lock) */
    shoal_ucx_worker_t *next; /* the context's list of workers (workers_lock) */
};

struct shoal_ucx {
    ucp_context_h context;
    shoal_ucx_worker_t main; /* the one peers connect to; contexts add their own */
    pthread_mutex_t workers_lock; /* guards the list that starts at main */
    ucp_address_t *address;
    size_t address_len;
    ucp_mem_h memh[SHOAL_SEG_COUNT];
    void *rkey_buf[SHOAL_SEG_COUNT];
    int cpu_atomics; /* UCX's AMOs on our memory are CPU atomics (see below) */
    pthread_t progress_thread;
    int progress_running;
    int progress_stop; /* __atomic: destroy sets it while the thread reads it */
    unsigned progress_us;
    uint64_t timeout_ns; /* SHOAL_PEER_TIMEOUT: how long a wait on a peer may last; 0: for ever */
    /* Set when a wait ran out of SHOAL_PEER_TIMEOUT, which ends the job: no more
     * progress, so that a reply UCX still holds for a caller's stack buffer is
     * never written while the job ends. */
    int gave_up;
};

typedef struct ucx_peer {
    shoal_ucx_worker_t *w;
    struct ucx_peer *next, *prev; /* w->peers */
    ucp_ep_h ep;
    ucp_rkey_h rkey[SHOAL_SEG_COUNT];
    int pe; /* its number, for messages */
    uint64_t base[SHOAL_SEG_COUNT];
    char *mapped[SHOAL_SEG_COUNT]; /* the segment as UCX maps it here, or NULL */
    int used;                      /* an operation went through ep (written under lock) */
} ucx_peer_t;

static shoal_status_t worker_init(shoal_ucx_t *ucx, shoal_ucx_worker_t *w)
{
    /* Our lock serialises every call, from any thread. */
    ucp_worker_params_t wparams = {
        .field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
        .thread_mode = UCS_THREAD_MODE_SERIALIZED,
    };
    ucs_status_t st;

    memset(w, 0, sizeof(*w));
    w->ucx = ucx;
    w->stuck_pe = -1;
    st = ucp_worker_create(ucx->context, &wparams, &w->worker);
    if (st != UCS_OK) {
        shoal_log_error("UCX: cannot create a worker: %s", ucs_status_string(st));
        return SHOAL_ERR_TRANSPORT;
    }
    pthread_mutex_init(&w->lock, NULL);
    return SHOAL_OK;
}

static void worker_cleanup(shoal_ucx_worker_t *w)
{
    shoal_ucx_quiet(w, 1);
    free(w->pending);
    ucp_worker_destroy(w->worker);
    pthread_mutex_destroy(&w->lock);
}

/* Transports that never do device (NIC) atomics: their AMOs are the target's CPU
 * atomics (software AMOs, which UCX runs on the target with locked instructions)
 * or CPU atomics on shared memory. A name not listed counts as a NIC's. */
static const char *const cpu_atomic_tls[] = {
    "self", "tcp", "sysv", "posix", "cma", "knem", "xpmem", "ud_verbs", "ud_mlx5",
    "cuda_copy", "cuda_ipc", "gdr_copy", "rocm_copy", "rocm_ipc", "rocm_gdr", "ze_copy",
};

static int cpu_atomic_tl(const char *tl, size_t len)
{
    size_t i;

    for (i = 0; i < sizeof(cpu_atomic_tls) / sizeof(cpu_atomic_tls[0]); i++)
        if (strlen(cpu_atomic_tls[i]) == len && strncmp(tl, cpu_atomic_tls[i], len) == 0)
            return 1;
    return 0;
}

/* The value UCX's configuration holds for UCX_<name>, read from its printout
 * (UCX 1.13 has no getter), into buf; 0, or -1 when it is not there. */
static int config_value(const ucp_config_t *config, const char *name, char *buf, size_t len)
{
    char *text = NULL, *line, *rest = NULL;
    size_t size = 0, nlen = strlen(name);
    int found = -1;
    FILE *f = open_memstream(&text, &size);

    if (f == NULL)
        return -1;
    ucp_config_print(config, f, NULL, UCS_CONFIG_PRINT_CONFIG);
    fclose(f);
    for (line = strtok_r(text, "\n", &rest); line != NULL; line = strtok_r(NULL, "\n", &rest)) {
        if (strncmp(line, "UCX_", 4) == 0 && strncmp(line + 4, name, nlen) == 0 &&
            line[4 + nlen] == '=' && strlen(line + 5 + nlen) < len) {
            strcpy(buf, line + 5 + nlen);
            found = 0;
            break;
        }
    }
    free(text);
    return found;
}

/* Whether every AMO UCX does on this PE's memory is a CPU atomic, so that PEs of
 * this node may use CPU atomics on it too (one atomicity domain): UCX_ATOMIC_MODE
 * is cpu, or no transport of this context can do NIC atomics. UCX 1.13 has no
 * query for either, so this reads what it prints: the configuration and the
 * resource lines ("resource 2 : md 1 dev 2 flags -- tcp/eth0"). */
static int uses_cpu_atomics(ucp_context_h context, const ucp_config_t *config)
{
    char *text = NULL, *line, *tl, *rest = NULL, mode[32];
    size_t size = 0;
    int cpu = 1;
    FILE *f = open_memstream(&text, &size);

    if (f == NULL)
        return 0;
    ucp_context_print_info(context, f);
    fclose(f);
    if (config_value(config, "ATOMIC_MODE", mode, sizeof(mode)) != 0 || strcmp(mode, "cpu") != 0) {
        for (line = strtok_r(text, "\n", &rest); line != NULL && cpu;
             line = strtok_r(NULL, "\n", &rest)) {
            if (strstr(line, "resource") == NULL || (tl = strstr(line, "-- ")) == NULL)
                continue;
            tl += 3;
            cpu = cpu_atomic_tl(tl, strcspn(tl, "/"));
        }
    }
    free(text);
    return cpu;
}

/* Whether item is one of the comma-separated words of list. */
static int list_has(const char *list, const char *item)
{
    size_t n = strlen(item);

    for (const char *p = list; *p != '\0'; p += strcspn(p, ","), p += *p == ',') {
        if (strncmp(p, item, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return 1;
    }
    return 0;
}

/* Keeps every segment UCX makes for this PE private to its user. UCX's sysv
 * transport makes SysV segments of mode 0660 (its receive FIFOs, and the heap
 * under SHOAL_TRANSPORT=ucx, which UCX allocates): anyone in the job owner's
 * group could attach them and read or write the symmetric heap. Its posix
 * transport does the same job with files of mode 0600 that it unlinks at once
 * and peers open through /proc/PID/fd, as transport/shm does. So: allocate
 * with md:posix, never md:sysv (nor md:*, which may pick it), and leave the
 * sysv transport out unless UCX_TLS lists transports by name (the user's
 * choice stands; docs/design.md says what it costs). */
static void keep_private(ucp_config_t *config)
{
    char value[512], kept[sizeof(value) + 8] = "";
    size_t used = 0;

    if (config_value(config, "ALLOC_PRIO", value, sizeof(value)) == 0 &&
        (list_has(value, "md:sysv") || list_has(value, "md:*"))) {
        for (char *item = strtok(value, ","); item != NULL; item = strtok(NULL, ",")) {
            if (strcmp(item, "md:sysv") != 0 && strcmp(item, "md:*") != 0)
                used += (size_t)snprintf(kept + used, sizeof(kept) - used, "%s%s",
                                         used > 0 ? "," : "", item);
        }
        if (ucp_config_modify(config, "ALLOC_PRIO", kept) != UCS_OK)
            shoal_log_debug("UCX: cannot set UCX_ALLOC_PRIO to %s", kept);
    }
    if (config_value(config, "TLS", value, sizeof(value)) != 0)
        return;
    if (strcmp(value, "all") == 0) {
        snprintf(kept, sizeof(kept), "^sysv");
    } else if (value[0] == '^' && !list_has(value + 1, "sysv")) {
        snprintf(kept, sizeof(kept), "%s,sysv", value);
    } else {
        return;
    }
    if (ucp_config_modify(config, "TLS", kept) != UCS_OK)
        shoal_log_debug("UCX: cannot set UCX_TLS to %s", kept);
}

int shoal_ucx_cpu_atomics(shoal_ucx_t *ucx)
{
    return ucx->cpu_atomics;
}

shoal_status_t shoal_ucx_create(unsigned progress_us, unsigned timeout_s, shoal_ucx_t **ucx_out)
{
    ucp_params_t params = {
        .field_mask = UCP_PARAM_FIELD_FEATURES,
        .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64,
    };
    ucp_config_t *config;
    ucs_status_t st;
    shoal_ucx_t *ucx;

    ucx = calloc(1, sizeof(*ucx));
    if (ucx == NULL)
        return SHOAL_ERR_NO_MEMORY;
    ucx->progress_us = progress_us;
    ucx->timeout_ns = (uint64_t)timeout_s * 1000000000u;
    st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK) {
        shoal_log_error("UCX: cannot read its configuration: %s", ucs_status_string(st));
        goto err_free;
    }
    keep_private(config);
    st = ucp_init(&params, config, &ucx->context);
    if (st != UCS_OK) {
        ucp_config_release(config);
        shoal_log_error("UCX: ucp_init failed: %s", ucs_status_string(st));
        goto err_free;
    }
    ucx->cpu_atomics = uses_cpu_atomics(ucx->context, config);
    ucp_config_release(config);
    if (worker_init(ucx, &ucx->main) != SHOAL_OK)
        goto err_cleanup;
    pthread_mutex_init(&ucx->workers_lock, NULL);
    st = ucp_worker_get_address(ucx->main.worker, &ucx->address, &ucx->address_len);
    if (st != UCS_OK) {
        shoal_log_error("UCX: cannot get the worker address: %s", ucs_status_string(st));
        goto err_worker;
    }
    *ucx_out = ucx;
    return SHOAL_OK;

err_worker:
    worker_cleanup(&ucx->main);
err_cleanup:
    ucp_cleanup(ucx->context);
err_free:
    free(ucx);
    return SHOAL_ERR_TRANSPORT;
}

void shoal_ucx_destroy(shoal_ucx_t *ucx)
{
    int seg;

    if (ucx == NULL)
        return;
    if (ucx->progress_running) {
        __atomic_store_n(&ucx->progress_stop, 1, __ATOMIC_RELAXED);
        pthread_join(ucx->progress_thread, NULL);
    }
    shoal_ucx_quiet(&ucx->main, 1);
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        if (ucx->rkey_buf[seg] != NULL)
            ucp_rkey_buffer_release(ucx->rkey_buf[seg]);
        shoal_ucx_unmap(ucx, seg);
    }
    ucp_worker_release_address(ucx->main.worker, ucx->address);
    worker_cleanup(&ucx->main);
    pthread_mutex_destroy(&ucx->workers_lock);
    ucp_cleanup(ucx->context);
    free(ucx);
}

shoal_ucx_worker_t *shoal_ucx_main_worker(shoal_ucx_t *ucx)
{
    return &ucx->main;
}

shoal_status_t shoal_ucx_worker_create(shoal_ucx_t *ucx, shoal_ucx_worker_t **w_out)
{
    shoal_ucx_worker_t *w = malloc(sizeof(*w));
    int status;

    if (w == NULL)
        return SHOAL_ERR_NO_MEMORY;
    status = worker_init(ucx, w);
    if (status != SHOAL_OK) {
        free(w);
        return status;
    }
    pthread_mutex_lock(&ucx->workers_lock);
    w->next = ucx->main.next;
    ucx->main.next = w;
    pthread_mutex_unlock(&ucx->workers_lock);
    *w_out = w;
    return SHOAL_OK;
}

void shoal_ucx_worker_destroy(shoal_ucx_worker_t *w)
{
    shoal_ucx_worker_t **link;

    if (w == NULL)
        return;
    pthread_mutex_lock(&w->ucx->workers_lock);
    for (link = &w->ucx->main.next; *link != NULL; link = &(*link)->next) {
        if (*link == w) {
            *link = w->next;
            break;
        }
    }
    pthread_mutex_unlock(&w->ucx->workers_lock);
    worker_cleanup(w);
    free(w);
}

static void *progress_main(void *arg)
{
    shoal_ucx_t *ucx = arg;
    struct timespec pause = {.tv_sec = ucx->progress_us / 1000000,
                             .tv_nsec = (long)(ucx->progress_us % 1000000) * 1000};

    while (!__atomic_load_n(&ucx->progress_stop, __ATOMIC_RELAXED)) {
        while (shoal_ucx_progress(ucx) != 0)
            ;
        nanosleep(&pause, NULL);
    }
    return NULL;
}

shoal_status_t shoal_ucx_progress_start(shoal_ucx_t *ucx)
{
    int rc;

    if (ucx->progress_us == 0 || ucx->progress_running)
        return SHOAL_OK;
    rc = pthread_create(&ucx->progress_thread, NULL, progress_main, ucx);
    if (rc != 0) {
        shoal_log_error("cannot start the UCX progress thread: %s", strerror(rc));
        return SHOAL_ERR_SYSTEM;
    }
    ucx->progress_running = 1;
    return SHOAL_OK;
}

void shoal_ucx_address(shoal_ucx_t *ucx, const void **addr_out, size_t *len_out)
{
    *addr_out = ucx->address;
    *len_out = ucx->address_len;
}

shoal_status_t shoal_ucx_alloc(shoal_ucx_t *ucx, int seg, void *addr, size_t size)
{
    ucp_mem_map_params_t params = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH |
                      UCP_MEM_MAP_PARAM_FIELD_FLAGS,
        .address = addr,
        .length = size,
        .flags = UCP_MEM_MAP_ALLOCATE | UCP_MEM_MAP_FIXED,
    };
    ucs_status_t st = ucp_mem_map(ucx->context, &params, &ucx->memh[seg]);

    if (st != UCS_OK) {
        shoal_log_debug("UCX: cannot allocate %zu bytes at %p: %s", size, addr,
                    ucs_status_string(st));
        ucx->memh[seg] = NULL;
        return SHOAL_ERR_NO_MEMORY;
    }
    return SHOAL_OK;
}

void shoal_ucx_unmap(shoal_ucx_t *ucx, int seg)
{
    if (ucx->memh[seg] != NULL)
        ucp_mem_unmap(ucx->context, ucx->memh[seg]);
    ucx->memh[seg] = NULL;
}

shoal_status_t shoal_ucx_register(shoal_ucx_t *ucx, int seg, void *base, size_t size,
                       const void **rkey_out, size_t *rkey_len_out)
{
    ucp_mem_map_params_t params = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
        .address = base,
        .length = size,
    };
    ucs_status_t st = UCS_OK;
    size_t len;

    if (ucx->memh[seg] == NULL) /* else shoal_ucx_alloc made it */
        st = ucp_mem_map(ucx->context, &params, &ucx->memh[seg]);
    if (st != UCS_OK) {
        shoal_log_error("UCX: cannot register %zu bytes at %p: %s", size, base,
                    ucs_status_string(st));
        return SHOAL_ERR_TRANSPORT;
    }
    st = ucp_rkey_pack(ucx->context, ucx->memh[seg], &ucx->rkey_buf[seg], &len);
    if (st != UCS_OK) {
        shoal_log_error("UCX: cannot pack a remote key: %s", ucs_status_string(st));
        ucp_mem_unmap(ucx->context, ucx->memh[seg]);
        ucx->memh[seg] = NULL;
        return SHOAL_ERR_TRANSPORT;
    }
    *rkey_out = ucx->rkey_buf[seg];
    *rkey_len_out = len;
    return SHOAL_OK;
}

/* A long wait on w, with its lock held: drops the lock and yields, so that a PE
 * that shares this core (or the progress thread) runs. First it serves this PE's
 * workers, as shoal_ucx_progress does: while this thread waits on a context's
 * worker (a GPU's host proxy, say), a peer may wait on the main one, which else
 * only the progress thread would serve, every SHOAL_PROGRESS_US and later still
 * on a busy machine (and the other way round). */
static void wait_turn(shoal_ucx_worker_t *w)
{
    pthread_mutex_unlock(&w->lock);
    (void)shoal_ucx_progress(w->ucx);
    sched_yield();
    pthread_mutex_lock(&w->lock);
}

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whether a wait that began at *since (0: not yet timed; this sets it) has
 * lasted limit_ns (0: no limit). Read once per yield, so the clock costs
 * nothing next to the yield. A peer on a node that dropped off the network
 * never answers, and UCX over TCP does not say so for many minutes. */
static int out_of_time(uint64_t *since, uint64_t limit_ns)
{
    uint64_t t;

    if (limit_ns == 0)
        return 0;
    t = now_ns();
    if (*since == 0)
        *since = t;
    return t - *since >= limit_ns;
}

/* Progresses until request completes, or until limit_ns have passed (0: no
 * limit); frees it. A request out of time is left to UCX, which frees it when
 * it completes (its buffer must then stay valid: the callers that give up
 * either end the job or hand a buffer of their own to request_keep), and the
 * wait returns SHOAL_ERR_TIMEOUT with w->stuck_pe set, quietly: the core says
 * which routine waited. what NULL is an endpoint close at shmem_finalize, whose
 * failure only debugging shows. Called with the lock held. */
static shoal_status_t request_wait_for(shoal_ucx_worker_t *w, ucs_status_ptr_t req,
                                       const char *what, int pe, uint64_t limit_ns)
{
    uint64_t since = 0;
    unsigned spins;
    ucs_status_t st;

    if (req == NULL)
        return SHOAL_OK;
    if (UCS_PTR_IS_ERR(req)) {
        st = UCS_PTR_STATUS(req);
        goto err;
    }
    for (spins = 0;; spins++) {
        ucp_worker_progress(w->worker);
        st = ucp_request_check_status(req);
        if (st != UCS_INPROGRESS)
            break;
        if (spins >= SPINS_BEFORE_YIELD) {
            if (out_of_time(&since, limit_ns)) {
                w->stuck_pe = pe;
                return SHOAL_ERR_TIMEOUT;
            }
            wait_turn(w);
        }
    }
    ucp_request_free(req);
    if (st == UCS_OK)
        return SHOAL_OK;
err:
    if (what != NULL)
        shoal_log_error("UCX: %s failed: %s", what, ucs_status_string(st));
    else
        shoal_log_debug("UCX: endpoint close failed: %s", ucs_status_string(st));
    return SHOAL_ERR_TRANSPORT;
}

/* A wait on pe ran out of SHOAL_PEER_TIMEOUT: the job ends (see gave_up). */
static shoal_status_t give_up(shoal_ucx_worker_t *w, int pe)
{
    w->stuck_pe = pe;
    __atomic_store_n(&w->ucx->gave_up, 1, __ATOMIC_RELAXED);
    return SHOAL_ERR_TIMEOUT;
}

/* request_wait_for with SHOAL_PEER_TIMEOUT's limit, after which the job ends. */
static shoal_status_t request_wait(shoal_ucx_worker_t *w, ucs_status_ptr_t req, const char *what,
                                   int pe)
{
    shoal_status_t status = request_wait_for(w, req, what, pe, w->ucx->timeout_ns);

    return status == SHOAL_ERR_TIMEOUT ? give_up(w, pe) : status;
}

/* Frees a kept request that has completed with st, and its bounce buffer. */
static shoal_status_t release_kept(struct kept *k, ucs_status_t st)
{
    ucp_request_free(k->req);
    free(k->bounce);
    if (st == UCS_OK)
        return SHOAL_OK;
    shoal_log_error("UCX: a non-blocking operation failed: %s", ucs_status_string(st));
    return SHOAL_ERR_TRANSPORT;
}

/* Frees the kept requests that have completed (and their bounce buffers), so
 * that a long run of puts without a quiet holds only what is in flight. */
static shoal_status_t reap_completed(shoal_ucx_worker_t *w)
{
    int status = SHOAL_OK;
    size_t i, j = 0;

    for (i = w->head; i < w->npending; i++) {
        ucs_status_t st = ucp_request_check_status(w->pending[i].req);

        if (st == UCS_INPROGRESS)
            w->pending[j++] = w->pending[i];
        else if (release_kept(&w->pending[i], st) != SHOAL_OK)
            status = SHOAL_ERR_TRANSPORT;
    }
    w->head = 0;
    w->npending = j;
    return status;
}

/* Completes, in order, the kept requests older than seq upto, as quiet must;
 * newer ones (other threads' issued meanwhile) may stay. Called with the lock
 * held; drops it only to yield. */
static shoal_status_t complete_kept(shoal_ucx_worker_t *w, unsigned long upto)
{
    int status = SHOAL_OK;
    unsigned spins = 0;
    uint64_t since = 0;

    while (w->head < w->npending && w->pending[w->head].seq < upto) {
        struct kept *k = &w->pending[w->head];
        ucs_status_t st = ucp_request_check_status(k->req);

        if (st == UCS_INPROGRESS) {
            ucp_worker_progress(w->worker);
            if (++spins >= SPINS_BEFORE_YIELD) {
                if (out_of_time(&since, w->ucx->timeout_ns))
                    return give_up(w, k->pe); /* it stays kept: UCX may still finish it */
                wait_turn(w);
            }
            continue;
        }
        since = 0; /* the limit is on each request: a long queue is no failure */
        if (release_kept(k, st) != SHOAL_OK)
            status = SHOAL_ERR_TRANSPORT;
        w->head++;
    }
    if (w->head == w->npending)
        w->head = w->npending = 0;
    return status;
}

/* Keeps a non-blocking request for quiet to complete, and the bounce buffer to
 * free after it (NULL: none). Called with the lock held. */
static shoal_status_t request_keep(shoal_ucx_worker_t *w, ucs_status_ptr_t req, void *bounce,
                                   const char *what, int pe)
{
    int status = SHOAL_OK;

    if (UCS_PTR_IS_ERR(req)) {
        shoal_log_error("UCX: %s failed: %s", what, ucs_status_string(UCS_PTR_STATUS(req)));
        status = SHOAL_ERR_TRANSPORT;
        goto out_free;
    }
    if (req == NULL)
        goto out_free;
    if (w->npending == w->max_pending && (w->head > 0 || w->npending >= 1024) &&
        reap_completed(w) != SHOAL_OK)
        status = SHOAL_ERR_TRANSPORT;
    if (w->npending == w->max_pending) {
        size_t want = w->max_pending ? 2 * w->max_pending : 64;
        struct kept *grown = realloc(w->pending, want * sizeof(*grown));

        if (grown == NULL) {
            status = request_wait(w, req, what, pe);
            if (status == SHOAL_ERR_TIMEOUT)
                return status; /* UCX may still use bounce */
            goto out_free;
        }
        w->pending = grown;
        w->max_pending = want;
    }
    w->pending[w->npending++] =
        (struct kept){.req = req, .bounce = bounce, .seq = w->kept++, .pe = pe};
    return status;

out_free:
    free(bounce);
    return status;
}

shoal_status_t shoal_ucx_peer_create(shoal_ucx_worker_t *w, int pe, const void *addr,
                                     const void *const *rkeys, const uint64_t *bases,
                                     void **state_out)
{
    ucp_ep_params_t params = {
        .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
        .address = addr,
    };
    ucx_peer_t *peer;
    ucs_status_t st;
    int seg;

    peer = calloc(1, sizeof(*peer));
    if (peer == NULL)
        return SHOAL_ERR_NO_MEMORY;
    peer->w = w;
    peer->pe = pe;
    pthread_mutex_lock(&w->lock);
    st = ucp_ep_create(w->worker, &params, &peer->ep);
    if (st == UCS_ERR_UNREACHABLE) {
        /* Most often a peer that is gone: the core's line says so, after a
         * moment's grace for the launcher that may be ending this PE too. */
        shoal_log_debug("UCX: cannot create an endpoint to PE %d: %s", pe, ucs_status_string(st));
        pthread_mutex_unlock(&w->lock);
        free(peer);
        return SHOAL_ERR_UNREACHABLE;
    }
    if (st != UCS_OK) {
        shoal_log_error("UCX: cannot create an endpoint: %s", ucs_status_string(st));
        goto err_free;
    }
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        st = ucp_ep_rkey_unpack(peer->ep, rkeys[seg], &peer->rkey[seg]);
        if (st != UCS_OK) {
            shoal_log_error("UCX: cannot unpack a remote key: %s", ucs_status_string(st));
            goto err_rkeys;
        }
        peer->base[seg] = bases[seg];
        /* Memory UCX allocated on this node, UCX can map here: use it directly. */
        if (ucp_rkey_ptr(peer->rkey[seg], bases[seg], (void **)&peer->mapped[seg]) != UCS_OK)
            peer->mapped[seg] = NULL;
    }
    peer->next = w->peers;
    if (w->peers != NULL)
        w->peers->prev = peer;
    w->peers = peer;
    pthread_mutex_unlock(&w->lock);
    *state_out = peer;
    return SHOAL_OK;

err_rkeys:
    while (seg-- > 0)
        ucp_rkey_destroy(peer->rkey[seg]);
    request_wait(w, ucp_ep_close_nbx(peer->ep, &(ucp_request_param_t){.op_attr_mask = 0}),
                 "endpoint close", pe);
err_free:
    pthread_mutex_unlock(&w->lock);
    free(peer);
    return SHOAL_ERR_TRANSPORT;
}

/* An endpoint close at finalize flushes and says goodbye. Every PE closes before
 * any destroys its worker (the core's fences), so it fails only where the peer is
 * gone already (it died, or its node was cut off): that is no error of this
 * PE's, and the close waits 2 s at most for it. */
#define CLOSE_LIMIT_NS 2000000000u

void shoal_ucx_peer_destroy(void *state)
{
    ucx_peer_t *peer = state;
    ucp_request_param_t param = {.op_attr_mask = 0}; /* flush, then close */
    int seg;

    if (peer == NULL)
        return;
    pthread_mutex_lock(&peer->w->lock);
    if (peer->prev != NULL)
        peer->prev->next = peer->next;
    else
        peer->w->peers = peer->next;
    if (peer->next != NULL)
        peer->next->prev = peer->prev;
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++)
        ucp_rkey_destroy(peer->rkey[seg]);
    /* An endpoint never used is left to its worker, whose destruction ends it:
     * closing would flush, first finishing a wire-up nothing needed with a peer
     * that may be finalizing (UCX 1.13 can crash there), and a forced close is
     * refused ("Invalid parameter") without peer error handling, which would
     * cost every endpoint its fastest transports. */
    if (peer->used)
        request_wait_for(peer->w, ucp_ep_close_nbx(peer->ep, &param), NULL, peer->pe,
                         CLOSE_LIMIT_NS);
    pthread_mutex_unlock(&peer->w->lock);
    free(peer);
}

/* Depth of this thread's untracked sections (shoal_ucx_untracked). */
static __thread int untracked_depth;

void shoal_ucx_untracked(int on)
{
    untracked_depth += on ? 1 : -1;
}

/* Counts an operation about to go out on w for quiet and fence: issued, or in an
 * untracked section only tokens. Called with the lock held. */
static void count_issued(shoal_ucx_worker_t *w)
{
    if (untracked_depth > 0)
        __atomic_store_n(&w->tokens, 1, __ATOMIC_RELAXED);
    else
        __atomic_store_n(&w->issued, w->issued + 1, __ATOMIC_RELAXED);
}

/* A blocking put of up to BOUNCE_MAX bytes is sent from a copy and left for quiet
 * to complete: its caller may reuse the source at once, and does not wait for the
 * local completion that UCX over TCP gives only with the target's acknowledgement
 * (a p + wait_until ping-pong across nodes: 19 us -> 16 us half round trip). */
#define BOUNCE_MAX 4096

/* One put or get; blocking ones wait for local completion, the others are kept
 * for quiet. Called with the lock held. */
static shoal_status_t rma_locked(ucx_peer_t *peer, int put, int nbi, int seg, size_t off, void *buf,
                      size_t len)
{
    ucp_request_param_t param = {.op_attr_mask = 0};
    uint64_t raddr = peer->base[seg] + off;
    const char *what = put ? (nbi ? "put_nbi" : "put") : (nbi ? "get_nbi" : "get");
    ucs_status_ptr_t req;
    void *bounce = NULL;

    count_issued(peer->w);
    peer->used = 1;
    if (put && !nbi && len <= BOUNCE_MAX && (bounce = malloc(len)) != NULL) {
        memcpy(bounce, buf, len);
        buf = bounce;
        nbi = 1;
    }
    req = put ? ucp_put_nbx(peer->ep, buf, len, raddr, peer->rkey[seg], &param)
              : ucp_get_nbx(peer->ep, buf, len, raddr, peer->rkey[seg], &param);

    return nbi ? request_keep(peer->w, req, bounce, what, peer->pe)
               : request_wait(peer->w, req, what, peer->pe);
}

static shoal_status_t rma(void *state, int put, int nbi, int seg, size_t off, void *buf, size_t len)
{
    ucx_peer_t *peer = state;
    int status;

    pthread_mutex_lock(&peer->w->lock);
    status = rma_locked(peer, put, nbi, seg, off, buf, len);
    pthread_mutex_unlock(&peer->w->lock);
    return status;
}

static shoal_status_t ucx_put(void *state, int seg, size_t off, const void *src, size_t len)
{
    return rma(state, 1, 0, seg, off, (void *)src, len);
}

static shoal_status_t ucx_get(void *state, int seg, size_t off, void *dst, size_t len)
{
    return rma(state, 0, 0, seg, off, dst, len);
}

static shoal_status_t ucx_put_nbi(void *state, int seg, size_t off, const void *src, size_t len)
{
    return rma(state, 1, 1, seg, off, (void *)src, len);
}

static shoal_status_t ucx_get_nbi(void *state, int seg, size_t off, void *dst, size_t len)
{
    return rma(state, 0, 1, seg, off, dst, len);
}

/* A get that waits at most limit_ms (0: SHOAL_PEER_TIMEOUT), into a buffer of its
 * own: one that runs out of time stays kept, with that buffer, until UCX
 * completes it, and the caller may go on (a hang report looking at a PE on a
 * node that dropped off the network must not hang itself). */
static shoal_status_t ucx_get_within(void *state, int seg, size_t off, void *dst, size_t len,
                                     unsigned limit_ms)
{
    ucx_peer_t *peer = state;
    shoal_ucx_worker_t *w = peer->w;
    ucp_request_param_t param = {.op_attr_mask = 0};
    void *buf = malloc(len);
    ucs_status_ptr_t req;
    shoal_status_t status;

    if (buf == NULL)
        return SHOAL_ERR_NO_MEMORY;
    pthread_mutex_lock(&w->lock);
    __atomic_store_n(&w->issued, w->issued + 1, __ATOMIC_RELAXED);
    peer->used = 1;
    req = ucp_get_nbx(peer->ep, buf, len, peer->base[seg] + off, peer->rkey[seg], &param);
    status = limit_ms > 0 ? request_wait_for(w, req, "get", peer->pe, (uint64_t)limit_ms * 1000000u)
                          : request_wait(w, req, "get", peer->pe); /* gives up on the job */
    if (status == SHOAL_ERR_TIMEOUT) {
        /* Limited: kept with its buffer until UCX completes it. Else (or if the keep
         * itself ran out of time) the buffer stays UCX's: the job is ending. */
        if (limit_ms > 0)
            request_keep(w, req, buf, "get", peer->pe);
        pthread_mutex_unlock(&w->lock);
        return SHOAL_ERR_TIMEOUT;
    }
    pthread_mutex_unlock(&w->lock);
    if (status == SHOAL_OK)
        memcpy(dst, buf, len);
    free(buf);
    return status;
}

static shoal_status_t ucx_amo(void *state, int seg, size_t off, shoal_amo_op_t op, size_t size,
                   const void *operand, const void *compare, void *fetch, int nbi);

/* Fetching and, or and xor as a compare-and-swap loop: UCX 1.13's shared-memory
 * transports return the old value of these but leave the word unchanged (and,
 * or) or zero it (xor), so a context under SHOAL_TRANSPORT=ucx lost the update.
 * The loop completes before it returns, which a _nbi form allows. */
static shoal_status_t ucx_fetch_bitwise(void *state, int seg, size_t off, shoal_amo_op_t op,
                                        size_t size, const void *operand, void *fetch)
{
    uint64_t old = 0, seen, want, arg = 0;
    int status;

    memcpy(&arg, operand, size);
    status = ucx_amo(state, seg, off, SHOAL_AMO_FETCH, size, NULL, NULL, &old, 0);
    while (status == SHOAL_OK) {
        want = op == SHOAL_AMO_AND ? (old & arg) : op == SHOAL_AMO_OR ? (old | arg) : (old ^ arg);
        seen = 0;
        status = ucx_amo(state, seg, off, SHOAL_AMO_CSWAP, size, &want, &old, &seen, 0);
        if (status != SHOAL_OK || seen == old)
            break;
        old = seen;
    }
    memcpy(fetch, &old, size);
    return status;
}

/* UCP has add, and, or, xor, swap and cswap; fetch is an add of 0 and set a swap
 * whose old value is dropped. A reply buffer of our own (set, or cswap without a
 * fetch pointer) lives on this stack, so those wait; the rest complete at quiet. */
static shoal_status_t ucx_amo(void *state, int seg, size_t off, shoal_amo_op_t op, size_t size,
                   const void *operand, const void *compare, void *fetch, int nbi)
{
    static const ucp_atomic_op_t opcodes[] = {
        [SHOAL_AMO_FETCH] = UCP_ATOMIC_OP_ADD, [SHOAL_AMO_SET] = UCP_ATOMIC_OP_SWAP,
        [SHOAL_AMO_SWAP] = UCP_ATOMIC_OP_SWAP, [SHOAL_AMO_CSWAP] = UCP_ATOMIC_OP_CSWAP,
        [SHOAL_AMO_ADD] = UCP_ATOMIC_OP_ADD,   [SHOAL_AMO_AND] = UCP_ATOMIC_OP_AND,
        [SHOAL_AMO_OR] = UCP_ATOMIC_OP_OR,     [SHOAL_AMO_XOR] = UCP_ATOMIC_OP_XOR,
    };
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE,
        .datatype = ucp_dt_make_contig(size),
    };
    ucx_peer_t *peer = state;
    uint64_t zero = 0, scratch = 0;
    const void *value = op == SHOAL_AMO_FETCH ? &zero : op == SHOAL_AMO_CSWAP ? compare : operand;
    void *reply = fetch;
    ucs_status_ptr_t req;
    int status;

    if (fetch != NULL && (op == SHOAL_AMO_AND || op == SHOAL_AMO_OR || op == SHOAL_AMO_XOR))
        return ucx_fetch_bitwise(state, seg, off, op, size, operand, fetch);
    if (reply == NULL && (op == SHOAL_AMO_SET || op == SHOAL_AMO_CSWAP))
        reply = &scratch;
    if (op == SHOAL_AMO_CSWAP) /* UCP compares with buffer; the new value rides in reply */
        memcpy(reply, operand, size);
    if (reply != NULL) {
        param.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        param.reply_buffer = reply;
    }
    pthread_mutex_lock(&peer->w->lock);
    count_issued(peer->w);
    peer->used = 1;
    req = ucp_atomic_op_nbx(peer->ep, opcodes[op], value, 1, peer->base[seg] + off,
                            peer->rkey[seg], &param);
    if (reply == &scratch || (fetch != NULL && !nbi))
        status = request_wait(peer->w, req, "atomic", peer->pe);
    else
        status = request_keep(peer->w, req, NULL, "atomic", peer->pe);
    pthread_mutex_unlock(&peer->w->lock);
    return status;
}

/* A strided get: a batch of element gets issued, then exactly those requests
 * completed (a quiet would also complete the context's other operations). */
#define IGET_BATCH 64

static shoal_status_t ucx_iget(void *state, int seg, size_t off, ptrdiff_t sst, char *dst,
                    ptrdiff_t dst_stride, size_t nelems, size_t size)
{
    ucx_peer_t *peer = state;
    ucp_request_param_t param = {.op_attr_mask = 0};
    ucs_status_ptr_t req[IGET_BATCH];
    int status = SHOAL_OK;
    size_t done, n, i;

    pthread_mutex_lock(&peer->w->lock);
    peer->used = 1;
    for (done = 0; done < nelems; done += n) {
        n = nelems - done < IGET_BATCH ? nelems - done : IGET_BATCH;
        for (i = 0; i < n; i++) {
            ptrdiff_t at = (ptrdiff_t)(done + i);

            req[i] = ucp_get_nbx(peer->ep, dst + at * dst_stride, size,
                                 peer->base[seg] + off + at * sst, peer->rkey[seg], &param);
        }
        for (i = 0; i < n && status != SHOAL_ERR_TIMEOUT; i++) {
            int st = request_wait(peer->w, req[i], "iget", peer->pe);

            if (st != SHOAL_OK)
                status = st; /* out of time: the job ends, the others may stay */
        }
    }
    pthread_mutex_unlock(&peer->w->lock);
    return status;
}

static void *ucx_ptr(void *state, int seg, size_t off)
{
    ucx_peer_t *peer = state;

    return peer->mapped[seg] != NULL ? peer->mapped[seg] + off : NULL;
}

const shoal_transport_ops_t shoal_ucx_ops = {
    .name = "ucx",
    .caps = SHOAL_CAP_MESSAGES | SHOAL_CAP_PER_CTX,
    .put = ucx_put,
    .get = ucx_get,
    .put_nbi = ucx_put_nbi,
    .get_nbi = ucx_get_nbi,
    .get_within = ucx_get_within,
    .amo = ucx_amo,
    .iget = ucx_iget,
    .ptr = ucx_ptr,
    .destroy = shoal_ucx_peer_destroy,
};

int shoal_ucx_stuck_pe(shoal_ucx_worker_t *w)
{
    return w->stuck_pe;
}

/* Whether operations were issued since the last quiet. Unlocked: a thread sees
 * its own operations, which is what its quiet must cover. */
static int has_issued(shoal_ucx_worker_t *w)
{
    return __atomic_load_n(&w->issued, __ATOMIC_RELAXED) !=
           __atomic_load_n(&w->quieted, __ATOMIC_RELAXED);
}

/* After a worker flush ran out of time: which peer does not answer? Each used
 * endpoint is flushed alone, a second at most; the first that does not finish
 * is named. The job is ending: requests left unfinished are UCX's. */
#define FIND_STUCK_NS 1000000000u

static void find_stuck(shoal_ucx_worker_t *w)
{
    ucp_request_param_t param = {.op_attr_mask = 0};

    for (ucx_peer_t *peer = w->peers; peer != NULL; peer = peer->next) {
        /* One that fails is as good an answer as one that hangs: UCX may have
         * seen the connection die meanwhile (TCP keepalive on a cut link). */
        if (peer->used && request_wait_for(w, ucp_ep_flush_nbx(peer->ep, &param), NULL, peer->pe,
                                           FIND_STUCK_NS) != SHOAL_OK) {
            w->stuck_pe = peer->pe;
            return;
        }
    }
    w->stuck_pe = -1;
}

/* Completes every kept request, then flushes the worker for remote completion;
 * with_tokens: also when only collective tokens were sent since the last flush. */
shoal_status_t shoal_ucx_quiet(shoal_ucx_worker_t *w, int with_tokens)
{
    ucp_request_param_t param = {.op_attr_mask = 0};
    int status = SHOAL_OK;
    unsigned long seen;

    if (with_tokens) {
        pthread_mutex_lock(&w->lock);
        if (w->tokens)
            __atomic_store_n(&w->issued, w->issued + 1, __ATOMIC_RELAXED);
        __atomic_store_n(&w->tokens, 0, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&w->lock);
    }
    if (!has_issued(w))
        return SHOAL_OK;
    pthread_mutex_lock(&w->lock);
    seen = w->issued; /* the waits below unlock: others may issue more meanwhile */
    status = complete_kept(w, w->kept);
    if (status != SHOAL_ERR_TIMEOUT) {
        int st = request_wait(w, ucp_worker_flush_nbx(w->worker, &param), "flush", -1);

        if (st == SHOAL_ERR_TIMEOUT)
            find_stuck(w);
        if (st != SHOAL_OK)
            status = st;
    }
    if (seen > w->quieted) /* a concurrent quiet may have covered more */
        __atomic_store_n(&w->quieted, seen, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&w->lock);
    return status;
}

shoal_status_t shoal_ucx_fence(shoal_ucx_worker_t *w)
{
    ucs_status_t st;

    if (!has_issued(w) && !__atomic_load_n(&w->tokens, __ATOMIC_RELAXED))
        return SHOAL_OK;
    pthread_mutex_lock(&w->lock);
    st = ucp_worker_fence(w->worker);
    pthread_mutex_unlock(&w->lock);
    if (st != UCS_OK) {
        shoal_log_error("UCX: fence failed: %s", ucs_status_string(st));
        return SHOAL_ERR_TRANSPORT;
    }
    return SHOAL_OK;
}

/* Every worker, not only the main one: a peer may wait on any of them. A flush
 * of the main worker covers the endpoints UCX made back to a peer's contexts,
 * and over TCP those complete only when that context's worker progresses (the
 * peer may be sitting in a barrier, never touching the context). A worker that
 * another thread holds is skipped: that thread progresses it. */
unsigned shoal_ucx_progress(shoal_ucx_t *ucx)
{
    shoal_ucx_worker_t *w;
    unsigned events = 0;

    if (__atomic_load_n(&ucx->gave_up, __ATOMIC_RELAXED) ||
        pthread_mutex_trylock(&ucx->workers_lock) != 0)
        return 0;
    for (w = &ucx->main; w != NULL; w = w->next) {
        if (pthread_mutex_trylock(&w->lock) != 0)
            continue;
        events += ucp_worker_progress(w->worker);
        pthread_mutex_unlock(&w->lock);
    }
    pthread_mutex_unlock(&ucx->workers_lock);
    return events;
}
