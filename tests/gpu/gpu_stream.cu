/* The _on_stream waits order a stream: on PE 1, nvshmemx_int_wait_until_on_stream
 * and then nvshmemx_signal_wait_until_on_stream are enqueued ahead of a kernel
 * that reads data PE 0 puts; the kernel must not run before PE 0 sets the flag
 * (the stream stays busy meanwhile), and must then see the data. Needs 2 PEs and
 * a GPU (77 otherwise). */
#include "gpu_test.h"

#include <stdint.h>

#define NDATA 32

typedef struct area {
    uint64_t sig;
    int flag;
    int data[NDATA];
} area_t;

__global__ void k_read(area_t *a, int *out, int *ran)
{
    int i;

    for (i = 0; i < NDATA; i++)
        out[i] = nvshmem_int_g(&a->data[i], nvshmem_my_pe());
    *ran = 1;
}

static void check_read(const int *out, int base)
{
    int i;

    for (i = 0; i < NDATA; i++)
        GPU_CHECK_EQ("data the kernel read after the stream wait", base + i, out[i]);
}

int main(void)
{
    cudaStream_t s;
    area_t *a;
    int *out = NULL, *ran = NULL, src[NDATA], me, round, i;

    shmem_init();
    gpu_test_start("gpu_stream", 2);
    me = shmem_my_pe();
    a = (area_t *)shmem_calloc(1, sizeof(area_t));
    if (me == 1) {
        GPU_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        out = gpu_test_results<int>(NDATA);
        ran = gpu_test_results<int>(1);
    }
    /* round 0: the typed int wait; round 1: the signal wait */
    for (round = 0; round < 2; round++) {
        if (me == 1) {
            *ran = 0;
            if (round == 0)
                nvshmemx_int_wait_until_on_stream(&a->flag, NVSHMEM_CMP_EQ, 1, s);
            else
                nvshmemx_signal_wait_until_on_stream(&a->sig, NVSHMEM_CMP_GE, 5, s);
            k_read<<<1, 1, 0, s>>>(a, out, ran);
            GPU_CUDA(cudaGetLastError());
            gpu_test_sleep_ms(50);
            GPU_CHECK(cudaStreamQuery(s) == cudaErrorNotReady,
                      "round %d: the stream finished before the flag was set", round);
            GPU_CHECK_EQ("the kernel ran before the flag was set", 0, *ran);
        }
        shmem_barrier_all();
        if (me == 0) {
            for (i = 0; i < NDATA; i++)
                src[i] = 100 * (round + 1) + i;
            if (round == 0) {
                shmem_int_put(a->data, src, NDATA, 1);
                shmem_fence();
                shmem_int_atomic_set(&a->flag, 1, 1);
            } else {
                shmem_uint64_atomic_set(&a->sig, 2, 1); /* not yet */
                gpu_test_sleep_ms(20);
                shmem_int_put_signal(a->data, src, NDATA, &a->sig, 5, SHMEM_SIGNAL_SET, 1);
            }
        }
        if (me == 1) {
            GPU_CUDA(cudaStreamSynchronize(s));
            GPU_CHECK_EQ("the kernel ran", 1, *ran);
            check_read(out, 100 * (round + 1));
        }
        shmem_barrier_all();
    }
    if (me == 1)
        GPU_CUDA(cudaStreamDestroy(s));
    return gpu_test_finish("gpu_stream");
}
