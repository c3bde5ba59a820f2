/* Must fail (run with SHOAL_TRANSPORT=ucx, so no peer's GPU heap is mapped, and
 * SHOAL_GPU_PROXY=none, so no host proxy serves requests on it): the last PE's
 * host shmem_long_p into PE 0's GPU heap reports the one line and the job ends.
 * 77 without a GPU (tests/gpu-cpu runs it on the CPU engine). */
#include "gpu_test.h"

int main(void)
{
    long *dest;

    shmem_init();
    gpu_test_start("err_gpu_gheap_noproxy", 0);
    dest = (long *)nvshmem_malloc(sizeof(long));
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_long_p(dest, 1, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
