/* Deprecated names the OpenSHMEM 1.5 specification still lists: the pre-1.2 heap
 * names, which forward to their replacements, and the cache-management routines,
 * which are no-ops because every machine Shoal runs on is cache coherent. Nothing
 * here may hold logic of its own: fix the replacement instead. */
#include "shmem.h"
#include "shoal_check.h"

void *shmalloc(size_t size)
{
    return shmem_malloc(size);
}

void shfree(void *ptr)
{
    shmem_free(ptr);
}

void *shrealloc(void *ptr, size_t size)
{
    return shmem_realloc(ptr, size);
}

void *shmemalign(size_t alignment, size_t size)
{
    return shmem_align(alignment, size);
}

/* The cache routines: the spec lets them be no-ops; they keep only the check
 * every routine makes, so that a call before shmem_init is reported as such. */
void shmem_clear_cache_inv(void)
{
    shoal_check_init("shmem_clear_cache_inv");
}

void shmem_set_cache_inv(void)
{
    shoal_check_init("shmem_set_cache_inv");
}

void shmem_clear_cache_line_inv(void *dest)
{
    (void)dest;
    shoal_check_init("shmem_clear_cache_line_inv");
}

void shmem_set_cache_line_inv(void *dest)
{
    (void)dest;
    shoal_check_init("shmem_set_cache_line_inv");
}

void shmem_udcflush(void)
{
    shoal_check_init("shmem_udcflush");
}

void shmem_udcflush_line(void *dest)
{
    (void)dest;
    shoal_check_init("shmem_udcflush_line");
}
