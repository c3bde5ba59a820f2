/* The untyped engine's state and its hot-path helpers: PE identity, the local
 * symmetric segments, the peers and their transports. Speaks in bytes and
 * segment offsets; never names a C type of the user's. The engine is the room
 * the collectives, the GPU hook and init stand on: it calls none of them, and
 * below it only the diagnostics (shmem/core/diag), which it tells. */
#ifndef SHOAL_CORE_H
#define SHOAL_CORE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "shoal_atomic.h"
#include "shoal_env.h"
#include "shoal_handle.h"
#include "shoal_heap.h"
#include "shoal_log.h"
#include "shoal_transport.h"
#include "shoal_wait.h"
#include "shoal_status.h"

typedef struct shoal_seg {
    char *base;
    size_t size;
    int fd; /* memfd backing it, which same-node peers map */
} shoal_seg_t;

typedef struct shoal_peer {
    const shoal_transport_ops_t *ops; /* NULL until first use connects it */
    void *state;                      /* the transport's per-peer object */
    /* AMOs may take another path than RMA: all AMOs of a job must be atomic with
     * each other, so a job that spans nodes sends every AMO through UCX, unless
     * UCX's own AMOs are CPU atomics (TCP, UCX_ATOMIC_MODE=cpu; see amo_net). */
    const shoal_transport_ops_t *amo_ops;
    void *amo_state;
    int where;     /* SHOAL_PEER_*: whether it runs on this node, once looked up */
    uint64_t node; /* shoal_peer_node, once looked up; 0 before */
} shoal_peer_t;

enum { SHOAL_PEER_UNKNOWN, SHOAL_PEER_THIS_NODE, SHOAL_PEER_OTHER_NODE };

typedef struct shoal_state {
    int initialized;
    int finalized;  /* the last shmem_finalize has run (until an init starts again) */
    int init_count; /* initialisations not yet matched by a finalize */
    int my_pe;
    int n_pes;
    int thread_level;
    shoal_settings_t settings;
    shoal_seg_t seg[SHOAL_SEG_COUNT];
    shoal_heap_t heap;
    shoal_peer_t *peers;
    shoal_transport_t *net;             /* shoal_core_net's instance, or NULL */
    shoal_transport_worker_t *net_main; /* the default context's worker */
    int amo_net; /* every AMO goes through the network (the job spans nodes and its
                  * AMOs are not CPU atomics: the component's cpu_atomics) */
    /* The network component may allocate the segments (SHOAL_TRANSPORT=ucx), once
     * it is up: init decides, as it knows what else the process runs. */
    int net_may_allocate;
    /* The direct path, which RMA and AMOs on the default context try first: per
     * segment, each PE's copy as mapped here (NULL until connected, and where only
     * UCX reaches it). direct_pes is n_pes while the program's RMA and AMOs may
     * take it (initialised, SHOAL_CHECK and SHOAL_STATS off), else 0; direct_coll_pes
     * the same for the library's own collectives and tokens, which SHOAL_STATS
     * leaves alone (it counts the program's operations on the checked path, and
     * would only slow the collectives it times); direct_amo: AMOs may take it too
     * (not amo_net); direct_amo_pes: direct_pes where direct_amo is set, else 0 (the
     * program's AMOs test one bound instead of a flag and a bound). */
    char **direct[SHOAL_SEG_COUNT];
    int direct_pes;
    int direct_amo_pes;
    /* Local memory the CPU must not copy, which the direct path leaves to the
     * checked one: [device_lo, device_lo + device_size), the GPU heap where the
     * GPU library has one (the gpu room sets it), else size 0. Beside the bounds
     * above, so that the test costs a subtract and a compare, no extra load of
     * another line. */
    uintptr_t device_lo;
    size_t device_size;
    int direct_coll_pes;
    int direct_amo;
    /* Turns a wait loop spins (pause) before it yields the core: none when this
     * node runs more PEs than this PE may use cores, since the PE it waits for
     * then needs the core to make progress. */
    unsigned spins_before_yield;
    /* Collective waits may sleep (futex) instead of yielding: the node is
     * oversubscribed, UCX is not up (peers may need this PE's progress) and
     * tokens go by CPU atomics, whose senders wake sleepers. */
    int sleep_waits;
    int one_node; /* every PE is on this node (reached by load/store, or through UCX) */
    pthread_mutex_t connect_lock;
} shoal_state_t;

