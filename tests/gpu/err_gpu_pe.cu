/* Must fail: the last PE's kernel does an atomic on PE n_pes; it reports the
 * device error as one line (routine, argument, value, valid range) while the
 * other PEs wait in a barrier. 77 without a GPU (tests/gpu-cpu runs it on the
 * CPU engine). */
#include "gpu_test.h"

__global__ void k_amo(long *dest, int pe)
{
    nvshmem_long_atomic_add(dest, 1, pe);
}

int main(void)
{
    long *dest;

    shmem_init();
    gpu_test_start("err_gpu_pe", 0);
    dest = (long *)shmem_malloc(sizeof(long));
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        GPU_LAUNCH(k_amo, 1, 1, dest, shmem_n_pes());
        (void)cudaDeviceSynchronize();
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
