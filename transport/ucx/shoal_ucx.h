/* The UCP transport: other-node peers (and every peer with SHOAL_TRANSPORT=ucx);
 * a main worker per PE that peers connect to, and one more per context.
 * The only part of Shoal that includes <ucp/api/ucp.h>; callers see opaque types. */
#ifndef SHOAL_UCX_H
#define SHOAL_UCX_H

#include <stddef.h>
#include <stdint.h>

#include "shoal_transport.h"
#include "shoal_status.h"

typedef struct shoal_ucx shoal_ucx_t;
/* A worker: the main one (peers connect to it) or one per context. */
typedef struct shoal_ucx_worker shoal_ucx_worker_t;

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
shoal_status_t shoal_ucx_peer_create(shoal_ucx_worker_t *w, int pe, const void *addr,
                                     const void *const *rkeys, const uint64_t *bases,
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

#endif
