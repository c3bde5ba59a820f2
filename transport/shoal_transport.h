/* The component interface: all the core and the API see of a transport. A
 * transport is a component (shoal_component_t): its instance, workers and
 * progress, memory and keys, and peers, each reached through the component's
 * table, and per peer the small ops table (shoal_transport_ops_t) behind which
 * its operations sit. The core picks two ops tables per peer at connect time,
 * one for RMA and one for AMOs (they differ where the atomicity domain needs
 * it); `state` is the transport's own per-peer object. Segments are named by
 * index (heap, data) and addressed by offset. What a transport can do beyond
 * the ops is said by flags, never by comparing tables or function pointers.
 * Above the transports, only this header is included; below, it needs util. */
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
     * needs a state of its own for the peer (shoal_ctx_net_peer). */
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

/* A component's instance (UCX: its context and main worker) and a worker, a
 * stream of operations that completes on its own (one per context). Opaque:
 * each component defines them for itself. */
typedef struct shoal_transport shoal_transport_t;
typedef struct shoal_transport_worker shoal_transport_worker_t;

/* What a PE published (shmem/core/engine/wireup.c), from which a component connects to
 * it. Each component reads the fields it needs. */
typedef struct shoal_transport_peer_info {
    int pe;                            /* its number, for messages */
    int pid;                           /* its process */
    int fd[SHOAL_SEG_COUNT];           /* each segment's file in that process */
    size_t size[SHOAL_SEG_COUNT];      /* each segment's size (0: none) */
    uint64_t base[SHOAL_SEG_COUNT];    /* each segment's address in that process */
    const void *rkey[SHOAL_SEG_COUNT]; /* each segment's packed remote key */
    const void *address;               /* its main worker's address */
    char *const *own; /* this PE's own segments as mapped here, when pe is this PE; else NULL */
} shoal_transport_peer_info_t;

/* A transport component. A component fills what it does and leaves the other
 * slots NULL: shm has no instance or workers, its segments live in files that
 * peers map (seg_*); UCX allocates or registers memory on its instance (mem_*)
 * and completes operations per worker. */
typedef struct shoal_component {
    const char *name;
    const shoal_transport_ops_t *ops; /* the per-peer ops of the peers it makes */

    /* The instance. progress_us: the pause between progress-thread passes (0: no
     * thread); timeout_s: SHOAL_PEER_TIMEOUT, how long a wait on a peer may last
     * (0: no limit), after which it returns SHOAL_ERR_TIMEOUT. */
    shoal_status_t (*create)(unsigned progress_us, unsigned timeout_s, shoal_transport_t **tr_out);
    void (*destroy)(shoal_transport_t *tr); /* NULL tr: nothing */
    /* Whether every AMO it does on this PE's memory is a CPU atomic, so that PEs
     * of this node may keep CPU atomics on it; 0 where a NIC may do them. */
    int (*cpu_atomics)(shoal_transport_t *tr);

    /* Workers and progress. The main worker is the one peers connect to. */
    shoal_transport_worker_t *(*main_worker)(shoal_transport_t *tr);
    shoal_status_t (*worker_create)(shoal_transport_t *tr, shoal_transport_worker_t **w_out);
    void (*worker_destroy)(shoal_transport_worker_t *w); /* NULL w: nothing */
    /* Starts the progress thread, once a peer may need this PE to progress. */
    shoal_status_t (*progress_start)(shoal_transport_t *tr);
    /* Progresses every worker; returns the events seen. Cheap when idle;
     * workers another thread holds are skipped. */
    unsigned (*progress)(shoal_transport_t *tr);
    /* This thread's operations between untracked(1) and (0) are a collective's
     * tokens, or data the receiver's token wait completes: no program's quiet
     * need flush them (a fence still orders them). */
    void (*untracked)(int on);
    /* Completes what w issued (with_tokens: the untracked operations too). */
    shoal_status_t (*quiet)(shoal_transport_worker_t *w, int with_tokens);
    shoal_status_t (*fence)(shoal_transport_worker_t *w);
    /* After a wait on w returned SHOAL_ERR_TIMEOUT: the PE it waited for, or -1. */
    int (*stuck_pe)(shoal_transport_worker_t *w);

    /* Memory in files that peers map (shm). seg_create: a new shared segment of
     * size bytes at a multiple of align (a power of two, at least a page);
     * seg_share: the private mapping [addr, addr+size) made shared in place,
     * contents kept; seg_copy: size bytes between [base, base+size) and the
     * start of file fd, into the file when to_file is set, else out of it;
     * seg_detach: unmaps one. */
    shoal_status_t (*seg_create)(const char *name, size_t size, size_t align, int *fd_out,
                                 void **addr_out);
    shoal_status_t (*seg_share)(const char *name, void *addr, size_t size, int *fd_out);
    shoal_status_t (*seg_copy)(int fd, char *base, size_t size, int to_file);
    void (*seg_detach)(void *addr, size_t size);

    /* Memory and keys on an instance (UCX). mem_alloc: segment seg allocated by
     * the transport, size bytes at addr exactly, so that its same-node transports
     * can map it into the peers (mem_register then only packs its key, and
     * destroy frees it); mem_unmap: frees or unregisters seg now; mem_register: a
     * local segment registered, its packed key valid until destroy; address: the
     * main worker's, valid until destroy. */
    shoal_status_t (*mem_alloc)(shoal_transport_t *tr, int seg, void *addr, size_t size);
    void (*mem_unmap)(shoal_transport_t *tr, int seg);
    shoal_status_t (*mem_register)(shoal_transport_t *tr, int seg, void *base, size_t size,
                                   const void **rkey_out, size_t *rkey_len_out);
    void (*address)(shoal_transport_t *tr, const void **addr_out, size_t *len_out);

    /* Peers: the state ops take for the peer info describes, on worker w (NULL
     * where the component has none); ops->destroy frees it. */
    shoal_status_t (*peer_create)(shoal_transport_worker_t *w,
                                  const shoal_transport_peer_info_t *info, void **state_out);

    /* For shoal_info: the resources an instance would use under this
     * environment, as "name/device" words in *list, which free(*list) frees
     * whole; or the transport's reason why it cannot start, in why. */
    shoal_status_t (*resources)(char ***list_out, size_t *n_out, char *why, size_t why_len);
    /* The transport library's version: the one built against, the one loaded. */
    void (*versions)(const char **built_out, const char **loaded_out);
} shoal_component_t;

/* The components there are: load/store on this node, and UCX. */
extern const shoal_component_t shoal_shm_component;
extern const shoal_component_t shoal_ucx_component;

#endif
