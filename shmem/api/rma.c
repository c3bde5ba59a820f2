/* RMA entry points: check the PE and the remote range, then call the core. The
 * typed wrappers in gen/ call these with the element size and their own name. */
#include "shoal_api.h"
#include "shoal_check.h"

#include <limits.h>
#include <stdlib.h>

/* Checks what every RMA call shares; turns *pe into a world PE and returns the
 * remote segment and offset. */
static int rma_prepare(shmem_ctx_t ctx, const void *remote, size_t bytes, int *pe,
                       const char *routine, const char *arg, size_t *off, shoal_ctx_t **c)
{
    shoal_check_init(routine);
    *c = shoal_check_ctx_pe(ctx, pe, routine);
    if (bytes == 0) /* moves nothing: any address will do, as in the other runtimes */
        return -1;
    return shoal_check_symmetric(remote, bytes, routine, arg, off);
}

/* A transfer between a remote symmetric object (seg, off) and a local buffer in
 * this PE's GPU heap: staged through host memory, which is all the CPU and UCX
 * can touch, with the GPU library's copies (g). Blocking, even for nbi: the
 * buffer is freed before it returns. Cost: a malloc and one GPU copy. */
static void rma_staged(const shoal_gpu_hooks_t *g, shoal_ctx_t *c, int put, void *dest,
                       const void *source, size_t bytes, int pe, int seg, size_t off,
                       const char *routine)
{
    void *tmp = malloc(bytes);

    if (tmp == NULL)
        shoal_log_fatal("%s: out of memory for a host copy of %zu bytes of GPU-heap %s", routine,
                        bytes, put ? "source" : "dest");
    if (put) {
        g->gheap_rma(0, tmp, source, bytes, shoal_core_my_pe(), routine);
        shoal_core_put(c, pe, seg, off, tmp, bytes, 0, routine);
    } else {
        shoal_core_get(c, pe, seg, off, tmp, bytes, 0, routine);
        g->gheap_rma(1, dest, tmp, bytes, shoal_core_my_pe(), routine);
    }
    free(tmp);
}

/* Contiguous transfers: put when the remote side is dest, get when it is source. */
static void rma_contig(shmem_ctx_t ctx, int put, int nbi, void *dest, const void *source,
                       size_t nelems, size_t elem_size, int pe, const char *routine)
{
    size_t bytes = shoal_check_bytes(nelems, elem_size, routine), off;
    const shoal_gpu_hooks_t *g = shoal_api_gheap(put ? dest : source);
    shoal_ctx_t *c;
    int seg;

    if (g != NULL) { /* a GPU-heap address: the GPU library copies (cudaMemcpy) */
        shoal_check_init(routine);
        (void)shoal_check_ctx_pe(ctx, &pe, routine);
        shoal_check_local(put ? source : dest, bytes, routine, put ? "source" : "dest");
        if (bytes > 0)
            g->gheap_rma(put, dest, source, bytes, pe, routine);
        return;
    }
    seg = rma_prepare(ctx, put ? dest : source, bytes, &pe, routine, put ? "dest" : "source", &off,
                      &c);
    if (bytes == 0)
        return;
    shoal_check_local(put ? source : dest, bytes, routine, put ? "source" : "dest");
    g = shoal_api_gheap(put ? source : dest);
    if (g != NULL) { /* the local buffer is GPU memory */
        rma_staged(g, c, put, dest, source, bytes, pe, seg, off, routine);
        return;
    }
    if (put)
        shoal_core_put(c, pe, seg, off, source, bytes, nbi, routine);
    else
        shoal_core_get(c, pe, seg, off, dest, bytes, nbi, routine);
}

void shoal_api_put_checked(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                           size_t elem_size, int pe, int nbi, const char *routine)
{
    rma_contig(ctx, 1, nbi, dest, source, nelems, elem_size, pe, routine);
}

void shoal_api_get_checked(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                           size_t elem_size, int pe, int nbi, const char *routine)
{
    rma_contig(ctx, 0, nbi, dest, source, nelems, elem_size, pe, routine);
}

/* The bytes a strided range of nblocks blocks of bsize elements spans from its
 * first element. Strides count elements between block starts and must be at least
 * bsize (blocks never overlap) and 1; blocked names the ib forms, whose message
 * says why. */
