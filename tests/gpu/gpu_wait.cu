/* Kernels really wait: on PE 1 a one-thread kernel waits with
 * nvshmem_signal_wait_until, nvshmem_int_wait_until and its _any, _some, _all and
 * _all_vector forms on flags in PE 1's heap, which PE 0 sets from the host (put
 * with signal, atomics, puts) only after the kernel has started polling; then it
 * records what it saw. Needs 2 PEs and a GPU (77 otherwise), or the CPU engine
 * (tests/gpu-cpu). */
#include "gpu_test.h"

#include <stdint.h>

#define NDATA 64
#define NFLAGS 4

typedef struct area {
    uint64_t sig;
    uint64_t started; /* the phase whose kernel is polling, set by that kernel */
    uint64_t done;
    int data[NDATA];
    int flags[NFLAGS];
} area_t;

/* What each kernel saw, in mapped host memory. */
typedef struct seen {
    long long value[8];
    size_t index[NFLAGS];
    int data[NDATA];
} seen_t;

static __device__ void announce(area_t *a, uint64_t phase)
{
    nvshmem_uint64_p(&a->started, phase, nvshmem_my_pe());
    nvshmem_quiet();
}

__global__ void k_signal(area_t *a, seen_t *out)
{
    int i;

    announce(a, 1);
    out->value[0] = (long long)nvshmem_signal_wait_until(&a->sig, NVSHMEM_CMP_GE, 7);
    for (i = 0; i < NDATA; i++) /* put_signal: the data lands before the signal */
        out->data[i] = nvshmem_int_g(&a->data[i], nvshmem_my_pe());
    out->value[1] = (long long)nvshmem_signal_fetch(&a->sig);
}

__global__ void k_until(area_t *a, seen_t *out)
{
    announce(a, 2);
    nvshmem_int_wait_until(&a->flags[1], NVSHMEM_CMP_EQ, 42);
    out->value[0] = nvshmem_int_atomic_fetch(&a->flags[1], nvshmem_my_pe());
}

__global__ void k_any(area_t *a, seen_t *out)
{
    const int status[NFLAGS] = {0, 1, 0, 0}; /* flags[1] is left out */

    announce(a, 3);
    out->index[0] = nvshmem_int_wait_until_any(a->flags, NFLAGS, status, NVSHMEM_CMP_NE, 0);
    out->value[0] = a->flags[out->index[0]];
}

__global__ void k_some(area_t *a, seen_t *out)
{
    size_t n;

    announce(a, 4);
    n = nvshmem_int_wait_until_some(a->flags, NFLAGS, out->index, NULL, NVSHMEM_CMP_GT, 0);
    out->value[0] = (long long)n;
    /* Once PE 0 says both are out, a test reports exactly both. */
    nvshmem_uint64_wait_until(&a->done, NVSHMEM_CMP_EQ, 4);
    n = nvshmem_int_test_some(a->flags, NFLAGS, out->index + 2, NULL, NVSHMEM_CMP_GT, 0);
    out->value[1] = (long long)n;
}

__global__ void k_all(area_t *a, seen_t *out)
{
    const int want[NFLAGS] = {10, 11, 12, 13};
    int i;

    announce(a, 5);
    nvshmem_int_wait_until_all(a->flags, NFLAGS, NULL, NVSHMEM_CMP_GE, 7);
    for (i = 0; i < NFLAGS; i++)
        out->value[i] = nvshmem_int_g(&a->flags[i], nvshmem_my_pe());
    announce(a, 6);
    nvshmem_int_wait_until_all_vector(a->flags, NFLAGS, NULL, NVSHMEM_CMP_EQ, want);
    out->value[4] = nvshmem_int_test_all_vector(a->flags, NFLAGS, NULL, NVSHMEM_CMP_EQ, want);
}

/* PE 1: resets the flags, launches the kernel, and returns once it polls. */
static void launch(area_t *a, uint64_t phase, void (*kernel)(area_t *, seen_t *), seen_t *out)
{
    memset(a->flags, 0, sizeof(a->flags));
    a->done = 0;
    memset(out, 0, sizeof(*out));
    GPU_LAUNCH(kernel, 1, 1, a, out);
    GPU_CUDA(cudaGetLastError());
    shmem_uint64_wait_until(&a->started, SHMEM_CMP_EQ, phase);
}

/* PE 0, once PE 1's kernel polls: what satisfies it, slowly enough that a
 * kernel that does not wait would return early and see too little. */
