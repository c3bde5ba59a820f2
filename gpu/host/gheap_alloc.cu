/* The host heap's allocator (shmem/core/engine/shoal_heap.c) as the GPU heap's, under
 * the names shoal_gheap.h gives it: one copy of the code, two symbol sets. */
#include "shoal_gheap.h"

#include "shoal_heap.c"
