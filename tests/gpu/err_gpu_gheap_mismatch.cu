/* Must fail with SHOAL_CHECK_COLL=1 (run-gpu-err.sh sets it): nvshmem_malloc is
 * collective, and the last PE asks for another size than the others. 77 without
 * a GPU (tests/gpu-cpu runs it on the CPU engine). */
#include "gpu_test.h"

int main(void)
{
    void *p;

    shmem_init();
    gpu_test_start("err_gpu_gheap_mismatch", 0);
    p = nvshmem_malloc(shmem_my_pe() == shmem_n_pes() - 1 ? 72 : 64);
    nvshmem_free(p);
    shmem_finalize();
    return 0;
}
