/* shoal_gpu_wait_on_stream (shoal_gpu_host.h): the one engine of the generated
 * nvshmemx_*_wait_until_on_stream routines, and the host checks that it and
 * stream_ops.cu make. Checks on the host, as the host wait
 * does, then enqueues a one-thread kernel that polls through shoal_dev_sync, so
 * that later work on the stream starts only once the condition holds. */
#include "shoal_gpu_host.h"
#include "shoal_gpu_launch.h"
#include "shoal_device.cuh"
#include "shoal_gpu.h"

#include <string.h>

/* The routine's name travels by value in the launch: the host's string is not
 * addressable from the GPU. */
typedef struct routine_name {
    char s[64];
} routine_name_t;

__global__ static void wait_kernel(const void *ivar, int cmp, uint64_t value, size_t size,
                                   int is_signed, routine_name_t routine)
{
    shoal_wait_set_t set = {ivar, 1, size, is_signed, NULL, cmp, &value, 0};

    shoal_dev_sync(&set, SHOAL_SEL_ONE, 1, NULL, routine.s);
}

/* The checks every stream routine makes (shoal_gpu.h). */

const shoal_gpu_env_t *shoal_gpu_stream_env(const char *routine)
{
    shoal_gpu_need_init(routine);
    shoal_gpu_check();
    if (!shoal_gpu.active)
        shoal_gpu.env->fatal("%s: no GPU is set up on this PE (%s)", routine, shoal_gpu.why);
    return shoal_gpu.env;
}

void shoal_gpu_check_heap(const shoal_gpu_env_t *env, const void *addr, size_t len, size_t align,
                          const char *arg, const char *routine)
{
    uintptr_t base = shoal_gpu.state.heap_base, off = (uintptr_t)addr - base;
    size_t size = shoal_gpu.state.heap_size;

    if (off >= size)
        env->fatal("%s: argument %s is %p, which is not in the symmetric heap (%p..%p), the "
                   "only symmetric memory kernels can reach; allocate it with nvshmem_malloc "
                   "or shmem_malloc",
                   routine, arg, addr, (void *)base, (void *)(base + size));
    if (len > size - off)
        env->fatal("%s: argument %s is %p and %zu bytes long, which runs past the end of the "
                   "symmetric heap (%p..%p)",
                   routine, arg, addr, len, (void *)base, (void *)(base + size));
    if (((uintptr_t)addr & (align - 1)) != 0)
        env->fatal("%s: argument %s is %p, not aligned to its %zu-byte type", routine, arg, addr,
                   align);
}

void shoal_gpu_check_enqueued(const shoal_gpu_env_t *env, const char *routine)
{
    cudaError_t rc = cudaGetLastError();

    if (rc != cudaSuccess)
        env->fatal("%s: cannot enqueue the operation on the stream: %s", routine,
                   cudaGetErrorString(rc));
}

void shoal_gpu_wait_on_stream(void *ivar, int cmp, const void *value, size_t size,
                              int is_signed, cudaStream_t stream, const char *routine)
{
    /* One engine serves both: name the argument as the routine does. */
    const char *arg = strstr(routine, "signal") != NULL ? "sig_addr" : "ivar";
    const shoal_gpu_env_t *env = shoal_gpu_stream_env(routine);
    routine_name_t name;
    uint64_t bits = 0;

    if (!shoal_wait_cmp_valid(cmp))
        env->fatal("%s: argument cmp is %d, expected one of NVSHMEM_CMP_EQ, NVSHMEM_CMP_NE, "
                   "NVSHMEM_CMP_GT, NVSHMEM_CMP_LE, NVSHMEM_CMP_LT, NVSHMEM_CMP_GE",
                   routine, cmp);
    if (size != 2 && size != 4 && size != 8)
        env->fatal("%s: element size %zu has no case in the stream wait (a bug in Shoal: "
                   "please report it)", routine, size);
    shoal_gpu_check_heap(env, ivar, size, size, arg, routine);
    memcpy(&bits, value, size); /* the low bytes: the core reads size bytes of it */
    strncpy(name.s, routine, sizeof(name.s) - 1);
    name.s[sizeof(name.s) - 1] = '\0';
    SHOAL_GPU_LAUNCH_ON(stream, 1, 1, wait_kernel, ivar, cmp, bits, size, is_signed, name);
    shoal_gpu_check_enqueued(env, routine);
}
