/* Deprecated names the OpenSHMEM 1.5 specification still lists: the pre-1.2 heap
 * names, which forward to their replacements (by their pshmem_ names, so that a
 * profiling tool sees the program's one call, not two), and the cache-management
 * routines, which are no-ops because every machine Shoal runs on is cache
 * coherent. Nothing here may hold logic of its own: fix the replacement instead. */
#include "shmem.h"
#include "shoal_check.h"
#include "shoal_profile.h"

void *pshmalloc(size_t size)
{
    return pshmem_malloc(size);
}
SHOAL_PROFILED(shmalloc);

void pshfree(void *ptr)
{
    pshmem_free(ptr);
}
SHOAL_PROFILED(shfree);

void *pshrealloc(void *ptr, size_t size)
{
    return pshmem_realloc(ptr, size);
}
SHOAL_PROFILED(shrealloc);

void *pshmemalign(size_t alignment, size_t size)
{
    return pshmem_align(alignment, size);
}
SHOAL_PROFILED(shmemalign);

/* The cache routines: the spec lets them be no-ops; they keep only the check
 * every routine makes, so that a call before shmem_init is reported as such. */
void pshmem_clear_cache_inv(void)
{
    shoal_check_init("shmem_clear_cache_inv");
}
SHOAL_PROFILED(shmem_clear_cache_inv);

void pshmem_set_cache_inv(void)
{
    shoal_check_init("shmem_set_cache_inv");
}
SHOAL_PROFILED(shmem_set_cache_inv);

void pshmem_clear_cache_line_inv(void *dest)
{
    (void)dest;
    shoal_check_init("shmem_clear_cache_line_inv");
}
SHOAL_PROFILED(shmem_clear_cache_line_inv);

void pshmem_set_cache_line_inv(void *dest)
{
    (void)dest;
    shoal_check_init("shmem_set_cache_line_inv");
}
SHOAL_PROFILED(shmem_set_cache_line_inv);

void pshmem_udcflush(void)
{
    shoal_check_init("shmem_udcflush");
}
SHOAL_PROFILED(shmem_udcflush);

void pshmem_udcflush_line(void *dest)
{
    (void)dest;
    shoal_check_init("shmem_udcflush_line");
}
SHOAL_PROFILED(shmem_udcflush_line);
