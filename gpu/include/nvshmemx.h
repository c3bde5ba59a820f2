/* nvshmemx.h - NVSHMEM's extensions as Shoal has them: the nvshmemx_*_on_stream
 * host routines, which act in a CUDA stream's order. The typed waits are
 * declared with the typed routines (nvshmem_typed.h); the put, quiet and barrier
 * forms below are hand-written (gpu/host/stream_ops.cu, and coll_stream.cu for
 * the team forms). NVSHMEM programs that
 * include this header build unchanged. Compiles as C and C++. */
#ifndef SHOAL_NVSHMEMX_H
#define SHOAL_NVSHMEMX_H

#include <cuda_runtime_api.h> /* cudaStream_t */

#include <stddef.h>
#include <stdint.h>

#include "nvshmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each enqueues its operation on stream and returns: it starts once the work
 * enqueued on stream before it is done, and work enqueued after it starts once
 * it is complete (nvshmemx_putmem_on_stream(3)). */
void nvshmemx_putmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                               cudaStream_t stream);
void nvshmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nelems,
                                      uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                      cudaStream_t stream);
void nvshmemx_quiet_on_stream(cudaStream_t stream);
/* Every PE calls it, each on a stream of its own. */
void nvshmemx_barrier_all_on_stream(cudaStream_t stream);
/* The team forms: every member calls them, each on a stream of its own; the
 * typed collectives' stream forms are in nvshmem_typed.h. A kernel of one block
 * makes the device collective (nvshmem_collectives(3)); they return 0. */
void nvshmemx_barrier_on_stream(nvshmem_team_t team, cudaStream_t stream);
int nvshmemx_team_sync_on_stream(nvshmem_team_t team, cudaStream_t stream);
int nvshmemx_broadcastmem_on_stream(nvshmem_team_t team, void *dest, const void *source,
                                    size_t nelems, int PE_root, cudaStream_t stream);
int nvshmemx_fcollectmem_on_stream(nvshmem_team_t team, void *dest, const void *source,
                                   size_t nelems, cudaStream_t stream);
int nvshmemx_alltoallmem_on_stream(nvshmem_team_t team, void *dest, const void *source,
                                   size_t nelems, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
