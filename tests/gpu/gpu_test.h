/* Shared harness of the GPU tests (nvcc, run by oshrun like tests/pe): skip where
 * there is no GPU, a watchdog, checks that print the PE and both values, and
 * memory the kernels write results to. Exit codes: 0 pass, 77 skip, 99 fail.
 * tests/gpu-cpu builds some of the same tests with g++ for the CPU engine, where
 * <cuda_runtime_api.h> is its own and a launch starts threads (GPU_LAUNCH). */
#ifndef GPU_TEST_H
#define GPU_TEST_H

#include <cuda_runtime_api.h>
#include <limits.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvshmem.h"
#include "nvshmemx.h"
#include "../test_check.h" /* TEST_CHECK */

#ifndef GPU_TEST_TIMEOUT
#define GPU_TEST_TIMEOUT 120
#endif

static int gpu_test_failures;

#define GPU_CHECK(cond, fmt, ...) TEST_CHECK(gpu_test_failures, cond, #cond, fmt, __VA_ARGS__)

#define GPU_CHECK_EQ(what, expected, found)                                                        \
    GPU_CHECK((long long)(expected) == (long long)(found), "%s: expected %lld, found %lld",        \
              (what), (long long)(expected), (long long)(found))

/* kernel<<<grid, block>>>(...), in a form g++ reads too: for the CPU engine
 * (SHOAL_DEV_ON_CPU) a launch starts grid x block threads of this PE, with the
 * arguments evaluated at the launch, as CUDA does. */
#ifdef SHOAL_DEV_ON_CPU
#define GPU_LAUNCH(kernel, grid, block, ...)                                                       \
    shoal_dev_cpu_launch((grid), (block), std::bind((kernel), __VA_ARGS__))
#else
#define GPU_LAUNCH(kernel, grid, block, ...) (kernel)<<<(grid), (block)>>>(__VA_ARGS__)
#endif

/* A CUDA call that must succeed: a failure ends the test with its reason. */
#define GPU_CUDA(call)                                                                             \
    do {                                                                                           \
        cudaError_t rc_ = (call);                                                                  \
        if (rc_ != cudaSuccess) {                                                                  \
            fprintf(stderr, "FAIL PE %d %s:%d: %s: %s\n", shmem_my_pe(), __FILE__, __LINE__,       \
                    #call, cudaGetErrorString(rc_));                                               \
            exit(99);                                                                              \
        }                                                                                          \
    } while (0)

/* Whether this PE has a GPU to test (every PE of a one-node job answers alike). */
static inline int gpu_test_have_gpu(void)
{
    int n = 0;

    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

/* After shmem_init: arms the watchdog, and ends the test with 77 (every PE) when
 * there is no GPU or the job's PE count is not one the test models: exactly npes
 * (gpu_test_start; 0: any count) or at most max_pes (gpu_test_start_upto). */
static inline void gpu_test_start_within(const char *name, int min_pes, int max_pes)
{
    int n = shmem_n_pes();

    alarm(GPU_TEST_TIMEOUT);
    if (gpu_test_have_gpu() && n >= min_pes && n <= max_pes)
        return;
    if (shmem_my_pe() == 0) {
        if (!gpu_test_have_gpu())
            printf("%s: no GPU: skipped\n", name);
        else if (n > max_pes && min_pes < max_pes)
            printf("%s: more than %d PEs: skipped\n", name, max_pes);
        else
            printf("%s: not the PE count (%d, not %d): skipped\n", name, n, min_pes);
    }
    shmem_finalize();
    exit(77);
}

static inline void gpu_test_start(const char *name, int npes)
{
    gpu_test_start_within(name, npes > 0 ? npes : 1, npes > 0 ? npes : INT_MAX);
}

static inline void gpu_test_start_upto(const char *name, int max_pes)
{
    gpu_test_start_within(name, 1, max_pes);
}

/* Host memory that kernels write results to (mapped, so no copy is needed). */
template <typename T> static inline T *gpu_test_results(size_t n)
{
    void *p = NULL;

    GPU_CUDA(cudaHostAlloc(&p, n * sizeof(T), cudaHostAllocMapped));
    memset(p, 0, n * sizeof(T));
    return (T *)p;
}

/* The monotonic clock in microseconds, for the tests that print figures. */
static inline double gpu_test_now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static inline void gpu_test_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

    nanosleep(&ts, NULL);
}

/* A count a test may be told to shrink (tests/multinode does, where every
 * operation is a round trip over TCP among oversubscribed CPUs): the
 * environment variable name when set to a positive number, else dflt. */
static inline int gpu_test_count(const char *name, int dflt)
{
    const char *v = getenv(name);
    int n = v != NULL ? atoi(v) : 0;

    return n > 0 ? n : dflt;
}

/* Every PE reports; the job fails when any PE failed. */
static inline int gpu_test_finish(const char *name)
{
    int npes = shmem_n_pes(), me = shmem_my_pe(), pe, total = 0;
    int *failures = (int *)shmem_calloc((size_t)npes, sizeof(int));

    shmem_int_p(&failures[me], gpu_test_failures, 0);
    shmem_barrier_all();
    for (pe = 0; me == 0 && pe < npes; pe++)
        total += failures[pe];
    if (me == 0)
        printf(total == 0 ? "%s: %d PEs passed\n" : "%s: failed checks over %d PEs\n", name, npes);
    shmem_free(failures);
    shmem_finalize();
    return gpu_test_failures == 0 ? 0 : 99;
}

#endif
