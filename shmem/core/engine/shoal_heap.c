/* First-fit allocator over a sorted block list. O(blocks) per call, which is fine:
 * symmetric allocation is collective and rare. Must stay deterministic. */
#include "shoal_heap.h"
#include "shoal_status.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) & ~(a - 1);
}

static shoal_status_t blocks_reserve(shoal_heap_t *heap, size_t extra)
{
    shoal_heap_block_t *grown;
    size_t want = heap->nblocks + extra;

    if (want <= heap->max_blocks)
        return SHOAL_OK;
    want = want < 2 * heap->max_blocks ? 2 * heap->max_blocks : want;
    /* The cast: the GPU library builds this file as C++ too (gpu/host/gheap_alloc.cu). */
    grown = (shoal_heap_block_t *)realloc(heap->blocks, want * sizeof(*grown));
    if (grown == NULL)
        return SHOAL_ERR_NO_MEMORY;
    heap->blocks = grown;
    heap->max_blocks = want;
    return SHOAL_OK;
}

static void block_insert(shoal_heap_t *heap, size_t at, size_t off, size_t len)
{
    memmove(&heap->blocks[at + 1], &heap->blocks[at],
            (heap->nblocks - at) * sizeof(heap->blocks[0]));
    heap->blocks[at] = (shoal_heap_block_t){.off = off, .len = len, .size = 0, .used = 0};
    heap->nblocks++;
}

static void block_remove(shoal_heap_t *heap, size_t at)
{
    memmove(&heap->blocks[at], &heap->blocks[at + 1],
            (heap->nblocks - at - 1) * sizeof(heap->blocks[0]));
    heap->nblocks--;
}

/* Index of the block containing off, or nblocks. */
static size_t block_find(const shoal_heap_t *heap, size_t off)
{
    size_t lo = 0, hi = heap->nblocks;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const shoal_heap_block_t *b = &heap->blocks[mid];

        if (off < b->off)
            hi = mid;
        else if (off >= b->off + b->len)
            lo = mid + 1;
        else
            return mid;
    }
    return heap->nblocks;
}

shoal_status_t shoal_heap_setup(shoal_heap_t *heap, size_t capacity)
{
    unsigned releases = heap->releases;

    memset(heap, 0, sizeof(*heap));
    heap->releases = releases + 1; /* a new arena: every array in it is new */
    heap->capacity = capacity;
    if (capacity == 0)
        return SHOAL_OK;
    if (blocks_reserve(heap, 16) != SHOAL_OK)
        return SHOAL_ERR_NO_MEMORY;
    block_insert(heap, 0, 0, capacity);
    return SHOAL_OK;
}

void shoal_heap_cleanup(shoal_heap_t *heap)
{
    unsigned releases = heap->releases;

    free(heap->blocks);
    memset(heap, 0, sizeof(*heap));
    heap->releases = releases;
}

static void note_in_use(shoal_heap_t *heap)
{
    if (heap->in_use > heap->in_use_max)
        heap->in_use_max = heap->in_use;
}

/* Marks [start, start+len) of free block i used (by whom: used), splitting off
 * what is left over. */
static void block_carve(shoal_heap_t *heap, size_t i, size_t start, size_t len, size_t size,
                        int used)
{
    shoal_heap_block_t b = heap->blocks[i];
    size_t head = start - b.off, tail = b.off + b.len - (start + len);

    heap->blocks[i] = (shoal_heap_block_t){.off = start, .len = len, .size = size, .used = used};
    if (head > 0)
        block_insert(heap, i++, b.off, head);
    if (tail > 0)
        block_insert(heap, i + 1, start + len, tail);
    heap->in_use += len;
    note_in_use(heap);
}

static shoal_status_t heap_alloc(shoal_heap_t *heap, size_t size, size_t align, int used,
                                 size_t *off_out)
{
    size_t i, len;

    if (align < SHOAL_HEAP_MIN_ALIGN)
        align = SHOAL_HEAP_MIN_ALIGN;
    if ((align & (align - 1)) != 0 || size > heap->capacity)
        return SHOAL_ERR_INVALID_ARG;
    len = align_up(size ? size : 1, SHOAL_HEAP_MIN_ALIGN);
    if (blocks_reserve(heap, 2) != SHOAL_OK)
        return SHOAL_ERR_NO_MEMORY;
    for (i = 0; i < heap->nblocks; i++) {
        shoal_heap_block_t *b = &heap->blocks[i];
        size_t start = align_up(b->off, align);

        if (b->used || start < b->off || start - b->off > b->len || b->len - (start - b->off) < len)
            continue;
        block_carve(heap, i, start, len, size, used);
        *off_out = start;
        return SHOAL_OK;
    }
    return SHOAL_ERR_NO_MEMORY;
}

