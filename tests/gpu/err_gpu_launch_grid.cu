/* Must fail: the last PE asks nvshmemx_collective_launch for one block more than
 * nvshmemx_collective_launch_query_gridsize says fit on its GPU at once; the host
 * refuses it with one line naming the routine, the argument, its value and the
 * most. 77 without a GPU (tests/gpu-cpu runs it on the CPU engine). */
#include "gpu_test.h"

__global__ void k_nothing(int *x)
{
    (void)x;
}

int main(void)
{
    int most = 0, *x = NULL;
    void *args[1] = {&x};

    shmem_init();
    gpu_test_start("err_gpu_launch_grid", 0);
    nvshmemx_collective_launch_query_gridsize((const void *)k_nothing, dim3(64), args, 0, &most);
    if (shmem_my_pe() == shmem_n_pes() - 1)
        nvshmemx_collective_launch(k_nothing, dim3(most + 1), dim3(64), args, 0, NULL);
    GPU_CUDA(cudaDeviceSynchronize());
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-gpu-err.sh reports */
}