static size_t strided_span(ptrdiff_t stride, size_t bsize, size_t nblocks, size_t elem_size,
                           int blocked, const char *routine, const char *arg)
{
    size_t least = bsize > 1 ? bsize : 1, span;

    if (stride <= 0 || (size_t)stride < least)
        shoal_log_fatal("%s: argument %s is %td, expected a stride of at least %zu element%s%s",
                        routine, arg, stride, least, least == 1 ? "" : "s",
                        blocked && least > 1 ? " (bsize)" : "");
    if (nblocks == 0 || bsize == 0)
        return 0;
    if (__builtin_mul_overflow((size_t)stride, nblocks - 1, &span) ||
        __builtin_add_overflow(span, bsize, &span) ||
        __builtin_mul_overflow(span, elem_size, &span))
        shoal_log_fatal("%s: arguments %s (%zu) and %s (%td) span more than size_t bytes", routine,
                        blocked ? "nblocks" : "nelems", nblocks, arg, stride);
    return span;
}

/* A strided transfer whose remote side is in the GPU heap: block by block,
 * each through the GPU library (gheap_rma, which checks its range). */
static void strided_gheap(const shoal_gpu_hooks_t *g, shmem_ctx_t ctx, int put, char *dest,
                          const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,
                          size_t nblocks, size_t elem_size, int pe, const char *routine)
{
    size_t i;

    (void)shoal_check_ctx_pe(ctx, &pe, routine);
    for (i = 0; i < nblocks && bsize > 0; i++)
        g->gheap_rma(put, dest + i * (size_t)dst * elem_size, source + i * (size_t)sst * elem_size,
                     bsize * elem_size, pe, routine);
}

/* Strided put (put set: dest remote) or get: nblocks blocks of bsize elements,
 * dst and sst apart (iput and iget: blocks of one element). */
static void strided(shmem_ctx_t ctx, int put, void *dest, const void *source, ptrdiff_t dst,
                    ptrdiff_t sst, size_t bsize, size_t nblocks, int blocked, size_t elem_size,
                    int pe, const char *routine)
{
    size_t dspan, sspan, local, off;
    shoal_ctx_t *c;
    int seg;

    shoal_check_init(routine);
    dspan = strided_span(dst, bsize, nblocks, elem_size, blocked, routine, "dst");
    sspan = strided_span(sst, bsize, nblocks, elem_size, blocked, routine, "sst");
    if (shoal_api_gheap(put ? dest : source) != NULL) {
        local = dspan == 0 ? 0 : shoal_check_bytes(nblocks * bsize, elem_size, routine);
        shoal_check_local(put ? source : dest, local, routine, put ? "source" : "dest");
        strided_gheap(shoal_api_gheap(put ? dest : source), ctx, put, (char *)dest,
                      (const char *)source, dst, sst, bsize, nblocks, elem_size, pe, routine);
        return;
    }
    seg = rma_prepare(ctx, put ? dest : source, put ? dspan : sspan, &pe, routine,
                      put ? "dest" : "source", &off, &c);
    local = dspan == 0 ? 0 : shoal_check_bytes(nblocks * bsize, elem_size, routine);
    shoal_check_local(put ? source : dest, local, routine, put ? "source" : "dest");
    if (local == 0)
        return;
    if (put)
        shoal_core_iput(c, pe, seg, off, source, dst, sst, bsize, nblocks, elem_size, routine);
    else
        shoal_core_iget(c, pe, seg, off, dest, dst, sst, bsize, nblocks, elem_size, routine);
}

void shoal_api_iput(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                    size_t nelems, size_t elem_size, int pe, const char *routine)
{
    strided(ctx, 1, dest, source, dst, sst, 1, nelems, 0, elem_size, pe, routine);
}

void shoal_api_iget(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                    size_t nelems, size_t elem_size, int pe, const char *routine)
{
    strided(ctx, 0, dest, source, dst, sst, 1, nelems, 0, elem_size, pe, routine);
}

void shoal_api_ibput(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                     size_t bsize, size_t nblocks, size_t elem_size, int pe, const char *routine)
{
    strided(ctx, 1, dest, source, dst, sst, bsize, nblocks, 1, elem_size, pe, routine);
}

void shoal_api_ibget(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                     size_t bsize, size_t nblocks, size_t elem_size, int pe, const char *routine)
{
    strided(ctx, 0, dest, source, dst, sst, bsize, nblocks, 1, elem_size, pe, routine);
}
