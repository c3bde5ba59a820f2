/* Must fail where there is no GPU: a stream wait needs one, and says so in one
 * line naming the routine and why there is none. 77 where there is a GPU. */
#include "gpu_test.h"

int main(void)
{
    int *flag;

    nvshmem_init();
    alarm(GPU_TEST_TIMEOUT);
    if (gpu_test_have_gpu()) {
        nvshmem_finalize();
        return 77;
    }
    flag = (int *)nvshmem_malloc(sizeof(int));
    if (nvshmem_my_pe() == nvshmem_n_pes() - 1)
        nvshmemx_int_wait_until_on_stream(flag, NVSHMEM_CMP_EQ, 1, 0);
    nvshmem_barrier_all();
    nvshmem_finalize();
    return 0;
}
