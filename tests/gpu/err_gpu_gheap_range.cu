/* Must fail (run with SHOAL_GPU_SYMMETRIC_SIZE=1M): the last PE's host
 * shmem_putmem of 64 bytes starts 32 bytes before the end of PE 0's GPU heap;
 * it reports the one line and the job ends. 77 without a GPU (tests/gpu-cpu
 * runs it on the CPU engine). */
#include "gpu_test.h"

int main(void)
{
    char src[64] = {0}, *block;

    shmem_init();
    gpu_test_start("err_gpu_gheap_range", 0);
    block = (char *)nvshmem_malloc(64); /* the first block: offset 0 of the GPU heap */
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_putmem(block + (1 << 20) - 32, src, sizeof(src), 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
