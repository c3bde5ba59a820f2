/* nvshmemx.h - NVSHMEM's extensions as Shoal has them: the nvshmemx_*_on_stream
 * host routines, which act in a CUDA stream's order, and the collective launch. The typed waits are
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

/* A kernel whose blocks wait for each other or for other PEs' kernels (device
 * barriers, waits, collectives) is launched with this, on every PE: all its
 * blocks run at once (CUDA's cooperative launch). gridDims of 0 takes the most
 * that fit, which the query writes to *gridsize; more is refused with one line.
 * args: the addresses of the kernel's parameters, copied at the launch. Both
 * return 0 (nvshmemx_collective_launch(3)). */
int nvshmemx_collective_launch_query_gridsize(const void *func, dim3 blockDims, void **args,
                                              size_t sharedMem, int *gridsize);
#ifndef SHOAL_DEV_ON_CPU
int nvshmemx_collective_launch(const void *func, dim3 gridDims, dim3 blockDims, void **args,
                               size_t sharedMem, cudaStream_t stream);
#endif

#ifdef __cplusplus
}
#endif

#ifdef __cplusplus
#ifdef SHOAL_DEV_ON_CPU
/* The CPU engine calls kernels as C++ functions, so its launch needs the
 * kernel's type: pass the kernel itself, not a (void *) cast of it. The
 * template reads each parameter from args[i] as the type the kernel takes. */
#include <functional>
#include <type_traits>
#include <utility>

int shoal_gpu_collective_launch_cpu(const void *func, dim3 gridDims, dim3 blockDims, void **args,
                                    size_t nparams, size_t sharedMem, cudaStream_t stream,
                                    std::function<std::function<void()>()> bind);

template <typename... A, size_t... I>
static inline std::function<void()> shoal_gpu_bind_params(void (*func)(A...), void **args,
                                                          std::index_sequence<I...>)
{
    (void)args; /* unused for a kernel without parameters */
    return std::bind(func, *static_cast<typename std::decay<A>::type *>(args[I])...);
}

template <typename... A>
static inline int nvshmemx_collective_launch(void (*func)(A...), dim3 gridDims, dim3 blockDims,
                                             void **args, size_t sharedMem, cudaStream_t stream)
{
    return shoal_gpu_collective_launch_cpu((const void *)func, gridDims, blockDims, args,
                                           sizeof...(A), sharedMem, stream, [func, args]() {
                                               return shoal_gpu_bind_params(
                                                   func, args, std::index_sequence_for<A...>{});
                                           });
}
#else
/* The kernel itself, as the CPU engine takes it, also builds under nvcc. */
template <typename... A>
static inline int nvshmemx_collective_launch(void (*func)(A...), dim3 gridDims, dim3 blockDims,
                                             void **args, size_t sharedMem, cudaStream_t stream)
{
    return nvshmemx_collective_launch((const void *)func, gridDims, blockDims, args, sharedMem,
                                      stream);
}
#endif
#endif

#endif
