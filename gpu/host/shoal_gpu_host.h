/* The untyped host side of the GPU library that the generated nvshmemx_*_on_stream
 * wrappers (gpu/host/gen/stream.cu) call, one call each. Implemented in
 * gpu/host/stream.cu. */
#ifndef SHOAL_GPU_HOST_H
#define SHOAL_GPU_HOST_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "shoal_dev_host.h" /* shoal_gpu_coll_host */
#include "shoal_gpu_hook.h" /* SHOAL_GPU_COLL_* */

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues on stream a wait until the size-byte (2, 4 or 8) ivar in the symmetric
 * heap compares cmp (SHOAL_CMP_*) against *value (read now, on the host, so the
 * caller's variable may go away); work enqueued on stream later starts only after
 * the condition holds. Checks its arguments like the host wait (one line and exit
 * on a bad cmp or an ivar outside symmetric memory). */
void shoal_gpu_wait_on_stream(void *ivar, int cmp, const void *value, size_t size, int is_signed,
                              cudaStream_t stream, const char *routine);

/* The team collectives on a stream (gpu/host/coll_stream.cu, for the generated
 * wrappers of gpu/host/gen/coll_stream.cu and the byte forms): kind one of
 * SHOAL_GPU_COLL_*; nelems elements of elem bytes; root for a broadcast, op (a
 * shoal_red_op_t) and dt (a shoal_dt_t) for a reduction. Checks team, root and
 * the addresses on the host (one line and exit), then enqueues a kernel of one
 * block that makes the device collective; returns 0. */
/* SHOAL_GPU_COLL_*: shoal_gpu_hook.h's, which libshoal's API passes too. */
int shoal_gpu_coll_on_stream(int kind, int team, void *dest, const void *source, size_t nelems,
                             size_t elem, int root, int op, int dt, cudaStream_t stream,
                             const char *routine);

/* shoal_gpu_coll_host, the host half of the typed collectives: shoal_dev_host.h. */

/* shoal_gpu_hook.h's gheap_coll: the shmem_ team collectives on GPU-heap
 * buffers, through shoal_gpu_coll_host on the device twin of team (a
 * shmem_team_t). The CPU engine's hooks (dev_cpu.cc) refer to it weakly. */
void shoal_gpu_gheap_coll(int kind, void *team, void *dest, const void *source, size_t nelems,
                          size_t elem, int root, int op, int dt, const char *routine);

#ifdef __cplusplus
}
#endif

#endif
