/* Must fail (run with SHOAL_TRANSPORT=ucx, so no peer heap is mapped): PE 1's
 * kernel calls the device barrier, which needs every PE's heap mapped; PE 1
 * reports the device error as one line, naming the routine and PE 0, and the
 * job ends. 77 without a GPU (tests/gpu-cpu runs it on the CPU engine). */
#include "gpu_test.h"

__global__ void k_barrier(int pass)
{
    if (pass)
        nvshmem_barrier_all();
}

int main(void)
{
    shmem_init();
    gpu_test_start("err_gpu_barrier", 0);
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        GPU_LAUNCH(k_barrier, 1, 1, 1);
        (void)cudaDeviceSynchronize(); /* fails: the kernel trapped */
    }
    shmem_barrier_all(); /* the error line comes from here, or from the monitor */
    shmem_finalize();
    return 0; /* reaching here is the failure run-gpu-err.sh reports */
}
