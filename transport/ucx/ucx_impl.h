/* The UCP component's inside: its objects (context, workers, peers) and the
 * functions its files share, which the component table (ucx_context.c) hands
 * the core. Other-node peers (and every peer with SHOAL_TRANSPORT=ucx); a main
 * worker per PE that peers connect to, and one more per context. Only
 * transport/ucx includes this, and with it <ucp/api/ucp.h>. */
#ifndef SHOAL_UCX_IMPL_H
#define SHOAL_UCX_IMPL_H

#include <pthread.h>
#include <stdint.h>
#include <ucp/api/ucp.h>

#include "shoal_status.h"
#include "shoal_transport.h"

/* The component's instance and workers, as shoal_transport.h leaves them opaque. */
typedef struct shoal_transport shoal_ucx_t;
typedef struct shoal_transport_worker shoal_ucx_worker_t;

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
struct shoal_transport_worker {
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

struct shoal_transport {
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

extern const shoal_transport_ops_t shoal_ucx_ops;

/* progress_us: the pause between progress-thread passes (0: no thread);
 * timeout_s: SHOAL_PEER_TIMEOUT, how long a wait on a peer may last (0: no limit),
 * after which the wait returns SHOAL_ERR_TIMEOUT (the job then ends). */
shoal_status_t shoal_ucx_create(unsigned progress_us, unsigned timeout_s, shoal_ucx_t **ucx_out);
/* Starts the progress thread, once a peer may need this PE to progress. */
shoal_status_t shoal_ucx_progress_start(shoal_ucx_t *ucx);
void shoal_ucx_destroy(shoal_ucx_t *ucx);
/* Whether every AMO UCX does on this PE's memory is a CPU atomic (software AMOs
 * over TCP, shared memory, or UCX_ATOMIC_MODE=cpu), so that PEs of this node may
 * keep CPU atomics on it; 0 where a NIC may do them. */
int shoal_ucx_cpu_atomics(shoal_ucx_t *ucx);

shoal_ucx_worker_t *shoal_ucx_main_worker(shoal_ucx_t *ucx);
/* Another worker on the same context: its operations complete independently. */
shoal_status_t shoal_ucx_worker_create(shoal_ucx_t *ucx, shoal_ucx_worker_t **w_out);
void shoal_ucx_worker_destroy(shoal_ucx_worker_t *w);

/* This worker's address, valid until shoal_ucx_destroy. */
void shoal_ucx_address(shoal_ucx_t *ucx, const void **addr_out, size_t *len_out);
/* Allocates segment seg through UCX, size bytes at addr exactly, so that UCX's
 * same-node transports can map it into the peers; shoal_ucx_register then only
 * packs its key, and shoal_ucx_destroy frees it. */
shoal_status_t shoal_ucx_alloc(shoal_ucx_t *ucx, int seg, void *addr, size_t size);
/* Frees seg's allocation (or drops its registration) now, before shoal_ucx_destroy. */
void shoal_ucx_unmap(shoal_ucx_t *ucx, int seg);
/* Registers a local segment; the packed rkey stays valid until shoal_ucx_destroy. */
shoal_status_t shoal_ucx_register(shoal_ucx_t *ucx, int seg, void *base, size_t size,
                                  const void **rkey_out, size_t *rkey_len_out);

/* A connected peer: its state is what shoal_ucx_ops take. */
shoal_status_t shoal_ucx_peer_create(shoal_ucx_worker_t *w, const shoal_transport_peer_info_t *info,
                                     void **state_out);
void shoal_ucx_peer_destroy(void *state);

/* This thread's operations between shoal_ucx_untracked(1) and (0) are a
 * collective's tokens, or data that the receiver's token wait completes: no
 * program's quiet need flush them (a fence still orders them). */
void shoal_ucx_untracked(int on);
/* Completes what w issued (with_tokens: the collectives' tokens too). */
shoal_status_t shoal_ucx_quiet(shoal_ucx_worker_t *w, int with_tokens);
/* After a wait on w returned SHOAL_ERR_TIMEOUT: the PE it waited for, or -1
 * (a flush waits for every peer). */
int shoal_ucx_stuck_pe(shoal_ucx_worker_t *w);
shoal_status_t shoal_ucx_fence(shoal_ucx_worker_t *w);
/* Progresses every worker (the main one and each context's); returns the events
 * seen. Cheap when idle; workers another thread holds are skipped. */
unsigned shoal_ucx_progress(shoal_ucx_t *ucx);

/* ucx_context.c */
/* A UCP context with Shoal's features under this environment's UCX_* settings,
 * which keep_private has edited, and that configuration (release both). */
ucs_status_t shoal_ucx_context_open(ucp_config_t **config_out, ucp_context_h *context_out);
/* What ucp_context_print_info prints for context (free it), or NULL. */
char *shoal_ucx_context_text(ucp_context_h context);
/* The resource lines of that text ("#  resource 2 : md 1 dev 2 flags -- tcp/eth0"):
 * their "tcp/eth0" words, NULL-terminated, *n_out of them; one block, which
 * free() frees whole; NULL where memory ran out. */
char **shoal_ucx_resource_words(const char *text, size_t *n_out);

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
