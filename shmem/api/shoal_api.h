/* Internal entry points that the generated typed wrappers (shmem/api/gen/) call.
 * Each checks its arguments (naming `routine` in any error) and calls the core.
 * Never include this from an installed header. */
#ifndef SHOAL_API_H
#define SHOAL_API_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "shmem.h"
#include "shoal_check.h"
#include "shoal_coll.h"
#include "shoal_core.h"
#include "shoal_core_gpu.h"
#include "shoal_symm.h"
#include "shoal_wait.h"

/* The default context as the generated wrappers of routines without a ctx argument
 * pass it: the constant SHMEM_CTX_DEFAULT is initialised to, so that the direct
 * path's context test is decided at compile time instead of loading the variable. */
#define SHOAL_API_CTX_DEFAULT ((shmem_ctx_t)SHOAL_CTX_DEFAULT_HANDLE)

/* The GPU library's hooks when addr starts in this PE's GPU heap (nvshmem_malloc
 * memory, shoal_gpu_hook.h), else NULL: such an operation is the GPU library's
 * (gheap_rma, gheap_amo). Asked only off the fast path, which never holds a
 * GPU-heap address; without the GPU library it costs one load and compare. */
static inline const shoal_gpu_hooks_t *shoal_api_gheap(const void *addr)
{
    const shoal_gpu_hooks_t *h = shoal_gpu_hooks;

    return h != NULL && h->gheap_owns != NULL && h->gheap_owns(addr) ? h : NULL;
}

/* Contiguous RMA: nelems elements of elem_size bytes each; p stores the elem_size
 * bytes at value, g loads elem_size bytes into out. The _checked functions check
 * everything and go through the core; the inline forms below (which the generated
 * wrappers call) first try the direct path and fall back on them. */
void shoal_api_put_checked(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                           size_t elem_size, int pe, int nbi, const char *routine);
void shoal_api_get_checked(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                           size_t elem_size, int pe, int nbi, const char *routine);

/* A contiguous put (put set) or get, blocking or not (nbi): the core's direct path
 * first (shoal_core_try_rma), where a non-blocking transfer completes at once, as a
 * blocking one; else the checked path. */
static inline void shoal_api_rma(shmem_ctx_t ctx, int put, int nbi, void *dest, const void *source,
                                 size_t nelems, size_t elem_size, int pe, const char *routine)
{
    if (__builtin_expect(
            !shoal_core_try_rma((uintptr_t)ctx, put, dest, source, nelems, elem_size, pe, 0), 0))
        (put ? shoal_api_put_checked : shoal_api_get_checked)(ctx, dest, source, nelems, elem_size,
                                                              pe, nbi, routine);
}

static inline void shoal_api_put(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 size_t elem_size, int pe, const char *routine)
{
    shoal_api_rma(ctx, 1, 0, dest, source, nelems, elem_size, pe, routine);
}

static inline void shoal_api_get(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 size_t elem_size, int pe, const char *routine)
{
    shoal_api_rma(ctx, 0, 0, dest, source, nelems, elem_size, pe, routine);
}

static inline void shoal_api_put_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                     size_t elem_size, int pe, const char *routine)
{
    shoal_api_rma(ctx, 1, 1, dest, source, nelems, elem_size, pe, routine);
}

static inline void shoal_api_get_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                     size_t elem_size, int pe, const char *routine)
{
    shoal_api_rma(ctx, 0, 1, dest, source, nelems, elem_size, pe, routine);
}

/* p and g: the local side is the wrapper's own variable, never device memory. */
static inline void shoal_api_p(shmem_ctx_t ctx, void *dest, const void *value, size_t elem_size,
                               int pe, const char *routine)
{
    if (__builtin_expect(!shoal_core_try_rma((uintptr_t)ctx, 1, dest, value, 1, elem_size, pe, 1),
                         0))
        shoal_api_put_checked(ctx, dest, value, 1, elem_size, pe, 0, routine);
}

static inline void shoal_api_g(shmem_ctx_t ctx, void *out, const void *source, size_t elem_size,
                               int pe, const char *routine)
{
    if (__builtin_expect(!shoal_core_try_rma((uintptr_t)ctx, 0, out, source, 1, elem_size, pe, 1),
                         0))
        shoal_api_get_checked(ctx, out, source, 1, elem_size, pe, 0, routine);
}

/* Strided: dst/sst are strides in elements. */
void shoal_api_iput(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                    size_t nelems, size_t elem_size, int pe, const char *routine);
void shoal_api_iget(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                    size_t nelems, size_t elem_size, int pe, const char *routine);

/* Blocked strided (shmemx_ibput, shmemx_ibget): nblocks blocks of bsize elements,
 * block i at element i * sst of source and i * dst of dest; strides at least bsize. */
void shoal_api_ibput(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                     size_t bsize, size_t nblocks, size_t elem_size, int pe, const char *routine);
void shoal_api_ibget(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                     size_t bsize, size_t nblocks, size_t elem_size, int pe, const char *routine);

/* Atomic memory operations. All AMO types are 4 or 8 bytes; the core works on their
 * bit patterns, so float and double need no special case for fetch, set and swap.
 * operand and compare point at elem_size bytes (NULL where the op takes none); fetch
 * receives the old value (NULL for the non-fetching ops); with nbi, by quiet. */
void shoal_api_amo_checked(shmem_ctx_t ctx, shoal_amo_op_t op, void *dest, const void *operand,
                           const void *compare, void *fetch, size_t elem_size, int pe, int nbi,
                           const char *routine);