shoal_status_t shoal_heap_alloc(shoal_heap_t *heap, size_t size, size_t align, size_t *off_out)
{
    return heap_alloc(heap, size, align, SHOAL_HEAP_USER, off_out);
}

shoal_status_t shoal_heap_alloc_own(shoal_heap_t *heap, size_t size, size_t align, size_t *off_out)
{
    return heap_alloc(heap, size, align, SHOAL_HEAP_OWN, off_out);
}

size_t shoal_heap_largest_free(const shoal_heap_t *heap)
{
    size_t i, best = 0;

    for (i = 0; i < heap->nblocks; i++)
        if (!heap->blocks[i].used && heap->blocks[i].len > best)
            best = heap->blocks[i].len;
    return best;
}

/* Merges free block i with free neighbours. */
static void block_coalesce(shoal_heap_t *heap, size_t i)
{
    if (i + 1 < heap->nblocks && !heap->blocks[i + 1].used) {
        heap->blocks[i].len += heap->blocks[i + 1].len;
        block_remove(heap, i + 1);
    }
    if (i > 0 && !heap->blocks[i - 1].used) {
        heap->blocks[i - 1].len += heap->blocks[i].len;
        block_remove(heap, i);
    }
}

shoal_status_t shoal_heap_free(shoal_heap_t *heap, size_t off)
{
    size_t i = block_find(heap, off);

    if (i == heap->nblocks || heap->blocks[i].used != SHOAL_HEAP_USER || heap->blocks[i].off != off)
        return SHOAL_ERR_NOT_FOUND;
    heap->in_use -= heap->blocks[i].len;
    __atomic_store_n(&heap->releases, heap->releases + 1, __ATOMIC_RELAXED);
    heap->blocks[i].used = 0;
    heap->blocks[i].size = 0;
    block_coalesce(heap, i);
    return SHOAL_OK;
}

shoal_status_t shoal_heap_realloc(shoal_heap_t *heap, size_t off, size_t size, size_t *new_off_out,
                                  int *moved_out)
{
    size_t i = block_find(heap, off), len, room;
    shoal_heap_block_t *b;

    if (i == heap->nblocks || heap->blocks[i].used != SHOAL_HEAP_USER || heap->blocks[i].off != off)
        return SHOAL_ERR_NOT_FOUND;
    __atomic_store_n(&heap->releases, heap->releases + 1, __ATOMIC_RELAXED);
    if (size > heap->capacity)
        return SHOAL_ERR_INVALID_ARG;
    if (blocks_reserve(heap, 2) != SHOAL_OK)
        return SHOAL_ERR_NO_MEMORY;
    b = &heap->blocks[i];
    len = align_up(size ? size : 1, SHOAL_HEAP_MIN_ALIGN);
    room = b->len;
    if (i + 1 < heap->nblocks && !heap->blocks[i + 1].used)
        room += heap->blocks[i + 1].len;
    if (len > room) {
        *moved_out = 1;
        return shoal_heap_alloc(heap, size, SHOAL_HEAP_MIN_ALIGN, new_off_out);
    }
    /* In place: give the whole neighbour to this block, then cut the tail off again. */
    if (room > b->len) {
        b->len = room;
        heap->in_use += heap->blocks[i + 1].len;
        block_remove(heap, i + 1);
        b = &heap->blocks[i];
    }
    if (b->len > len) {
        heap->in_use -= b->len - len;
        block_insert(heap, i + 1, b->off + len, b->len - len);
        heap->blocks[i].len = len;
    }
    note_in_use(heap); /* after the cut: the whole neighbour was never in use */
    heap->blocks[i].size = size;
    *moved_out = 0;
    *new_off_out = off;
    return SHOAL_OK;
}

shoal_status_t shoal_heap_lookup(const shoal_heap_t *heap, size_t off, size_t *start_out,
                                 size_t *size_out)
{
    size_t i = block_find(heap, off);

    if (i == heap->nblocks || heap->blocks[i].used != SHOAL_HEAP_USER)
        return SHOAL_ERR_NOT_FOUND;
    *start_out = heap->blocks[i].off;
    *size_out = heap->blocks[i].size;
    return SHOAL_OK;
}

int shoal_heap_is_own(const shoal_heap_t *heap, size_t off)
{
    size_t i = block_find(heap, off);

    return i < heap->nblocks && heap->blocks[i].used == SHOAL_HEAP_OWN;
}
