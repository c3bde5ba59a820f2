/* Requests: a blocking call progresses its worker until its request completes,
 * yielding the core now and then, within SHOAL_PEER_TIMEOUT; non-blocking ones
 * are kept, in order, for quiet. Every function here runs with the worker's
 * lock held (it drops it only to yield). */
#include "ucx_impl.h"
#include "shoal_log.h"
#include "shoal_status.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#define SPINS_BEFORE_YIELD 64

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
 * either end the job or hand a buffer of their own to shoal_ucx_request_keep), and the
 * wait returns SHOAL_ERR_TIMEOUT with w->stuck_pe set, quietly: the core says
 * which routine waited. what NULL is an endpoint close at shmem_finalize, whose
 * failure only debugging shows. Called with the lock held. */
shoal_status_t shoal_ucx_request_wait_for(shoal_ucx_worker_t *w, ucs_status_ptr_t req,
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

/* shoal_ucx_request_wait_for with SHOAL_PEER_TIMEOUT's limit, after which the job ends. */
shoal_status_t shoal_ucx_request_wait(shoal_ucx_worker_t *w, ucs_status_ptr_t req, const char *what,
                                      int pe)
{
    shoal_status_t status = shoal_ucx_request_wait_for(w, req, what, pe, w->ucx->timeout_ns);

    return status == SHOAL_ERR_TIMEOUT ? give_up(w, pe) : status;
}

/* Frees a kept request that has completed with st, and its bounce buffer. */
static shoal_status_t release_kept(struct ucx_kept *k, ucs_status_t st)
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
shoal_status_t shoal_ucx_request_complete(shoal_ucx_worker_t *w, unsigned long upto)
{
    int status = SHOAL_OK;
    unsigned spins = 0;
    uint64_t since = 0;

    while (w->head < w->npending && w->pending[w->head].seq < upto) {
        struct ucx_kept *k = &w->pending[w->head];
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
shoal_status_t shoal_ucx_request_keep(shoal_ucx_worker_t *w, ucs_status_ptr_t req, void *bounce,
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
        struct ucx_kept *grown = realloc(w->pending, want * sizeof(*grown));

        if (grown == NULL) {
            status = shoal_ucx_request_wait(w, req, what, pe);
            if (status == SHOAL_ERR_TIMEOUT)
                return status; /* UCX may still use bounce */
            goto out_free;
        }
        w->pending = grown;
        w->max_pending = want;
    }
    w->pending[w->npending++] =
        (struct ucx_kept){.req = req, .bounce = bounce, .seq = w->kept++, .pe = pe};
    return status;

out_free:
    free(bounce);
    return status;
}
