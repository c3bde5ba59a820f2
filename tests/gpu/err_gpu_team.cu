/* Must fail: the last PE's kernel calls nvshmem_barrier on team 9, which no split
 * made; that PE reports the device error as one line naming the routine, the
 * argument and its value, and the job ends. 77 without a GPU (tests/gpu-cpu runs
 * it on the CPU engine). */
#include "gpu_test.h"

__global__ void k_barrier(nvshmem_team_t team)
{
    nvshmem_barrier(team);
}

int main(void)
{
    shmem_init();
    gpu_test_start("err_gpu_team", 0);
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        GPU_LAUNCH(k_barrier, 1, 1, 9);
        (void)cudaDeviceSynchronize(); /* fails: the kernel trapped */
    }
    shmem_barrier_all(); /* the error line comes from here, or from the monitor */
    shmem_finalize();
    return 0; /* reaching here is the failure run-gpu-err.sh reports */
}
