/* The device barrier (nvshmem_barrier_all, nvshmem_sync_all in a kernel): one
 * thread per PE runs ITERS rounds; in round i it puts a round's value into box[i % 2]
 * on its right-hand neighbour, passes a barrier (barrier_all in even rounds, quiet
 * and sync_all in odd ones) and checks that its own box[i % 2] holds the value its
 * left-hand neighbour put. A PE let through early reads a stale value; the PE
 * whose turn it is sleeps before its put to make that likely. Two launches, with a
 * host shmem_barrier_all between: the counters carry over. With every PE mapped
 * (SHOAL_TRANSPORT=auto) the arrivals are the GPU's atomics; with none
 * (SHOAL_TRANSPORT=ucx) they and the puts go through the host proxy
 * (gpu_barrier.sh runs both); err_gpu_barrier checks the error without a proxy.
 * Exit 0 pass, 77 without a GPU, 99 fail. */
#include "gpu_test.h"

#define ITERS 100 /* rounds per launch (GPU_BARRIER_ITERS: tests/multinode shrinks it) */

__global__ void k_barrier(int *box, int me, int n_pes, int base, int iters, int *bad)
{
    int i, v, right = (me + 1) % n_pes;

    for (i = 1; i <= iters; i++) {
        if (i % n_pes == me)
            __nanosleep(20000);
        nvshmem_int_p(&box[i % 2], base + i, right);
        if (i % 2 == 0) {
            nvshmem_barrier_all();
        } else {
            nvshmem_quiet();
            nvshmem_sync_all();
        }
        v = nvshmem_int_g(&box[i % 2], me);
        if (v != base + i && bad[0]++ == 0) {
            bad[1] = i;
            bad[2] = v;
        }
    }
}

int main(void)
{
    int me, n_pes, k, *box, *bad, iters;

    shmem_init();
    gpu_test_start("gpu_barrier", 0);
    me = shmem_my_pe();
    iters = gpu_test_count("GPU_BARRIER_ITERS", ITERS);
    n_pes = shmem_n_pes();
    box = (int *)shmem_calloc(2, sizeof(int));
    bad = gpu_test_results<int>(3);
    for (k = 0; k < 2; k++) {
        GPU_LAUNCH(k_barrier, 1, 1, box, me, n_pes, k * iters, iters, bad);
        GPU_CUDA(cudaGetLastError());
        GPU_CUDA(cudaDeviceSynchronize());
        shmem_barrier_all();
    }
    GPU_CHECK(bad[0] == 0, "%d stale reads after a device barrier, the first in round %d (found "
              "%d)", bad[0], bad[1], bad[2]);
    if (me == 0)
        printf("gpu_barrier: %d device barriers at %d PEs\n", 2 * iters, n_pes);
    return gpu_test_finish("gpu_barrier");
}
