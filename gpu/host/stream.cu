/* shoal_gpu_wait_on_stream (shoal_gpu_host.h): the one engine of the generated
 * nvshmemx_*_wait_until_on_stream routines. Checks on the host, as the host wait
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

void shoal_gpu_wait_on_stream(void *ivar, int cmp, const void *value, size_t size,
                              int is_signed, cudaStream_t stream, const char *routine)
{
    /* One engine serves both: name the argument as the routine does. */
    const char *arg = strstr(routine, "signal") != NULL ? "sig_addr" : "ivar";
    uintptr_t base = shoal_gpu.state.heap_base, off = (uintptr_t)ivar - base;
    size_t heap_size = shoal_gpu.state.heap_size;
    const shoal_gpu_env_t *env;
    routine_name_t name;
    uint64_t bits = 0;
    cudaError_t rc;

    shoal_gpu_need_init(routine);
    shoal_gpu_check();
    env = shoal_gpu.env;
    if (!shoal_gpu.active)
        env->fatal("%s: no GPU is set up on this PE (%s)", routine, shoal_gpu.why);
    if (!shoal_wait_cmp_valid(cmp))
        env->fatal("%s: argument cmp is %d, expected one of NVSHMEM_CMP_EQ, NVSHMEM_CMP_NE, "
                   "NVSHMEM_CMP_GT, NVSHMEM_CMP_LE, NVSHMEM_CMP_LT, NVSHMEM_CMP_GE",
                   routine, cmp);
    if (size != 2 && size != 4 && size != 8)
        env->fatal("%s: element size %zu has no case in the stream wait (a bug in Shoal: "
                   "please report it)", routine, size);
    if (off >= heap_size || size > heap_size - off)
        env->fatal("%s: argument %s is %p, which is not in the symmetric heap (%p..%p), the "
                   "only symmetric memory a GPU can wait on; allocate it with nvshmem_malloc "
                   "or shmem_malloc",
                   routine, arg, ivar, (void *)base, (void *)(base + heap_size));
    if (((uintptr_t)ivar & (size - 1)) != 0)
        env->fatal("%s: argument %s is %p, not aligned to its %zu-byte type", routine, arg, ivar,
                   size);
    memcpy(&bits, value, size); /* the low bytes: the core reads size bytes of it */
    strncpy(name.s, routine, sizeof(name.s) - 1);
    name.s[sizeof(name.s) - 1] = '\0';
    SHOAL_GPU_LAUNCH_ON(stream, 1, 1, wait_kernel, ivar, cmp, bits, size, is_signed, name);
    rc = cudaGetLastError();
    if (rc != cudaSuccess)
        env->fatal("%s: cannot enqueue the wait on the stream: %s", routine,
                   cudaGetErrorString(rc));
}
