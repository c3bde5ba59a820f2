/* Must fail: the last PE passes nvshmem_free a pointer inside a block of the GPU
 * heap, not its start; that PE reports it as one line and the job ends. 77
 * without a GPU (tests/gpu-cpu runs it on the CPU engine). */
#include "gpu_test.h"

int main(void)
{
    long *buf;

    shmem_init();
    gpu_test_start("err_gpu_gheap_free", 0);
    buf = (long *)nvshmem_malloc(8 * sizeof(long));
    nvshmem_free(shmem_my_pe() == shmem_n_pes() - 1 ? buf + 1 : buf);
    shmem_finalize();
    return 0; /* reaching here is the failure run-gpu-err.sh reports */
}
