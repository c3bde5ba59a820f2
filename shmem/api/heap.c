/* Symmetric allocation. Every PE runs the same deterministic allocator on the
 * same calls, so the same offsets come out everywhere; the barriers make a block
 * usable (or unused) on all PEs before the call returns. */
#include "shmem.h"
#include "shoal_check.h"
#include "shoal_status.h"
#include "shoal_profile.h"

#include <string.h>

/* Why an allocation that every PE attempted failed, said once per PE: the spec's
 * answer is NULL, and a NULL without a reason sends users to the wrong knob. */
static void warn_failed(size_t size, size_t align, const char *routine)
{
    const shoal_heap_t *heap = shoal_core_heap();
    size_t largest = shoal_heap_largest_free(heap);

    if (align > SHOAL_HEAP_BASE_ALIGN)
        shoal_log_warn("%s: cannot place %zu bytes at a multiple of %zu bytes: the symmetric heap "
                       "itself is aligned to %zu bytes, so no offset in it is; returning NULL",
                       routine, size, align, (size_t)SHOAL_HEAP_BASE_ALIGN);
    else if (size > heap->capacity)
        shoal_log_warn("%s: cannot allocate %zu bytes: larger than the whole symmetric heap "
                       "(SHMEM_SYMMETRIC_SIZE is %zu bytes); returning NULL",
                       routine, size, heap->capacity);
    else if (align > SHOAL_HEAP_MIN_ALIGN && largest >= size)
        shoal_log_warn("%s: cannot place %zu bytes at a multiple of %zu bytes: no free range of "
                       "the %zu-byte symmetric heap starts at one (the largest free range, %zu "
                       "bytes, would hold it unaligned); returning NULL",
                       routine, size, align, heap->capacity, largest);
    else
        shoal_log_warn("%s: cannot allocate %zu bytes: %zu of %zu symmetric heap bytes are in "
                       "use (largest free range %zu bytes); returning NULL; raise "
                       "SHMEM_SYMMETRIC_SIZE",
                       routine, size, heap->in_use, heap->capacity, largest);
}

/* Sizes the heap can never hold (2^63, SIZE_MAX, a negative int passed as size_t)
 * return NULL like any other request that does not fit, as the spec says. */
static void *heap_alloc(size_t size, size_t align, const char *routine)
{
    size_t off;
    int status;

    shoal_check_init(routine);
    if (size == 0) /* OpenSHMEM 1.6: no action, so no barrier either */
        return NULL;
    if (shoal_core_settings()->check_coll) /* a size that differs would break symmetry */
        shoal_coll_check(&shoal_team_world.pset, routine, (const uint64_t[]){size, align},
                         (const char *const[]){"size", "alignment"}, 2, 0);
    if (align > SHOAL_HEAP_BASE_ALIGN) /* the same on every PE: the bases are equal */
        status = SHOAL_ERR_NO_MEMORY;
    else
        status = shoal_heap_alloc(shoal_core_heap(), size, align, &off);
    shoal_coll_barrier(&shoal_team_world.pset, 1, routine);
    if (status != SHOAL_OK) {
        warn_failed(size, align, routine);
        return NULL;
    }
    return shoal_core_seg(SHOAL_SEG_HEAP)->base + off;
}

/* The heap offset of a block shmem_malloc returned, or the end of the job. */
static size_t heap_block(const void *ptr, const char *routine)
{
    size_t off, start, size;

    if (shoal_segment_find(ptr, &off) != SHOAL_SEG_HEAP ||
        shoal_heap_lookup(shoal_core_heap(), off, &start, &size) != SHOAL_OK || start != off)
        shoal_log_fatal("%s: argument ptr is %p, which is not a block from shmem_malloc (or it "
                        "was freed already)",
                        routine, ptr);
    return off;
}

void *pshmem_malloc(size_t size)
{
    return heap_alloc(size, SHOAL_HEAP_MIN_ALIGN, "shmem_malloc");
}
SHOAL_PROFILED(shmem_malloc);

