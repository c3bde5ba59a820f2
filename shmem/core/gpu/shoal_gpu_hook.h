/* The one seam between libshoal and the GPU library (libshoal_gpu, gpu/): a table
 * of callbacks that libshoal_gpu registers from a constructor and that shmem_init,
 * shmem_barrier_all and shmem_finalize call. Plain C, no CUDA types: libshoal
 * never includes a CUDA header and never links libcudart. */
#ifndef SHOAL_GPU_HOOK_H
#define SHOAL_GPU_HOOK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct shoal_wait_set; /* shoal_wait.h */

/* This PE's GPU heap, [base, base + size); size 0 while there is none. */
typedef struct shoal_gpu_range {
    uintptr_t base;
    size_t size;
} shoal_gpu_range_t;

/* What a PE hands the GPU library once its heap exists and wire-up is done. The
 * GPU library reaches libshoal only through this (and the public shmem_* API):
 * libshoal exports nothing else. */
typedef struct shoal_gpu_env {
    int my_pe;
    int n_pes;
    void *heap_base;
    size_t heap_size;
    /* PE pe's heap as mapped into this process, and its size: this PE's own, or
     * a same-node peer's (mapped now if it was not yet); NULL where pe is reached
     * only through UCX (another node, or SHOAL_TRANSPORT=ucx). */
    void *(*peer_heap)(int pe, size_t *size_out);
    /* SHOAL_GPU_PROXY: a SHOAL_GPU_PROXY_* value (shoal_env.h). */
    int proxy;
    /* SHOAL_GPU_SYMMETRIC_SIZE (or NVSHMEM_SYMMETRIC_SIZE): bytes of the GPU
     * symmetric heap, 0 for none. */
    size_t gpu_heap_size;
    /* The discipline of shmem_malloc for the GPU heap's collective routines:
     * coll_args compares the n named values across the world team and ends
     * the job naming the first that differs (only under SHOAL_CHECK_COLL, else
     * nothing); barrier is a world barrier that completes this PE's puts, named
     * routine in hang reports. */
    void (*coll_args)(const char *routine, const unsigned long long *vals, const char *const *names,
                      int n);
    void (*barrier)(const char *routine);
    /* One pass of this PE's UCX progress (every worker another thread does not
     * hold), so that peers' operations on this PE's memory go on while its
     * main thread waits in CUDA; returns the events seen (0 without UCX). The
     * host proxy calls it while it polls. */
    unsigned (*progress)(void);
    /* A log line at a SHOAL_LOG_* level (nothing when that level is off), and the
     * fatal path: one line on this PE, then the job ends with a non-zero status. */
    void (*log)(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    void (*fatal)(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
} shoal_gpu_env_t;

/* The collectives the GPU library makes for the host (gheap_coll below, and its
 * own stream and host forms). */
enum {
    SHOAL_GPU_COLL_BROADCAST,
    SHOAL_GPU_COLL_FCOLLECT,
    SHOAL_GPU_COLL_ALLTOALL,
    SHOAL_GPU_COLL_REDUCE
};

typedef struct shoal_gpu_hooks {
    /* At the end of shmem_init. env lives until finalize. Writes a one-line
     * description of what it did (or why there is no GPU) to summary, which
     * SHMEM_INFO prints. */
    void (*init)(const shoal_gpu_env_t *env, char *summary, size_t len);
    /* At shmem_barrier_all and at the start of shmem_finalize: ends the job with
     * the error line when a kernel recorded a device error, then completes what
     * kernels handed the host proxy so far (the barrier covers it). */
    void (*check)(void);
    /* In shmem_finalize after its barrier, before the peers' heaps are unmapped. */
    void (*finalize)(void);
    /* The host routines on the GPU heap (nvshmem_malloc memory), which is no
     * segment of libshoal's: where an address lies outside every segment, the
     * API asks gheap_owns whether it starts in this PE's GPU heap and then
     * hands the operation to gheap_rma (put set: dest is the GPU-heap side,
     * else source) or gheap_amo (op a shoal_amo_op_t, on the size-byte word at
     * dest; fetch NULL for none). pe is a world PE, checked; the rest is
     * checked there, each error one line naming routine. Both complete before
     * they return. NULL or 0 where there is no GPU heap. */
    int (*gheap_owns)(const void *addr);
    void (*gheap_rma)(int put, void *dest, const void *source, size_t bytes, int pe,
                      const char *routine);
    void (*gheap_amo)(int op, void *dest, const void *operand, const void *compare, void *fetch,
                      size_t size, int pe, const char *routine);
    /* A wait or test (shoal_api_sync's arguments, checked) on ivars in this
     * PE's GPU heap; returns what shoal_core_sync returns. */
    size_t (*gheap_sync)(const struct shoal_wait_set *set, int sel, int block, size_t *indices,
                         const char *routine);
    /* A team collective whose dest or source is in this PE's GPU heap: kind a
     * SHOAL_GPU_COLL_*, root for a broadcast, op (shoal_red_op_t) and dt
     * (shoal_dt_t) for a reduction, team the shmem_team_t (void * here), the
     * team and the byte count checked by the API.
     * Made by the device collective of the team's device twin; a team without
     * one ends the job with one line naming routine. Complete on return. */
    void (*gheap_coll)(int kind, void *team, void *dest, const void *source, size_t nelems,
                       size_t elem_size, int root, int op, int dt, const char *routine);
    /* The GPU heap's range, which the API's fast paths test their local
     * buffer against: the CPU cannot load or store GPU memory, so such a
     * buffer takes the checked path, where it is staged through host memory
     * with gheap_rma. */
    const shoal_gpu_range_t *gheap_range;
} shoal_gpu_hooks_t;

/* Registers hooks (which must outlive the program); NULL removes them. Call it
 * before shmem_init: a constructor is the place. */
void shoal_gpu_hooks_set(const shoal_gpu_hooks_t *hooks);

#ifdef __cplusplus
}
#endif

#endif
