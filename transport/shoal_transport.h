/* The small ops table behind which each peer's transport sits. The core picks
 * two tables per peer at connect time, one for RMA and one for AMOs (they differ
 * where the atomicity domain needs it); `state` is the transport's own per-peer
 * object. Segments are named by index (heap, data) and addressed by offset.
 * What a transport can do beyond the ops is said by flags, never by comparing
 * tables or function pointers. */
#ifndef SHOAL_TRANSPORT_H
#define SHOAL_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "shoal_status.h"
#include "shoal_symm.h" /* segment indices, AMO ops */

/* Capability flags (shoal_transport_ops_t.caps). */
enum {
    /* Each operation is a message (cost per call, not per byte): the core packs
     * strided transfers into few calls; the _nbi forms really return early. */
    SHOAL_CAP_MESSAGES = 1 << 0,
    /* The per-peer state belongs to a worker: a context with a worker of its own
     * needs a state of its own for the peer (shoal_ctx_ucx_peer). */
    SHOAL_CAP_PER_CTX = 1 << 1,
};

typedef struct shoal_transport_ops {
    const char *name;
    unsigned caps; /* SHOAL_CAP_* */
    /* Blocking forms return once the local buffer may be reused (put) or holds the
     * data (get); the _nbi forms may return before and complete at quiet. */
    shoal_status_t (*put)(void *state, int seg, size_t off, const void *src, size_t len);
    shoal_status_t (*get)(void *state, int seg, size_t off, void *dst, size_t len);
    shoal_status_t (*put_nbi)(void *state, int seg, size_t off, const void *src, size_t len);
    shoal_status_t (*get_nbi)(void *state, int seg, size_t off, void *dst, size_t len);
    /* A blocking get that waits at most limit_ms (0: SHOAL_PEER_TIMEOUT), for a
     * look at a peer that may be gone: SHOAL_ERR_TIMEOUT when it did not answer
     * in time (the transport then owns the get until it completes). */
    shoal_status_t (*get_within)(void *state, int seg, size_t off, void *dst, size_t len,
                                 unsigned limit_ms);
    /* op on the size-byte value at (seg, off): operand and compare as the op needs,
     * fetch (NULL for none) receives the old value; with nbi, by quiet. */
    shoal_status_t (*amo)(void *state, int seg, size_t off, shoal_amo_op_t op, size_t size,
               const void *operand, const void *compare, void *fetch, int nbi);
    /* Strided get of nelems elements of size bytes, from (seg, off) every sst bytes
     * into dst every dst_stride bytes; returns once dst holds them all, having
     * waited for nothing else (a put issued before it may still be in flight). */
    shoal_status_t (*iget)(void *state, int seg, size_t off, ptrdiff_t sst, char *dst,
                ptrdiff_t dst_stride, size_t nelems, size_t size);
    /* A load/store address for (seg, off) on the peer, or NULL. */
    void *(*ptr)(void *state, int seg, size_t off);
    /* Frees the per-peer state (after the last operation on it). */
    void (*destroy)(void *state);
} shoal_transport_ops_t;

#endif
