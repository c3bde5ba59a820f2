/* RMA entry points: check the PE and the remote range, then call the core. The
 * typed wrappers in gen/ call these with the element size and their own name. */
#include "shoal_api.h"
#include "shoal_check.h"

#include <limits.h>

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

/* Contiguous transfers: put when the remote side is dest, get when it is source. */
static void rma_contig(shmem_ctx_t ctx, int put, int nbi, void *dest, const void *source,
                       size_t nelems, size_t elem_size, int pe, const char *routine)
{
    size_t bytes = shoal_check_bytes(nelems, elem_size, routine), off;
    shoal_ctx_t *c;
    int seg = rma_prepare(ctx, put ? dest : source, bytes, &pe, routine, put ? "dest" : "source",
                          &off, &c);

    if (bytes == 0)
        return;
    shoal_check_local(put ? source : dest, bytes, routine, put ? "source" : "dest");
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

/* The bytes a strided range spans from its first element: strides must be positive. */
static size_t strided_span(ptrdiff_t stride, size_t nelems, size_t elem_size,
                           const char *routine, const char *arg)
{
    size_t span;

    if (stride <= 0)
        shoal_fatal("%s: argument %s is %td, expected a stride of at least 1 element", routine,
                    arg, stride);
    if (nelems == 0)
        return 0;
    if (__builtin_mul_overflow((size_t)stride, nelems - 1, &span) ||
        __builtin_add_overflow(span, 1, &span) ||
        __builtin_mul_overflow(span, elem_size, &span))
        shoal_fatal("%s: arguments nelems (%zu) and %s (%td) span more than size_t bytes",
                    routine, nelems, arg, stride);
    return span;
}

void shoal_api_iput(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t elem_size, int pe,
                    const char *routine)
{
    shoal_ctx_t *c;
    size_t span, off;
    int seg;

    shoal_check_init(routine);
    span = strided_span(dst, nelems, elem_size, routine, "dst");
    strided_span(sst, nelems, elem_size, routine, "sst");
    seg = rma_prepare(ctx, dest, span, &pe, routine, "dest", &off, &c);
    shoal_check_local(source, nelems * elem_size, routine, "source");
    if (nelems > 0)
        shoal_core_iput(c, pe, seg, off, source, dst, sst, nelems, elem_size, routine);
}

void shoal_api_iget(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t elem_size, int pe,
                    const char *routine)
{
    shoal_ctx_t *c;
    size_t span, off;
    int seg;

    shoal_check_init(routine);
    strided_span(dst, nelems, elem_size, routine, "dst");
    span = strided_span(sst, nelems, elem_size, routine, "sst");
    seg = rma_prepare(ctx, source, span, &pe, routine, "source", &off, &c);
    shoal_check_local(dest, nelems * elem_size, routine, "dest");
    if (nelems > 0)
        shoal_core_iget(c, pe, seg, off, dest, dst, sst, nelems, elem_size, routine);
}
