/* Internal entry points that the generated typed wrappers (shmem/api/gen/) call.
 * Each checks its arguments (naming `routine` in any error) and calls the core.
 * Never include this from an installed header. */
#ifndef SHOAL_API_H
#define SHOAL_API_H

#include <stddef.h>
#include "shmem.h"

/* Contiguous RMA: nelems elements of elem_size bytes each. */
void shoal_api_put(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                   size_t elem_size, int pe, const char *routine);
void shoal_api_get(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                   size_t elem_size, int pe, const char *routine);
void shoal_api_put_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                       size_t elem_size, int pe, const char *routine);
void shoal_api_get_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                       size_t elem_size, int pe, const char *routine);

/* Single element: value points at elem_size bytes to store remotely; out receives
 * elem_size bytes read remotely. */
void shoal_api_p(shmem_ctx_t ctx, void *dest, const void *value, size_t elem_size, int pe,
                 const char *routine);
void shoal_api_g(shmem_ctx_t ctx, void *out, const void *source, size_t elem_size, int pe,
                 const char *routine);

/* Strided: dst/sst are strides in elements. */
void shoal_api_iput(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t elem_size, int pe,
                    const char *routine);
void shoal_api_iget(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t elem_size, int pe,
                    const char *routine);

#endif
