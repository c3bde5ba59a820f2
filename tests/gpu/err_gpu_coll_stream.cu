/* Must fail: the last PE enqueues a broadcast on a stream from root n_pes, one
 * past the world team's last member; the host refuses it before the stream with
 * one line naming the routine, the argument, its value and the valid range. 77
 * without a GPU (tests/gpu-cpu runs it on the CPU engine). */
#include "gpu_test.h"

int main(void)
{
    cudaStream_t stream;
    int *buf;

    shmem_init();
    gpu_test_start("err_gpu_coll_stream", 0);
    buf = (int *)shmem_calloc(2, sizeof(int));
    GPU_CUDA(cudaStreamCreate(&stream));
    if (shmem_my_pe() == shmem_n_pes() - 1)
        nvshmemx_int_broadcast_on_stream(NVSHMEM_TEAM_WORLD, buf, buf + 1, 1, shmem_n_pes(),
                                         stream);
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-gpu-err.sh reports */
}
