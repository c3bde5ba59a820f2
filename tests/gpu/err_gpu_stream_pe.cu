/* Must fail: the last PE enqueues a put to PE n_pes on a stream; the host check
 * ends the job with one line (routine, argument, value, valid range) before
 * anything reaches the stream, while the other PEs wait in a barrier. 77 without
 * a GPU (tests/gpu-cpu runs it on the CPU engine). */
#include "gpu_test.h"

int main(void)
{
    cudaStream_t s;
    char *dest, *src;

    shmem_init();
    gpu_test_start("err_gpu_stream_pe", 0);
    dest = (char *)shmem_malloc(8);
    src = gpu_test_results<char>(8);
    GPU_CUDA(cudaStreamCreate(&s));
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        nvshmemx_putmem_on_stream(dest, src, 8, shmem_n_pes(), s);
        (void)cudaStreamSynchronize(s);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