/* A communication context: its PE numbers are its team's, and where UCX carries
 * the traffic it has a worker of its own, so its quiet waits for nothing else. */
typedef struct shoal_session shoal_session_t; /* session.c */
/* A team (the collectives' shoal_team_t, shoal_coll.h): the engine only keeps it
 * and compares it. */
struct shoal_team;

typedef struct shoal_ctx {
    long options;
    struct shoal_team *team;
    shoal_transport_worker_t *worker; /* NULL: the main worker (the default context) */
    void **net_peers;                 /* per world PE: endpoints on worker, made on first use */
    uintptr_t handle;                 /* what the program holds: see shoal_handle.h */
    shoal_session_t *session;         /* a batch session's held AMOs, or NULL */
} shoal_ctx_t;

extern shoal_ctx_t shoal_ctx_default;

/* The two roles a transport plays for the core, and the components that play
 * them: the only place the core names one. local maps same-node segments for
 * load/store (memfd files: shoal_shm_component); net reaches other nodes, and
 * every PE under SHOAL_TRANSPORT=ucx (shoal_ucx_component). */
static const shoal_component_t *const shoal_core_local = &shoal_shm_component;
static const shoal_component_t *const shoal_core_net = &shoal_ucx_component;

extern shoal_state_t shoal_core_state;

/* What the API layer reads of the state, which it never names: each is one
 * load, inline. */
static inline int shoal_core_my_pe(void)
{
    return shoal_core_state.my_pe;
}

static inline int shoal_core_n_pes(void)
{
    return shoal_core_state.n_pes;
}

static inline int shoal_core_thread_level(void)
{
    return shoal_core_state.thread_level;
}

static inline const shoal_settings_t *shoal_core_settings(void)
{
    return &shoal_core_state.settings;
}

/* Whether shmem_init has run (and the last shmem_finalize not yet); an acquire
 * load, so that a thread that sees it set sees the state it set up. */
static inline int shoal_core_initialized(void)
{
    return __atomic_load_n(&shoal_core_state.initialized, __ATOMIC_ACQUIRE) != 0;
}

/* The last shmem_finalize has run (until an init starts again). */
static inline int shoal_core_finalized(void)
{
    return shoal_core_state.finalized;
}

static inline const shoal_seg_t *shoal_core_seg(int seg)
{
    return &shoal_core_state.seg[seg];
}

/* The symmetric heap's allocator (shoal_heap.h). */
static inline shoal_heap_t *shoal_core_heap(void)
{
    return &shoal_core_state.heap;
}

/* Whether the network component is up (other nodes, or SHOAL_TRANSPORT=ucx). */
static inline int shoal_core_net_up(void)
{
    return shoal_core_state.net != NULL;
}

static const char *const shoal_segment_names[SHOAL_SEG_COUNT] = {"symmetric heap",
                                                                 "global/static data"};

/* The segment holding addr (and its offset), or -1. Cost: two compares. */
static inline int shoal_segment_find(const void *addr, size_t *off_out)
{
    int seg;

    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        uintptr_t off = (uintptr_t)addr - (uintptr_t)shoal_core_state.seg[seg].base;

        if (off < shoal_core_state.seg[seg].size) {
            *off_out = off;
            return seg;
        }
    }
    return -1;
}

/* Where [addr, addr+len) of world PE pe is mapped here, when the direct path may
 * take it (pe below *pes: direct_pes or direct_coll_pes); else NULL, and the caller
 * takes the checked path (which also reports every error: a bad PE, an address
 * outside symmetric memory, before shmem_init). Cost: about ten instructions, no
 * call. */
