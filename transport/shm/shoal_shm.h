/* Same-node transport: each PE's segments live in memfd files that peers on the
 * node map, so remote access is a load or store. Holds no global state. */
#ifndef SHOAL_SHM_H
#define SHOAL_SHM_H

#include <stddef.h>
#include <sys/types.h>

#include "shoal_transport.h"

typedef struct shoal_shm_peer {
    char *base[SHOAL_SEG_COUNT];
    size_t size[SHOAL_SEG_COUNT];
} shoal_shm_peer_t;

extern const shoal_transport_ops_t shoal_shm_ops;

/* A new shared segment of size bytes, mapped at a multiple of align (a power of
 * two, at least a page). */
int shoal_shm_segment_create(const char *name, size_t size, size_t align, int *fd_out,
                             void **addr_out);
/* Makes the existing private mapping [addr, addr+size) shared, keeping its contents
 * and its address (used for the program's data and bss). */
int shoal_shm_segment_remap(const char *name, void *addr, size_t size, int *fd_out);
/* Maps a peer's segment, named by its pid and descriptor. */
int shoal_shm_segment_attach(pid_t pid, int fd, size_t size, void **addr_out);
void shoal_shm_segment_detach(void *addr, size_t size);

/* Store ordering for the direct path: fence orders, quiet completes. */
static inline void shoal_shm_fence(void)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void shoal_shm_quiet(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

#endif
