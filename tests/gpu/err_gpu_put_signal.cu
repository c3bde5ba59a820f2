/* Must fail (run with SHOAL_TRANSPORT=ucx, so no peer heap is mapped): PE 1's
 * kernel puts with a signal to PE 0, which this GPU cannot reach; PE 1 reports
 * the device error as one line, naming the routine, and the job ends. 77 without
 * a GPU (tests/gpu-cpu runs it on the CPU engine). */
#include "gpu_test.h"

__global__ void k_put_signal(int *dest, const int *src, uint64_t *sig)
{
    nvshmem_putmem_signal(dest, src, sizeof(*src), sig, 1, NVSHMEM_SIGNAL_SET, 0);
}

int main(void)
{
    int *dest, *src;
    uint64_t *sig;

    shmem_init();
    gpu_test_start("err_gpu_put_signal", 0);
    dest = (int *)shmem_malloc(sizeof(int));
    src = (int *)shmem_calloc(1, sizeof(int));
    sig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        GPU_LAUNCH(k_put_signal, 1, 1, dest, src, sig);
        (void)cudaDeviceSynchronize(); /* fails: the kernel trapped */
    }
    shmem_barrier_all(); /* the error line comes from here, or from the monitor */
    shmem_finalize();
    return 0; /* reaching here is the failure run-gpu-err.sh reports */
}
