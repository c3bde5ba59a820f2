/* The GPU symmetric heap's allocator: shmem/core/engine/shoal_heap.c, the host heap's,
 * built a second time into libshoal_gpu (gheap_alloc.cu) under these names, so
 * that the GPU library needs none of libshoal's internal symbols and a static
 * link of both has no duplicate. Include it instead of shoal_heap.h. */
#ifndef SHOAL_GHEAP_H
#define SHOAL_GHEAP_H

#define shoal_heap_setup shoal_gheap_setup
#define shoal_heap_cleanup shoal_gheap_cleanup
#define shoal_heap_alloc shoal_gheap_alloc
#define shoal_heap_alloc_own shoal_gheap_alloc_own
#define shoal_heap_free shoal_gheap_free
#define shoal_heap_largest_free shoal_gheap_largest_free
#define shoal_heap_realloc shoal_gheap_realloc
#define shoal_heap_lookup shoal_gheap_lookup
#define shoal_heap_is_own shoal_gheap_is_own

#include "shoal_heap.h"

/* The GPU heap's base is a multiple of this (the slack of its allocation is
 * given up for it), so nvshmem_align places up to this alignment. */
#define SHOAL_GHEAP_BASE_ALIGN ((size_t)2 << 20)

#endif
