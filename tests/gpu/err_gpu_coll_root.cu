/* Must fail: the last PE's kernel broadcasts from root n_pes, one past the world
 * team's last member; that PE reports the device error as one line naming the
 * routine, the argument, its value and the valid range, and the job ends. 77
 * without a GPU (tests/gpu-cpu runs it on the CPU engine). */
#include "gpu_test.h"

__global__ void k_broadcast(int *dest, const int *source, int root)
{
    nvshmem_int_broadcast(NVSHMEM_TEAM_WORLD, dest, source, 1, root);
}

int main(void)
{
    int *buf;

    shmem_init();
    gpu_test_start("err_gpu_coll_root", 0);
    buf = (int *)shmem_calloc(2, sizeof(int));
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        GPU_LAUNCH(k_broadcast, 1, 1, buf, buf + 1, shmem_n_pes());
        (void)cudaDeviceSynchronize(); /* fails: the kernel trapped */
    }
    shmem_barrier_all(); /* the error line comes from here, or from the monitor */
    shmem_finalize();
    return 0; /* reaching here is the failure run-gpu-err.sh reports */
}
