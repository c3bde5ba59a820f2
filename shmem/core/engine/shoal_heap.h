/* The symmetric-heap allocator. Works on offsets into an arena of fixed size and
 * is deterministic: the same calls in the same order give the same offsets on
 * every PE, which is what makes the heap symmetric. It never touches the arena
 * itself, so its bookkeeping cannot be corrupted by a user's overrun. */
#ifndef SHOAL_HEAP_H
#define SHOAL_HEAP_H

#include <stddef.h>
#include "shoal_status.h"

#define SHOAL_HEAP_MIN_ALIGN 64 /* a cache line: separate allocations never share one */
/* The heap's base address is a multiple of this, so aligning an offset aligns the
 * address: the largest alignment shmem_align can give. */
#define SHOAL_HEAP_BASE_ALIGN ((size_t)1 << 30)

typedef struct shoal_heap_block {
    size_t off;  /* start of the block in the arena */
    size_t len;  /* bytes the block spans */
    size_t size; /* bytes the user asked for (0 for a free block) */
    int used;    /* 0 free, SHOAL_HEAP_USER or SHOAL_HEAP_OWN */
} shoal_heap_block_t;

/* A used block is the program's (shmem_malloc) or the library's own (the team
 * slots): lookup, free and realloc see only the program's, so no argument of a
 * routine can name the library's, and SHOAL_CHECK=1 refuses a put into them. */
enum { SHOAL_HEAP_USER = 1, SHOAL_HEAP_OWN = 2 };

typedef struct shoal_heap {
    size_t capacity;
    shoal_heap_block_t *blocks; /* sorted by offset, covering [0, capacity) */
    size_t nblocks;
    size_t max_blocks;
    size_t in_use;     /* bytes spanned by used blocks */
    size_t in_use_max; /* the most in_use has been: SHOAL_STATS' high-water mark */
    /* Frees, reallocs and setups so far, never reset: when it changes, an array
     * may start where another one did (the pSync check's memory, shmem/api/coll.c). */
    unsigned releases;
} shoal_heap_t;

/* heap is zeroed, or was cleaned up (which keeps its release count). */
shoal_status_t shoal_heap_setup(shoal_heap_t *heap, size_t capacity);
void shoal_heap_cleanup(shoal_heap_t *heap);

/* align must be a power of two (it is raised to SHOAL_HEAP_MIN_ALIGN). */
shoal_status_t shoal_heap_alloc(shoal_heap_t *heap, size_t size, size_t align, size_t *off_out);
/* The same, for a block the library keeps (see SHOAL_HEAP_OWN); it is never freed
 * but with the whole heap. */
shoal_status_t shoal_heap_alloc_own(shoal_heap_t *heap, size_t size, size_t align, size_t *off_out);
/* off must be the start of a used block, else SHOAL_ERR_NOT_FOUND. */
shoal_status_t shoal_heap_free(shoal_heap_t *heap, size_t off);
/* The longest free range, in bytes (what an unaligned request of that size could get). */
size_t shoal_heap_largest_free(const shoal_heap_t *heap);
/* Grows or shrinks in place when it can; otherwise allocates anew (the caller copies
 * and frees the old block). *moved_out says which happened. */
shoal_status_t shoal_heap_realloc(shoal_heap_t *heap, size_t off, size_t size, size_t *new_off_out,
                                  int *moved_out);
/* The program's block containing off: its start and requested size. */
shoal_status_t shoal_heap_lookup(const shoal_heap_t *heap, size_t off, size_t *start_out,
                                 size_t *size_out);
/* Whether off lies in a block the library keeps for itself. */
int shoal_heap_is_own(const shoal_heap_t *heap, size_t off);

#endif