static inline void shoal_api_amo(shmem_ctx_t ctx, shoal_amo_op_t op, void *dest,
                                 const void *operand, const void *compare, void *fetch,
                                 size_t elem_size, int pe, int nbi, const char *routine)
{
    /* The _nbi forms are the fetching ones, and fetch is the program's pointer: the
     * old value must have somewhere to go (the blocking forms pass a local). */
    unsigned char o[8], c[8], f[8];

    if (nbi)
        shoal_check_local(fetch, elem_size, routine, "fetch");
    if (__builtin_expect(
            shoal_core_try_amo((uintptr_t)ctx, op, dest, operand, compare, fetch, elem_size, pe),
            1))
        return;
    /* The checked path gets copies of the values, and a blocking AMO's result comes
     * back through a copy: the wrapper's own arguments and result never have their
     * address taken, so they stay in registers on the direct path (no store and
     * reload around its one atomic). An _nbi AMO's fetch is written at quiet: the
     * program's pointer itself goes. */
    if (operand != NULL)
        memcpy(o, operand, elem_size);
    if (compare != NULL)
        memcpy(c, compare, elem_size);
    shoal_api_amo_checked(ctx, op, dest, operand != NULL ? o : NULL, compare != NULL ? c : NULL,
                          nbi || fetch == NULL ? fetch : f, elem_size, pe, nbi, routine);
    if (!nbi && fetch != NULL)
        memcpy(fetch, f, elem_size);
}

/* Point-to-point synchronisation: one entry for wait_until/test and their _all,
 * _any, _some and _vector forms. values points at one value, or at nelems values
 * when vector is set. status (NULL: every entry) masks entries out where non-zero;
 * indices receives the satisfied indices for _some. Returns: test/test_all 1 or 0;
 * _any the index or SIZE_MAX; _some the count; the blocking ONE/ALL forms 0. */
size_t shoal_api_sync(void *ivars, size_t nelems, const int *status, size_t *indices, int cmp,
                      const void *values, int vector, size_t elem_size, int is_signed,
                      shoal_sel_t sel, int block, const char *routine);

/* Put with signal: the data is visible at pe before the signal update is. */
void shoal_api_put_signal_checked(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                  size_t elem_size, uint64_t *sig_addr, uint64_t signal, int sig_op,
                                  int pe, int nbi, const char *routine);

/* On the direct path (shoal_core_try_put_signal): the copy, a release fence, and the
 * signal's one atomic. Other signal operations take the checked path, which names them. */
static inline void shoal_api_put_signal(shmem_ctx_t ctx, void *dest, const void *source,
                                        size_t nelems, size_t elem_size, uint64_t *sig_addr,
                                        uint64_t signal, int sig_op, int pe, int nbi,
                                        const char *routine)
{
    if (__builtin_expect((sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD) ||
                             !shoal_core_try_put_signal((uintptr_t)ctx, dest, source, nelems,
                                                        elem_size, sig_addr, signal,
                                                        sig_op == SHMEM_SIGNAL_ADD, pe),
                         0))
        shoal_api_put_signal_checked(ctx, dest, source, nelems, elem_size, sig_addr, signal, sig_op,
                                     pe, nbi, routine);
}

/* Team collectives. Sizes are in elements of elem_size bytes; PE numbers are the
 * team's. Each returns 0 (errors end the job with one line). collect: each PE
 * contributes nelems (fixed: fcollect, the same on every PE). */
int shoal_api_broadcast(shmem_team_t team, void *dest, const void *source, size_t nelems,
                        size_t elem_size, int root, const char *routine);
int shoal_api_collect(shmem_team_t team, void *dest, const void *source, size_t nelems,
                      size_t elem_size, int fixed, const char *routine);
int shoal_api_alltoall(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       size_t elem_size, const char *routine);
int shoal_api_alltoalls(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                        ptrdiff_t sst, size_t nelems, size_t elem_size, const char *routine);
/* Their deprecated active-set forms (the 32 and 64 bit routines): the set is
 * PE_start, logPE_stride, PE_size with pSync, checked here. alltoall is
 * alltoalls with strides of 1. */
void shoal_api_aset_broadcast(void *dest, const void *source, size_t nelems, size_t elem_size,
                              int PE_root, int PE_start, int logPE_stride, int PE_size, long *pSync,
                              const char *routine);
void shoal_api_aset_collect(void *dest, const void *source, size_t nelems, size_t elem_size,
                            int fixed, int PE_start, int logPE_stride, int PE_size, long *pSync,
                            const char *routine);
void shoal_api_aset_alltoalls(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                              size_t nelems, size_t elem_size, int PE_start, int logPE_stride,
                              int PE_size, long *pSync, const char *routine);
/* Reductions: dt and elem_size say how to combine (SHOAL_DT_CHAR for plain char). */
int shoal_api_reduce(shmem_team_t team, void *dest, const void *source, size_t nreduce,
                     shoal_red_op_t op, shoal_dt_t dt, size_t elem_size, const char *routine);
/* Scans (shmemx_sum_inscan, shmemx_sum_exscan): prefix sums in team index order,
 * the PE's own source included unless exclusive. */
int shoal_api_scan(shmem_team_t team, void *dest, const void *source, size_t nelems, int exclusive,
                   shoal_dt_t dt, size_t elem_size, const char *routine);
/* The deprecated active-set form; pWrk is not needed and not touched. */
void shoal_api_reduce_to_all(void *dest, const void *source, int nreduce, int PE_start,
                             int logPE_stride, int PE_size, void *pWrk, long *pSync,
                             shoal_red_op_t op, shoal_dt_t dt, size_t elem_size,
                             const char *routine);

#endif