static inline char *shoal_core_direct_below(const void *addr, size_t len, int pe, const int *pes)
{
    uintptr_t off = (uintptr_t)addr - (uintptr_t)shoal_core_state.seg[SHOAL_SEG_HEAP].base;
    int seg = SHOAL_SEG_HEAP;
    char *base;

    if (__builtin_expect((unsigned)pe >= (unsigned)*pes, 0))
        return NULL;
    if (__builtin_expect(off >= shoal_core_state.seg[SHOAL_SEG_HEAP].size, 0)) {
        seg = SHOAL_SEG_DATA;
        off = (uintptr_t)addr - (uintptr_t)shoal_core_state.seg[SHOAL_SEG_DATA].base;
        if (off >= shoal_core_state.seg[SHOAL_SEG_DATA].size)
            return NULL;
    }
    if (len > shoal_core_state.seg[seg].size - off)
        return NULL;
    base = __atomic_load_n(&shoal_core_state.direct[seg][pe], __ATOMIC_ACQUIRE);
    return base != NULL ? base + off : NULL;
}

/* For the library's own collectives and tokens. */
static inline char *shoal_core_direct(const void *addr, size_t len, int pe)
{
    return shoal_core_direct_below(addr, len, pe, &shoal_core_state.direct_coll_pes);
}

/* Store ordering for the direct path's loads and stores: fence orders, quiet
 * completes (a CPU fence each). */
