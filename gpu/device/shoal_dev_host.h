/* The host halves that the device files' routines call when they run on the
 * host (nvshmem_my_pe, nvshmem_barrier_all, the team queries and the typed
 * collectives called outside a kernel): declared here, beside their callers,
 * and defined in gpu/host (api.cu, team_api.cu, coll_stream.cu), so that
 * gpu/host includes gpu/device and never the other way. Internal. */
#ifndef SHOAL_DEV_HOST_H
#define SHOAL_DEV_HOST_H

#include <stddef.h>

#include "shoal_dev_state.h"
#include "shoal_gpu_hook.h" /* SHOAL_GPU_COLL_*: shoal_gpu_coll_host's kinds */
#include "nvshmem.h"        /* nvshmem_team_t */

/* api.cu: the host halves of the routines that are both host and device
 * (device.cu). */
int shoal_gpu_my_pe(void);
int shoal_gpu_n_pes(void);
void *shoal_gpu_ptr(const void *ptr, int pe);
void shoal_gpu_fence(void);
void shoal_gpu_quiet(void);
void shoal_gpu_barrier_all(void);
void shoal_gpu_sync_all(void);
/* The state the team queries read on the host (after shoal_gpu_check and the
 * check that shmem_init ran), and the line and exit for a team they do not know. */
const shoal_dev_state_t *shoal_gpu_team_state(const char *routine);
[[noreturn]] void shoal_gpu_bad_team(const char *routine, int team);

/* team_api.cu: the host halves of nvshmem_team_translate_pe and of nvshmem_barrier
 * (fence) and nvshmem_team_sync. */
int shoal_gpu_team_translate(nvshmem_team_t src_team, int src_pe, nvshmem_team_t dest_team);
void shoal_gpu_team_barrier(nvshmem_team_t team, int fence, const char *routine);

#ifdef __cplusplus
extern "C" {
#endif

/* coll_stream.cu: the host half of the typed collectives (nvshmem_int_sum_reduce
 * and the rest called on the host): the same collective on a stream of its own
 * (shoal_gpu_coll_on_stream's checks, lines naming routine), waited for;
 * returns 0 once it is done on this PE. On the CPU engine the device engine
 * (libshoal_devcpu) refers to it weakly (#pragma weak in engine_coll_gen.cc):
 * it is in the host routines' library. */
int shoal_gpu_coll_host(int kind, int team, void *dest, const void *source, size_t nelems,
                        size_t elem, int root, int op, int dt, const char *routine);

#ifdef __cplusplus
}
#endif

#endif
