/* Latency of the path a GPU waits on: PE 0's host sets a signal in PE 1's heap
 * (shmem_uint64_atomic_set), PE 1's kernel (nvshmem_signal_wait_until) sees it
 * and acknowledges in its own heap, PE 0 reads the ack (shmem_uint64_g). Prints
 * the round trip and checks that every iteration was seen in order. Needs 2 PEs
 * and a GPU (77 otherwise), or the CPU engine (tests/gpu-cpu), where the time
 * means nothing. */
#include "gpu_test.h"

#include <stdint.h>

#define ITERS 2000
#define WARMUP 100

typedef struct area {
    uint64_t sig;
    uint64_t ack;
} area_t;

__global__ void k_pong(area_t *a, int iters, unsigned long long *bad)
{
    int me = nvshmem_my_pe();

    for (int i = 1; i <= iters; i++) {
        uint64_t v = nvshmem_signal_wait_until(&a->sig, NVSHMEM_CMP_GE, (uint64_t)i);

        if (v != (uint64_t)i)
            *bad += 1;
        nvshmem_uint64_p(&a->ack, (uint64_t)i, me);
        nvshmem_quiet();
    }
}

int main(void)
{
    unsigned long long *bad = NULL;
    double t0 = 0, best = 1e30;
    area_t *a;
    int me, i;

    shmem_init();
    gpu_test_start("gpu_latency", 2);
    me = shmem_my_pe();
    a = (area_t *)shmem_calloc(1, sizeof(area_t));
    if (me == 1) {
        bad = gpu_test_results<unsigned long long>(1);
        GPU_LAUNCH(k_pong, 1, 1, a, WARMUP + ITERS, bad);
        GPU_CUDA(cudaGetLastError());
    }
    shmem_barrier_all();
    if (me == 0) {
        for (i = 1; i <= WARMUP + ITERS; i++) {
            double t = gpu_test_now_us();

            if (i == WARMUP + 1)
                t0 = t;
            shmem_uint64_atomic_set(&a->sig, (uint64_t)i, 1);
            while (shmem_uint64_g(&a->ack, 1) != (uint64_t)i) {
            }
            if (gpu_test_now_us() - t < best)
                best = gpu_test_now_us() - t;
        }
        printf("gpu_latency: host atomic set -> kernel wakes -> host reads its ack: %.2f us "
               "per round trip on average, %.2f us at best (%d round trips, SHOAL_TRANSPORT=%s)\n",
               (gpu_test_now_us() - t0) / ITERS, best, ITERS,
               getenv("SHOAL_TRANSPORT") ? getenv("SHOAL_TRANSPORT") : "auto");
    }
    if (me == 1) {
        GPU_CUDA(cudaDeviceSynchronize());
        GPU_CHECK_EQ("iterations whose signal the kernel saw out of order", 0, *bad);
    }
    return gpu_test_finish("gpu_latency");
}
