/* Same-node transport: each PE's segments live in memfd files that peers on the
 * node map, so remote access is a load or store. Holds no global state; the core
 * decides where it may be used (shoal_core_direct). */
#ifndef SHOAL_SHM_H
#define SHOAL_SHM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "shoal_transport.h"
#include "shoal_status.h"

extern const shoal_transport_ops_t shoal_shm_ops;

/* A new shared segment of size bytes, mapped at a multiple of align (a power of
 * two, at least a page). */
shoal_status_t shoal_shm_segment_create(const char *name, size_t size, size_t align, int *fd_out,
                             void **addr_out);
/* Makes the existing private mapping [addr, addr+size) shared, keeping its contents
 * and its address (used for the program's data and bss). */
shoal_status_t shoal_shm_segment_remap(const char *name, void *addr, size_t size, int *fd_out);
/* Copies size bytes between [base, base+size) and the start of file fd, into the
 * file when to_file is set, else out of it. Returns SHOAL_OK or SHOAL_ERR_SYSTEM. */
shoal_status_t shoal_shm_file_copy(int fd, char *base, size_t size, int to_file);
void shoal_shm_segment_detach(void *addr, size_t size);

/* A peer's state for shoal_shm_ops: its segments (descriptors fd, sizes size, in
 * process pid) mapped here. own: this PE's own segments, used as they are (pid and
 * fd unused); NULL for another PE. */
shoal_status_t shoal_shm_peer_create(pid_t pid, const int *fd, const size_t *size, char *const *own,
                          void **state_out);

#endif
