/* Must fail (run with SHOAL_TRANSPORT=ucx, so no peer's GPU heap is mapped, and
 * SHOAL_GPU_PROXY=none, so no host proxy carries what load/store cannot): PE 1's
 * kernel puts into PE 0's GPU heap; PE 1 reports the device error as one line
 * and the job ends. 77 without a GPU
 * (tests/gpu-cpu runs it on the CPU engine). */
#include "gpu_test.h"

__global__ void k_put(long *dest)
{
    nvshmem_long_p(dest, 1, 0);
}

int main(void)
{
    long *dest;

    shmem_init();
    gpu_test_start("err_gpu_gheap_unreachable", 0);
    dest = (long *)nvshmem_malloc(sizeof(long));
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        GPU_LAUNCH(k_put, 1, 1, dest);
        (void)cudaDeviceSynchronize(); /* fails: the kernel trapped */
    }
    shmem_barrier_all(); /* the error line comes from here, or from the monitor */
    shmem_finalize();
    return 0;
}
