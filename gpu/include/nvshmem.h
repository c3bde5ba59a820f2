/* nvshmem.h - Shoal's GPU interface: NVSHMEM's names on Shoal's symmetric heap.
 * Host routines (nvshmem_init, nvshmem_malloc, ...) are the shmem_ routines;
 * device routines work on the heaps of this node's PEs, which shmem_init
 * registered with the GPU. Compiles as C and C++ (host declarations only) and
 * under nvcc (host and device). Link with libshoal_gpu: see oshcc --cuda. */
#ifndef SHOAL_NVSHMEM_H
#define SHOAL_NVSHMEM_H

#include <stddef.h>
#include <stdint.h>

/* The values of SHMEM_CMP_* and SHMEM_SIGNAL_* (shmem.h), so that either name
 * works with either API. */
#define NVSHMEM_CMP_EQ 1
#define NVSHMEM_CMP_NE 2
#define NVSHMEM_CMP_GT 3
#define NVSHMEM_CMP_LE 4
#define NVSHMEM_CMP_LT 5
#define NVSHMEM_CMP_GE 6

#define NVSHMEM_SIGNAL_SET 0
#define NVSHMEM_SIGNAL_ADD 1

/* NVSHMEM's predefined teams, with its values. Shoal has these only: SHARED holds
 * the PEs whose heaps this GPU maps (this PE alone without a GPU, or under
 * SHOAL_TRANSPORT=ucx), NODE the PEs of this node (SHMEM_TEAM_SHARED). */
typedef int32_t nvshmem_team_t;
#define NVSHMEM_TEAM_INVALID (-1)
#define NVSHMEM_TEAM_WORLD 0
#define NVSHMEM_TEAM_SHARED 1
#define NVSHMEMX_TEAM_NODE 2

/* A new team's options, as shmem_team_config_t: the contexts it will create. */
typedef struct nvshmem_team_config {
    int num_contexts;
} nvshmem_team_config_t;
#define NVSHMEM_TEAM_NUM_CONTEXTS (1L << 0)

/* The device routines are declared for nvcc, and for Shoal's CPU build of its
 * device engine (SHOAL_DEV_ON_CPU: tests/gpu-cpu), where they are host code.
 * Routines that NVSHMEM has on both sides are __host__ __device__ there. */
#if defined(__CUDACC__) || defined(SHOAL_DEV_ON_CPU)
#define SHOAL_NVSHMEM_DEVICE 1
#define SHOAL_NVSHMEM_HD __host__ __device__
#else
#define SHOAL_NVSHMEM_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Host: the shmem_ routine of the same name (errors name the shmem_ routine). */
void nvshmem_init(void);
void nvshmem_finalize(void);
void *nvshmem_malloc(size_t size);
void *nvshmem_calloc(size_t count, size_t size);
void *nvshmem_align(size_t alignment, size_t size);
void nvshmem_free(void *ptr);

/* Host: teams a kernel can name. The splits are shmem_team_split_strided and
 * _split_2d on the parent's host team (NVSHMEM_TEAM_SHARED has one where it is
 * SHMEM_TEAM_SHARED's PEs); each new team gets the same handle on all its
 * members, one of 32 (the predefined ones count), and a new team finding none free
 * is NVSHMEM_TEAM_INVALID with a non-zero return. Collective on the parent (the
 * destroy: on the team's members), never while a kernel uses the team. */
int nvshmem_team_split_strided(nvshmem_team_t parent_team, int PE_start, int PE_stride, int PE_size,
                               const nvshmem_team_config_t *config, long config_mask,
                               nvshmem_team_t *new_team);
int nvshmem_team_split_2d(nvshmem_team_t parent_team, int xrange,
                          const nvshmem_team_config_t *xaxis_config, long xaxis_mask,
                          nvshmem_team_t *xaxis_team, const nvshmem_team_config_t *yaxis_config,
                          long yaxis_mask, nvshmem_team_t *yaxis_team);
void nvshmem_team_destroy(nvshmem_team_t team);

/* Host and device. On the host, nvshmem_ptr returns the address a kernel uses. */
SHOAL_NVSHMEM_HD int nvshmem_my_pe(void);
SHOAL_NVSHMEM_HD int nvshmem_n_pes(void);
SHOAL_NVSHMEM_HD void *nvshmem_ptr(const void *ptr, int pe);
SHOAL_NVSHMEM_HD void nvshmem_fence(void);
SHOAL_NVSHMEM_HD void nvshmem_quiet(void);
/* On the device: all PEs, each from one thread, which must all be on this node
 * (not SHOAL_TRANSPORT=ucx); barrier_all completes this thread's stores first. */