static inline void shoal_core_direct_fence(void)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void shoal_core_direct_quiet(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* The fast paths the API's inline wrappers try first: on the default context
 * (ctx is the program's handle), where the direct path maps the target for the
 * program (direct_pes), a put or
 * get is the copy itself and an AMO one CPU atomic (shoal_atomic.h). Each returns 1
 * when it did the operation, 0 when the caller must take the checked path (which
 * also reports every error). Inline, so that with sizes known at the call they
 * compile to the copy or the one atomic instruction. */
static inline char *shoal_core_direct_ctx(uintptr_t ctx, const void *addr, size_t nelems,
                                          size_t elem_size, int pe)
{
    size_t bytes;

    if (ctx != SHOAL_CTX_DEFAULT_HANDLE || __builtin_mul_overflow(nelems, elem_size, &bytes))
        return NULL;
    return shoal_core_direct_below(addr, bytes, pe, &shoal_core_state.direct_pes);
}

/* The elem_size-byte word at addr of pe, for one CPU atomic from the program: on
 * the default context, aligned, where AMOs may take the direct path. */
static inline char *shoal_core_direct_amo_ctx(uintptr_t ctx, const void *addr, size_t elem_size,
                                              int pe)
{
    if (ctx != SHOAL_CTX_DEFAULT_HANDLE || ((uintptr_t)addr & (elem_size - 1)) != 0)
        return NULL;
    return shoal_core_direct_below(addr, elem_size, pe, &shoal_core_state.direct_amo_pes);
}

/* A put (put set: dest remote) or get (source remote); a null local buffer takes
 * the checked path, which reports it (cost: a compare), and so does one in
 * device memory (device_lo: a subtract and a compare), unless host_local says
 * the caller's buffer is its own (p's value, g's result). */
static inline int shoal_core_try_rma(uintptr_t ctx, int put, void *dest, const void *source,
                                     size_t nelems, size_t elem_size, int pe, int host_local)
{
    char *remote = shoal_core_direct_ctx(ctx, put ? dest : source, nelems, elem_size, pe);

    const void *local = put ? source : dest;

    if (__builtin_expect(remote == NULL || local == NULL ||
                             (!host_local && (uintptr_t)local - shoal_core_state.device_lo <
                                                 shoal_core_state.device_size),
                         0))
        return 0;
    if (put)
        memcpy(remote, source, nelems * elem_size);
    else
        memcpy(dest, remote, nelems * elem_size);
    return 1;
}

/* op on the elem_size-byte (4 or 8) value at dest of pe; operand, compare and fetch
 * as shoal_atomic_at takes them. Not where AMOs must go through UCX (amo_net),
 * nor at a misaligned address. */
static inline int shoal_core_try_amo(uintptr_t ctx, shoal_amo_op_t op, void *dest,
                                     const void *operand, const void *compare, void *fetch,
                                     size_t elem_size, int pe)
{
    char *at = shoal_core_direct_amo_ctx(ctx, dest, elem_size, pe);

    if (__builtin_expect(at == NULL, 0))
        return 0;
    shoal_atomic_at(at, op, elem_size, operand, compare, fetch);
    return 1;
}

/* Put with signal: the copy, a release fence, and the signal's one atomic (an add
 * where sig_add is set, else a set). */
static inline int shoal_core_try_put_signal(uintptr_t ctx, void *dest, const void *source,
                                            size_t nelems, size_t elem_size, uint64_t *sig_addr,
                                            uint64_t signal, int sig_add, int pe)
{
    char *to = shoal_core_direct_ctx(ctx, dest, nelems, elem_size, pe);
    char *sig =
        to != NULL && source != NULL &&
                (uintptr_t)source - shoal_core_state.device_lo >= shoal_core_state.device_size
            ? shoal_core_direct_amo_ctx(ctx, sig_addr, sizeof(uint64_t), pe)
            : NULL;

    if (__builtin_expect(sig == NULL, 0))
        return 0;
    memcpy(to, source, nelems * elem_size);
    shoal_core_direct_fence();
    shoal_atomic_at(sig, sig_add ? SHOAL_AMO_ADD : SHOAL_AMO_SET, sizeof(uint64_t), &signal, NULL,
                    NULL);
    return 1;
}

void shoal_peer_connect(int pe);

/* The peer, connected on first use. */
static inline shoal_peer_t *shoal_peer_get(int pe)
{
    shoal_peer_t *peer = &shoal_core_state.peers[pe];

    if (__builtin_expect(__atomic_load_n(&peer->ops, __ATOMIC_ACQUIRE) == NULL, 0))
        shoal_peer_connect(pe);
    return peer;
}

void *shoal_ctx_net_peer(shoal_ctx_t *ctx, int pe);

/* The ops and state that carry ctx's RMA (amo: AMOs) to world PE pe. Cost: the
 * peer look-up, plus one compare for contexts other than the default. */
static inline const shoal_transport_ops_t *shoal_core_path(shoal_ctx_t *ctx, int pe, int amo,
                                                           void **state_out)
{
    shoal_peer_t *peer = shoal_peer_get(pe);
    const shoal_transport_ops_t *ops = amo ? peer->amo_ops : peer->ops;

    *state_out = amo ? peer->amo_state : peer->state;
    if (__builtin_expect(ctx->worker != NULL, 0) && (ops->caps & SHOAL_CAP_PER_CTX))
        *state_out = shoal_ctx_net_peer(ctx, pe);
    return ops;
}

/* segment.c */
shoal_status_t shoal_segment_data_setup(shoal_seg_t *seg_out);
shoal_status_t shoal_segment_heap_setup(size_t size, shoal_seg_t *seg_out);
void shoal_segment_heap_cleanup(shoal_seg_t *seg);
/* SHOAL_TRANSPORT=ucx: global/static data into the network component's memory, and back. */
void shoal_segment_data_to_net(void);
void shoal_segment_data_from_net(void);

/* peer.c: the peer table (n_pes entries, and the direct path's table), its
 * entries connected on first use. */
shoal_status_t shoal_peer_setup(void);
void shoal_peer_cleanup(void);
/* pe's heap as mapped here (mapping a same-node peer's now) and its size, or NULL
 * where pe is reached only through UCX; makes no UCX endpoint. */
void *shoal_peer_heap(int pe, size_t *size_out);
/* Whether pe runs on this node (from its wire-up blob, once; connects nothing):
 * shmem_ptr to a PE on another node needs no endpoint to say NULL. */
int shoal_peer_is_local(int pe);
/* A number for pe's node, the same on every PE for every PE of that node (a
 * hash of its wire-up node string, once; connects nothing). Two PEs with equal
 * numbers are taken for one node: a collision only sends some copies by UCX. */
uint64_t shoal_peer_node(int pe, const char *routine);
/* A UCX endpoint to pe on worker w (for a context). */
shoal_status_t shoal_peer_net_attach(int pe, shoal_transport_worker_t *w, void **state_out);
/* Ends the job for an operation (what: "a get", "a quiet", ...) of routine that
 * failed on pe (-1: no one peer) with status; SHOAL_ERR_TIMEOUT names pe's node
 * and SHOAL_PEER_TIMEOUT. */
void shoal_peer_fail(const char *routine, int pe, const char *what, shoal_status_t status)
    __attribute__((noreturn));
/* Whether pe runs on this node and its process has ended: a PE killed by a signal,
 * or ended by its own error, leaves no mark, and a launcher cut off from the rest
 * of the job may not end the PEs that wait for it. */
int shoal_peer_process_gone(int pe);
/* The size-byte (4 or 8) value at (seg, off) on pe: a load where it is mapped,
 * else a get that waits at most limit_ms (0: SHOAL_PEER_TIMEOUT), with the log
 * muted: SHOAL_OK, SHOAL_ERR_TIMEOUT or the transport's error. For looks at a
 * PE that may be gone (hang reports, gone-PE marks): they never hang on it. */
shoal_status_t shoal_peer_read(int pe, int seg, size_t off, size_t size, unsigned limit_ms,
                               uint64_t *out);

/* sync.c */
void shoal_core_progress(void);
void shoal_core_backoff(unsigned *spins);
void shoal_core_quiet(shoal_ctx_t *ctx);
void shoal_core_fence(shoal_ctx_t *ctx);
/* Quiet on every context: barriers complete everything issued before them. */
void shoal_core_quiet_all(void);
/* The default context's quiet, which also flushes the collectives' tokens and
 * region puts (shoal_core_untracked), as no program's quiet does: before a PE
 * marks that it left. */
void shoal_core_quiet_tokens(void);
/* Between shoal_core_untracked(1) and (0), this thread's operations through UCX
 * are a collective's tokens, or data its receiver's token wait completes: no
 * quiet of the program's flushes them (the component's untracked). */
void shoal_core_untracked(int on);

/* ctx.c */
/* A context on team, which may have team_max contexts at once (-1: only
 * SHOAL_CTX_MAX limits them). */
shoal_status_t shoal_ctx_create(struct shoal_team *team, int team_max, long options,
                                shoal_ctx_t **ctx_out);
void shoal_ctx_destroy(shoal_ctx_t *ctx);
void shoal_ctx_cleanup(void);
void shoal_ctx_destroy_team(const struct shoal_team *team);
/* Registers the default context (first in the table), on the world team. */
shoal_status_t shoal_ctx_setup(struct shoal_team *world);
/* The context a program's handle names, or NULL and why. */
shoal_ctx_t *shoal_ctx_find(uintptr_t handle, shoal_handle_state_t *state_out);

/* rma.c: remote ranges have been checked by the API layer; pe is a world PE. */
void shoal_core_put(shoal_ctx_t *ctx, int pe, int seg, size_t off, const void *src, size_t len,
                    int nbi, const char *routine);
void shoal_core_get(shoal_ctx_t *ctx, int pe, int seg, size_t off, void *dst, size_t len, int nbi,
                    const char *routine);
/* Strided: nblocks blocks of bsize elements (1 for iput/iget), block i at element
 * i * sst of the source and i * dst of the destination; strides at least bsize. */
void shoal_core_iput(shoal_ctx_t *ctx, int pe, int seg, size_t off, const char *src, ptrdiff_t dst,
                     ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size,
                     const char *routine);
void shoal_core_iget(shoal_ctx_t *ctx, int pe, int seg, size_t off, char *dst, ptrdiff_t dst_stride,
                     ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size,
                     const char *routine);
void *shoal_core_ptr(int pe, int seg, size_t off);

/* amo.c */
void shoal_core_amo(shoal_ctx_t *ctx, int pe, int seg, size_t off, shoal_amo_op_t op, size_t size,
                    const void *operand, const void *compare, void *fetch, int nbi,
                    const char *routine);
/* The program's AMO: as shoal_core_amo, but a batch session may hold a
 * non-fetching one (session.c). */
void shoal_core_amo_program(shoal_ctx_t *ctx, int pe, int seg, size_t off, shoal_amo_op_t op,
                            size_t size, const void *operand, const void *compare, void *fetch,
                            int nbi, const char *routine);
void shoal_core_put_signal(shoal_ctx_t *ctx, int pe, int seg, size_t off, const void *src,
                           size_t len, int sig_seg, size_t sig_off, uint64_t signal, int sig_add,
                           int nbi, const char *routine);

/* wait.c: waits (block) or tests the set; returns as shoal_api_sync does. routine
 * names it in a hang report. */
size_t shoal_core_sync(const shoal_wait_set_t *set, int sel, int block, size_t *indices,
                       const char *routine);

/* init.c */
void shoal_core_init(int requested_thread_level, const char *routine);
void shoal_core_finalize(void);

#endif