static void set_flags(area_t *a, uint64_t phase, int peer)
{
    int src[NDATA], i;

    gpu_test_sleep_ms(20);
    switch (phase) {
    case 1:
        for (i = 0; i < NDATA; i++)
            src[i] = 1000 + i;
        shmem_uint64_atomic_set(&a->sig, 3, peer); /* below the threshold */
        gpu_test_sleep_ms(10);
        shmem_int_put_signal(a->data, src, NDATA, &a->sig, 7, SHMEM_SIGNAL_SET, peer);
        break;
    case 2:
        shmem_int_atomic_set(&a->flags[1], 41, peer);
        gpu_test_sleep_ms(10);
        shmem_int_atomic_add(&a->flags[1], 1, peer);
        break;
    case 3:
        shmem_int_atomic_set(&a->flags[1], 5, peer); /* masked out */
        gpu_test_sleep_ms(10);
        shmem_int_atomic_set(&a->flags[3], 6, peer);
        break;
    case 4:
        shmem_int_atomic_set(&a->flags[2], 8, peer);
        shmem_int_atomic_set(&a->flags[0], 9, peer);
        shmem_quiet();
        shmem_uint64_atomic_set(&a->done, 4, peer);
        break;
    case 5:
        for (i = 0; i < NFLAGS; i++) {
            shmem_int_atomic_set(&a->flags[i], 7 + i, peer);
            gpu_test_sleep_ms(5);
        }
        break;
    case 6:
        for (i = NFLAGS - 1; i >= 0; i--) {
            shmem_int_atomic_set(&a->flags[i], 10 + i, peer);
            gpu_test_sleep_ms(5);
        }
        break;
    }
}

int main(void)
{
    area_t *a;
    seen_t *out = NULL;
    int me, i;

    shmem_init();
    gpu_test_start("gpu_wait", 2);
    me = shmem_my_pe();
    a = (area_t *)shmem_calloc(1, sizeof(area_t));
    if (me == 1)
        out = gpu_test_results<seen_t>(1);

    static void (*const kernels[])(area_t *, seen_t *) = {k_signal, k_until, k_any, k_some,
                                                           k_all};
    for (uint64_t phase = 1; phase <= 5; phase++) {
        if (me == 1)
            launch(a, phase, kernels[phase - 1], out);
        shmem_barrier_all();
        if (me == 0)
            set_flags(a, phase, 1);
        if (phase == 5) { /* k_all waits a second time: phase 6 */
            if (me == 1)
                shmem_uint64_wait_until(&a->started, SHMEM_CMP_EQ, 6);
            shmem_barrier_all();
            if (me == 0)
                set_flags(a, 6, 1);
        }
        if (me == 1) {
            GPU_CUDA(cudaDeviceSynchronize());
            switch (phase) {
            case 1:
                GPU_CHECK_EQ("signal_wait_until's return", 7, out->value[0]);
                GPU_CHECK_EQ("signal_fetch", 7, out->value[1]);
                for (i = 0; i < NDATA; i++)
                    GPU_CHECK_EQ("data put with the signal", 1000 + i, out->data[i]);
                break;
            case 2:
                GPU_CHECK_EQ("flags[1] after wait_until EQ 42", 42, out->value[0]);
                break;
            case 3:
                GPU_CHECK_EQ("wait_until_any's index (flags[1] masked)", 3, out->index[0]);
                GPU_CHECK_EQ("flags[3]", 6, out->value[0]);
                break;
            case 4:
                GPU_CHECK(out->value[0] >= 1 && out->value[0] <= 2, "wait_until_some found %lld",
                          out->value[0]);
                for (i = 0; i < out->value[0]; i++)
                    GPU_CHECK(out->index[i] == 0 || out->index[i] == 2, "index %zu",
                              out->index[i]);
                GPU_CHECK_EQ("test_some after both", 2, out->value[1]);
                GPU_CHECK(out->index[2] == 0 && out->index[3] == 2, "test_some: %zu %zu",
                          out->index[2], out->index[3]);
                break;
            case 5:
                for (i = 0; i < NFLAGS; i++)
                    GPU_CHECK_EQ("flags after wait_until_all GE 7", 7 + i, out->value[i]);
                GPU_CHECK_EQ("test_all_vector after wait_until_all_vector", 1, out->value[4]);
                break;
            }
        }
        shmem_barrier_all();
    }
    return gpu_test_finish("gpu_wait");
}
