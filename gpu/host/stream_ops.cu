/* The nvshmemx_ host routines that put, quiet and barrier in a CUDA stream's
 * order: each checks its arguments on the host, with the host's one-line errors,
 * then enqueues a small kernel that calls the device engine, so the operation
 * starts after the stream's earlier work and later work waits for its end. It
 * never waits for the stream itself and adds no path of its own to the engine. */
#include "shoal_device.cuh"
#include "shoal_gpu.h"
#include "shoal_gpu_launch.h"
#include "nvshmem.h"
#include "nvshmemx.h"

/* The shape of a put's copy: up to PUT_BLOCKS blocks of PUT_THREADS threads,
 * each block a slice of at least PUT_SLICE bytes. On the CPU engine every
 * kernel thread is a pthread: a few suffice to run the group path. */
#ifdef SHOAL_DEV_ON_CPU
#define PUT_THREADS 4
#define PUT_BLOCKS 2
#else
#define PUT_THREADS 256
#define PUT_BLOCKS 32
#endif
#define PUT_SLICE 4096

/* A block's slice of [0, bytes): the same for every thread of the block. Slices
 * start at multiples of 8 bytes, so each keeps the alignment of the whole. */
__global__ static void put_kernel(void *dest, const void *source, size_t bytes, size_t slice,
                                  int pe)
{
    size_t off = (size_t)blockIdx.x * slice;

    if (off < bytes)
        shoal_dev_put_group((char *)dest + off, (const char *)source + off,
                            bytes - off < slice ? bytes - off : slice, pe, 0,
                            "nvshmemx_putmem_on_stream");
}

/* One thread: the engine's put with signal fences between the data and the
 * signal, which a copy shared by several blocks could not do without a second
 * kernel and a quiet of the host proxy. Cost: the copy at one thread's speed. */
__global__ static void put_signal_kernel(void *dest, const void *source, size_t bytes,
                                         uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    shoal_dev_put_signal(dest, source, bytes, sig_addr, signal, sig_op, pe,
                         "nvshmemx_putmem_signal_on_stream");
}

__global__ static void quiet_kernel(void)
{
    nvshmem_quiet();
}

__global__ static void barrier_kernel(void)
{
    nvshmem_barrier_all();
}

/* Without the host proxy (SHOAL_GPU_PROXY=none) a kernel reaches only the PEs
 * whose heaps are mapped here. */
static int reachable(int pe)
{
    return shoal_gpu.state.proxy != NULL || shoal_gpu.peer_heap[pe] != NULL;
}

static void check_pe(const shoal_gpu_env_t *env, int pe, const char *routine)
{
    if (pe < 0 || pe >= env->n_pes)
        env->fatal("%s: argument pe is %d, valid range 0..%d", routine, pe, env->n_pes - 1);
    if (!reachable(pe))
        env->fatal("%s: argument pe is %d, which this GPU cannot reach (its heap is not mapped "
                   "on this node, and SHOAL_GPU_PROXY=none turned off the host proxy that "
                   "reaches such PEs)",
                   routine, pe);
}

static void check_source(const shoal_gpu_env_t *env, const void *source, size_t nelems,
                         const char *routine)
{
    if (source == NULL && nelems > 0)
        env->fatal("%s: argument source is NULL, expected %zu bytes that the GPU can read", routine,
                   nelems);
}

extern "C" {

void nvshmemx_putmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                               cudaStream_t stream)
{
    static const char routine[] = "nvshmemx_putmem_on_stream";
    const shoal_gpu_env_t *env = shoal_gpu_stream_env(routine);
    size_t blocks, slice;

    check_pe(env, pe, routine);
    shoal_gpu_check_heap(env, dest, nelems, 1, "dest", routine);
    check_source(env, source, nelems, routine);
    if (nelems == 0)
        return; /* nothing to order: no kernel */
    blocks = (nelems + PUT_SLICE - 1) / PUT_SLICE;
    blocks = blocks < PUT_BLOCKS ? blocks : PUT_BLOCKS;
    slice = ((nelems + blocks - 1) / blocks + 7) & ~(size_t)7;
    SHOAL_GPU_LAUNCH_ON(stream, (unsigned)blocks, PUT_THREADS, put_kernel, dest, source, nelems,
                        slice, pe);
    shoal_gpu_check_enqueued(env, routine);
}

void nvshmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nelems,
                                      uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                      cudaStream_t stream)
{
    static const char routine[] = "nvshmemx_putmem_signal_on_stream";
    const shoal_gpu_env_t *env = shoal_gpu_stream_env(routine);

    check_pe(env, pe, routine);
    shoal_gpu_check_heap(env, dest, nelems, 1, "dest", routine);
    check_source(env, source, nelems, routine);
    shoal_gpu_check_heap(env, sig_addr, sizeof(*sig_addr), sizeof(*sig_addr), "sig_addr", routine);
    if (sig_op != NVSHMEM_SIGNAL_SET && sig_op != NVSHMEM_SIGNAL_ADD)
        env->fatal("%s: argument sig_op is %d, expected NVSHMEM_SIGNAL_SET or "
                   "NVSHMEM_SIGNAL_ADD",
                   routine, sig_op);
    SHOAL_GPU_LAUNCH_ON(stream, 1, 1, put_signal_kernel, dest, source, nelems, sig_addr, signal,
                        sig_op, pe);
    shoal_gpu_check_enqueued(env, routine);
}

void nvshmemx_quiet_on_stream(cudaStream_t stream)
{
    static const char routine[] = "nvshmemx_quiet_on_stream";
    const shoal_gpu_env_t *env = shoal_gpu_stream_env(routine);

    SHOAL_GPU_LAUNCH_ON(stream, 1, 1, quiet_kernel);
    shoal_gpu_check_enqueued(env, routine);
}

void nvshmemx_barrier_all_on_stream(cudaStream_t stream)
{
    static const char routine[] = "nvshmemx_barrier_all_on_stream";
    const shoal_gpu_env_t *env = shoal_gpu_stream_env(routine);
    int pe;

    /* As the device barrier would find, but now, on the host: it needs every PE. */
    for (pe = 0; pe < env->n_pes; pe++)
        if (!reachable(pe))
            env->fatal("%s: PE %d is out of this GPU's reach (its heap is not mapped on this "
                       "node, and SHOAL_GPU_PROXY=none turned off the host proxy), and the "
                       "routine involves every PE",
                       routine, pe);
    SHOAL_GPU_LAUNCH_ON(stream, 1, 1, barrier_kernel);
    shoal_gpu_check_enqueued(env, routine);
}

} /* extern "C" */