SHOAL_NVSHMEM_HD void nvshmem_barrier_all(void);
SHOAL_NVSHMEM_HD void nvshmem_sync_all(void);
/* The calling PE's number in team, and team's size; -1 for NVSHMEM_TEAM_INVALID. */
SHOAL_NVSHMEM_HD int nvshmem_team_my_pe(nvshmem_team_t team);
SHOAL_NVSHMEM_HD int nvshmem_team_n_pes(nvshmem_team_t team);
/* src_pe of src_team as a number in dest_team; -1 where it is not a member of
 * both, or either team is NVSHMEM_TEAM_INVALID. */
SHOAL_NVSHMEM_HD int nvshmem_team_translate_pe(nvshmem_team_t src_team, int src_pe,
                                               nvshmem_team_t dest_team);
/* Barrier_all and sync_all among team's members: on the device one thread of each
 * member calls them (see nvshmem_barrier_all); on the host, a quiet and
 * shmem_team_sync. The team's members must be evenly spaced in the world team
 * on the device (every team a split makes is). */
SHOAL_NVSHMEM_HD void nvshmem_barrier(nvshmem_team_t team);
SHOAL_NVSHMEM_HD int nvshmem_team_sync(nvshmem_team_t team);

#ifdef SHOAL_NVSHMEM_DEVICE
/* Device only. */
__device__ uint64_t nvshmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);
__device__ uint64_t nvshmem_signal_fetch(const uint64_t *sig_addr);
/* The signal update of a put-with-signal alone: NVSHMEM_SIGNAL_SET or _ADD. */
__device__ void nvshmemx_signal_op(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
/* The barriers called by every thread of a block or of a warp; they return to
 * all of them once the barrier is passed. */
__device__ void nvshmemx_barrier_all_block(void);
__device__ void nvshmemx_barrier_all_warp(void);
__device__ void nvshmemx_sync_all_block(void);
__device__ void nvshmemx_sync_all_warp(void);
__device__ void nvshmemx_barrier_block(nvshmem_team_t team);
__device__ void nvshmemx_barrier_warp(nvshmem_team_t team);
__device__ int nvshmemx_team_sync_block(nvshmem_team_t team);
__device__ int nvshmemx_team_sync_warp(nvshmem_team_t team);
/* The team collectives in bytes (the typed ones are in nvshmem_typed.h): one
 * thread of every member calls them, or, in the _block and _warp forms, every
 * thread of one block or warp per member. broadcast copies nelems bytes of
 * PE_root's source to every member's dest (PE_root's too); fcollect gathers
 * each member's nelems bytes into dest, in team order; alltoall sends the i-th
 * nelems bytes of source to member i. The team's members must be evenly
 * spaced in the world team (every team a split makes is). They return 0. */
__device__ int nvshmem_broadcastmem(nvshmem_team_t team, void *dest, const void *source,
                                    size_t nelems, int PE_root);
__device__ int nvshmemx_broadcastmem_block(nvshmem_team_t team, void *dest, const void *source,
                                           size_t nelems, int PE_root);
__device__ int nvshmemx_broadcastmem_warp(nvshmem_team_t team, void *dest, const void *source,
                                          size_t nelems, int PE_root);
__device__ int nvshmem_fcollectmem(nvshmem_team_t team, void *dest, const void *source,
                                   size_t nelems);
__device__ int nvshmemx_fcollectmem_block(nvshmem_team_t team, void *dest, const void *source,
                                          size_t nelems);
__device__ int nvshmemx_fcollectmem_warp(nvshmem_team_t team, void *dest, const void *source,
                                         size_t nelems);
__device__ int nvshmem_alltoallmem(nvshmem_team_t team, void *dest, const void *source,
                                   size_t nelems);
__device__ int nvshmemx_alltoallmem_block(nvshmem_team_t team, void *dest, const void *source,
                                          size_t nelems);
__device__ int nvshmemx_alltoallmem_warp(nvshmem_team_t team, void *dest, const void *source,
                                         size_t nelems);
#endif

#ifdef __cplusplus
}
#endif

/* The typed routines (generated): device RMA, atomics and waits, and the
 * nvshmemx_*_on_stream host forms. */
#include "nvshmem_typed.h"

#endif