/* Hints only describe use: where a hint is of no use (every one, today: the heap
 * is one region whose AMOs and signals are all served alike), the spec has the
 * call behave as shmem_malloc. So any value is accepted, unknown bits included. */
void *pshmem_malloc_with_hints(size_t size, long hints)
{
    (void)hints;
    return heap_alloc(size, SHOAL_HEAP_MIN_ALIGN, "shmem_malloc_with_hints");
}
SHOAL_PROFILED(shmem_malloc_with_hints);

void *pshmem_calloc(size_t count, size_t size)
{
    size_t bytes;
    void *ptr;

    if (__builtin_mul_overflow(count, size, &bytes)) { /* cannot fit: NULL, collectively */
        shoal_check_init("shmem_calloc");
        shoal_coll_barrier(&shoal_team_world.pset, 1, "shmem_calloc");
        shoal_log_warn("shmem_calloc: cannot allocate %zu objects of %zu bytes: the product "
                       "overflows size_t; returning NULL",
                       count, size);
        return NULL;
    }
    if (bytes == 0) /* no action, as shmem_malloc(0) */
        return heap_alloc(0, SHOAL_HEAP_MIN_ALIGN, "shmem_calloc");
    ptr = heap_alloc(bytes, SHOAL_HEAP_MIN_ALIGN, "shmem_calloc");

    if (ptr != NULL)
        memset(ptr, 0, bytes);
    /* No PE may write the block remotely before its owner has cleared it. */
    shoal_coll_barrier(&shoal_team_world.pset, 0, "shmem_calloc");
    return ptr;
}
SHOAL_PROFILED(shmem_calloc);

void *pshmem_align(size_t alignment, size_t size)
{
    if (alignment == 0 || (alignment & (alignment - 1)) != 0)
        shoal_log_fatal("shmem_align: argument alignment is %zu, expected a power of two",
                        alignment);
    return heap_alloc(size, alignment, "shmem_align");
}
SHOAL_PROFILED(shmem_align);

void pshmem_free(void *ptr)
{
    size_t off;

    shoal_check_init("shmem_free");
    if (ptr == NULL) /* OpenSHMEM 1.6: no action, so no barrier either */
        return;
    shoal_coll_barrier(&shoal_team_world.pset, 1, "shmem_free");
    off = heap_block(ptr, "shmem_free");
    shoal_heap_free(shoal_core_heap(), off);
}
SHOAL_PROFILED(shmem_free);

void *pshmem_realloc(void *ptr, size_t size)
{
    size_t off, new_off, start, old_size;
    int moved, status;
    char *base;

    if (ptr == NULL)
        return heap_alloc(size, SHOAL_HEAP_MIN_ALIGN, "shmem_realloc");
    if (size == 0) { /* a free, but a wrong ptr is reported as this routine's */
        shoal_check_init("shmem_realloc");
        heap_block(ptr, "shmem_realloc");
        pshmem_free(ptr);
        return NULL;
    }
    shoal_check_init("shmem_realloc");
    off = heap_block(ptr, "shmem_realloc");
    shoal_heap_lookup(shoal_core_heap(), off, &start, &old_size);
    shoal_coll_barrier(&shoal_team_world.pset, 1, "shmem_realloc");
    status = shoal_heap_realloc(shoal_core_heap(), off, size, &new_off, &moved);
    base = shoal_core_seg(SHOAL_SEG_HEAP)->base;
    if (status == SHOAL_OK && moved) {
        memcpy(base + new_off, base + off, old_size < size ? old_size : size);
        shoal_heap_free(shoal_core_heap(), off);
    }
    shoal_coll_barrier(&shoal_team_world.pset, 1, "shmem_realloc");
    if (status != SHOAL_OK) { /* the old block stays, as the spec says */
        warn_failed(size, SHOAL_HEAP_MIN_ALIGN, "shmem_realloc");
        return NULL;
    }
    return base + new_off;
}
SHOAL_PROFILED(shmem_realloc);
