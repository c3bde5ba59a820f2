/* The UCX component's inside: its objects (context, workers, peers) and the
 * functions its files share. Only transport/ucx includes this, and with it
 * <ucp/api/ucp.h>. */
#ifndef SHOAL_UCX_IMPL_H
#define SHOAL_UCX_IMPL_H

#include <pthread.h>
#include <stdint.h>
#include <ucp/api/ucp.h>

#include "shoal_ucx.h"

/* A non-blocking request kept for quiet. */
struct ucx_kept {
    void *req;
    void *bounce;      /* freed once req completes, or NULL */
    unsigned long seq; /* the order it was kept in */
    int pe;            /* the peer it went to, for messages */
};

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
    struct ucx_kept *pending; /* live: [head, npending), oldest first */
    size_t head, npending, max_pending;
    unsigned long kept; /* requests kept so far: the next seq */
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
    shoal_ucx_worker_t main;      /* the one peers connect to; contexts add their own */
    pthread_mutex_t workers_lock; /* guards the list that starts at main */
    ucp_address_t *address;
    size_t address_len;
    ucp_mem_h memh[SHOAL_SEG_COUNT];
    void *rkey_buf[SHOAL_SEG_COUNT];
    int cpu_atomics; /* UCX's AMOs on our memory are CPU atomics (ucx_context.c) */
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

/* ucx_worker.c */
shoal_status_t shoal_ucx_worker_init(shoal_ucx_t *ucx, shoal_ucx_worker_t *w);
void shoal_ucx_worker_cleanup(shoal_ucx_worker_t *w);

/* ucx_request.c: called with w's lock held. */
/* Progresses until req completes, or limit_ns (0: none) have passed:
 * SHOAL_ERR_TIMEOUT then, quietly, with w->stuck_pe set (req is left to UCX).
 * what NULL: an endpoint close, whose failure only debugging shows. */
shoal_status_t shoal_ucx_request_wait_for(shoal_ucx_worker_t *w, ucs_status_ptr_t req,
                                          const char *what, int pe, uint64_t limit_ns);
/* The same within SHOAL_PEER_TIMEOUT, after which the job ends (gave_up). */
shoal_status_t shoal_ucx_request_wait(shoal_ucx_worker_t *w, ucs_status_ptr_t req, const char *what,
                                      int pe);
/* Keeps a non-blocking request for quiet, with a bounce buffer to free after it. */
shoal_status_t shoal_ucx_request_keep(shoal_ucx_worker_t *w, ucs_status_ptr_t req, void *bounce,
                                      const char *what, int pe);
/* Completes, in order, the kept requests older than seq upto. */
shoal_status_t shoal_ucx_request_complete(shoal_ucx_worker_t *w, unsigned long upto);

#endif
