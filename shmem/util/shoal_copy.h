/* A copy into memory other PEs map, for data larger than the last-level cache.
 * Plain C over libc; no state. */
#ifndef SHOAL_COPY_H
#define SHOAL_COPY_H

#include <stddef.h>

/* Copies n bytes to a mapped dst with stores that bypass the caches (where the
 * CPU has them; else memcpy), then fences them: for collectives whose data as a
 * whole is larger than the last-level cache, where a cached store first reads
 * each destination line from memory and then evicts something the other PEs
 * still need. Ordered before any later store, as memcpy's are. */
void shoal_copy_stream(void *dst, const void *src, size_t n);

#endif
