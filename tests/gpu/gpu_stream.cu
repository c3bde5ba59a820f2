/* The _on_stream routines act in stream order.
 * Waits: on PE 1, nvshmemx_int_wait_until_on_stream and then
 * nvshmemx_signal_wait_until_on_stream are enqueued ahead of a kernel that reads
 * data PE 0 puts; the kernel must not run before PE 0 sets the flag (the stream
 * stays busy meanwhile), and must then see the data.
 * Put, quiet, barrier, signal: every PE puts to its right-hand neighbour on its
 * stream between kernels that fill the source, and checks that the put took what
 * the kernel before it wrote and not what the kernel after it wrote; that a
 * kernel after nvshmemx_barrier_all_on_stream sees the neighbour's put; that a
 * flag set after nvshmemx_quiet_on_stream finds the data there; and that a kernel
 * queued behind a stream wait for nvshmemx_putmem_signal_on_stream's signal (SET),
 * or the host waiting for it (ADD), sees the data.
 * Needs 2 PEs or more and a GPU (77 otherwise), or the CPU engine (tests/gpu-cpu,
 * where streams are worker threads). */
#include "gpu_test.h"
#include "shoal_gpu_launch.h" /* SHOAL_GPU_LAUNCH_ON: a launch on a stream, g++ too */

#include <stdint.h>

#define NDATA 32
#define NBIG (3 * 4096 + 13) /* several blocks' slices, the last one short */

typedef struct area {
    uint64_t sig;
    int flag;
    int data[NDATA];
    int ring[NDATA];       /* putmem_on_stream from the left, then a barrier */
    int quiet_data[NDATA]; /* putmem_on_stream from the left, then a quiet and a flag */
    int quiet_flag;
    uint64_t put_sig; /* putmem_signal_on_stream's signal, from the left */
    int sig_data[NDATA];
    char big[NBIG + 1]; /* a put at an odd address, from the left */
} area_t;

__global__ void k_read(const int *from, int *out, int *ran)
{
    int i;

    for (i = 0; i < NDATA; i++)
        out[i] = nvshmem_int_g(&from[i], nvshmem_my_pe());
    *ran = 1;
}

__global__ void k_fill(int *buf, int base)
{
    int i;

    for (i = 0; i < NDATA; i++)
        buf[i] = base + i;
}

__global__ void k_fill_bytes(char *buf, size_t n, int seed)
{
    size_t i;

    for (i = 0; i < n; i++)
        buf[i] = (char)(seed + i * 7);
}

__global__ void k_set_flag(int *flag, int pe)
{
    nvshmem_int_atomic_set(flag, 1, pe);
}

/* Reports the first element that differs: one line per failed check. */
static void check_ints(const char *what, const int *found, int base)
{
    int i;

    for (i = 0; i < NDATA && found[i] == base + i; i++)
        ;
    GPU_CHECK(i == NDATA, "%s[%d]: expected %d, found %d", what, i, base + i,
              i < NDATA ? found[i] : 0);
}

/* PE 1's stream waits, as PE 0 sets the flag and puts with signal from the host. */
static void waits(area_t *a, int me, cudaStream_t s, int *out, int *ran)
{
    int src[NDATA], round, i;

    /* round 0: the typed int wait; round 1: the signal wait */
    for (round = 0; round < 2; round++) {
        if (me == 1) {
            *ran = 0;
            if (round == 0)
                nvshmemx_int_wait_until_on_stream(&a->flag, NVSHMEM_CMP_EQ, 1, s);
            else
                nvshmemx_signal_wait_until_on_stream(&a->sig, NVSHMEM_CMP_GE, 5, s);
            SHOAL_GPU_LAUNCH_ON(s, 1, 1, k_read, a->data, out, ran);
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
            check_ints("data the kernel read after the stream wait", out, 100 * (round + 1));
        }
        shmem_barrier_all();
    }
}

/* putmem_on_stream between two fills of its source, then barrier_all_on_stream
 * and a kernel that reads what the left neighbour put. */
static void put_barrier(area_t *a, int me, cudaStream_t s, int *src, int *out, int *ran)
{
    int npes = shmem_n_pes(), right = (me + 1) % npes, left = (me + npes - 1) % npes;
    char *bsrc = gpu_test_results<char>(NBIG + 1), expect;
    size_t i;

    *ran = 0;
    SHOAL_GPU_LAUNCH_ON(s, 1, 1, k_fill, src, 1000 * me);
    SHOAL_GPU_LAUNCH_ON(s, 1, 1, k_fill_bytes, bsrc, (size_t)NBIG + 1, me);
    nvshmemx_putmem_on_stream(a->ring, src, sizeof(a->ring), right, s);
    nvshmemx_putmem_on_stream(&a->big[1], &bsrc[1], NBIG, right, s);
    /* The puts are done: their sources are free again. */
    SHOAL_GPU_LAUNCH_ON(s, 1, 1, k_fill, src, -1000);
    SHOAL_GPU_LAUNCH_ON(s, 1, 1, k_fill_bytes, bsrc, (size_t)NBIG + 1, 99);
    nvshmemx_barrier_all_on_stream(s);
    SHOAL_GPU_LAUNCH_ON(s, 1, 1, k_read, a->ring, out, ran);
    GPU_CUDA(cudaGetLastError());
    GPU_CUDA(cudaStreamSynchronize(s));
    GPU_CHECK_EQ("the kernel after the stream barrier ran", 1, *ran);
    check_ints("what the kernel after the stream barrier read of the left's put", out, 1000 * left);
    check_ints("the source, refilled after the put", src, -1000);
    GPU_CHECK_EQ("the byte before the odd put", 0, a->big[0]);
    for (i = 1; i <= NBIG && a->big[i] == (char)(left + i * 7); i++)
        ;
    expect = (char)(left + i * 7);
    GPU_CHECK(i > NBIG, "the left's put at an odd address, byte %zu: expected %d, found %d", i,
              expect, i <= NBIG ? a->big[i] : 0);
    shmem_barrier_all();
    GPU_CUDA(cudaFreeHost(bsrc));
}

/* putmem_on_stream, quiet_on_stream, then a kernel sets the right's flag: the
 * right's host finds the data once it sees the flag. */
static void put_quiet(area_t *a, int me, cudaStream_t s, int *src)
{
    int npes = shmem_n_pes(), right = (me + 1) % npes, left = (me + npes - 1) % npes;

    SHOAL_GPU_LAUNCH_ON(s, 1, 1, k_fill, src, 2000 * me);
    nvshmemx_putmem_on_stream(a->quiet_data, src, sizeof(a->quiet_data), right, s);
    nvshmemx_quiet_on_stream(s);
    SHOAL_GPU_LAUNCH_ON(s, 1, 1, k_set_flag, &a->quiet_flag, right);
    GPU_CUDA(cudaGetLastError());
    shmem_int_wait_until(&a->quiet_flag, SHMEM_CMP_EQ, 1);
    check_ints("the left's put, seen after its flag", a->quiet_data, 2000 * left);
    GPU_CUDA(cudaStreamSynchronize(s));
    shmem_barrier_all();
}

/* putmem_signal_on_stream: with SET, a kernel on s2 waits for the signal (it must
 * not run before); with ADD, the host waits. */
static void put_signal(area_t *a, int me, cudaStream_t s, cudaStream_t s2, int *src, int *out,
                       int *ran)
{
    int npes = shmem_n_pes(), right = (me + 1) % npes, left = (me + npes - 1) % npes;

    *ran = 0;
    nvshmemx_signal_wait_until_on_stream(&a->put_sig, NVSHMEM_CMP_EQ, 5, s2);
    SHOAL_GPU_LAUNCH_ON(s2, 1, 1, k_read, a->sig_data, out, ran);
    GPU_CUDA(cudaGetLastError());
    gpu_test_sleep_ms(20);
    GPU_CHECK(cudaStreamQuery(s2) == cudaErrorNotReady, "%s",
              "the stream waiting for the signal finished before it was sent");
    GPU_CHECK_EQ("the kernel behind the signal wait ran before the signal", 0, *ran);
    shmem_barrier_all(); /* every wait is queued before anyone sends */
    SHOAL_GPU_LAUNCH_ON(s, 1, 1, k_fill, src, 3000 * me);
    nvshmemx_putmem_signal_on_stream(a->sig_data, src, sizeof(a->sig_data), &a->put_sig, 5,
                                     NVSHMEM_SIGNAL_SET, right, s);
    GPU_CUDA(cudaStreamSynchronize(s2));
    GPU_CHECK_EQ("the kernel behind the signal wait ran", 1, *ran);
    check_ints("what the kernel behind the signal wait read", out, 3000 * left);
    GPU_CUDA(cudaStreamSynchronize(s));
    shmem_barrier_all(); /* every reader is done before the next put */

    SHOAL_GPU_LAUNCH_ON(s, 1, 1, k_fill, src, 4000 * me);
    nvshmemx_putmem_signal_on_stream(a->sig_data, src, sizeof(a->sig_data), &a->put_sig, 3,
                                     NVSHMEM_SIGNAL_ADD, right, s);
    GPU_CHECK_EQ("the signal after the add", 8,
                 shmem_signal_wait_until(&a->put_sig, SHMEM_CMP_EQ, 8));
    check_ints("the left's put, seen after its signal", a->sig_data, 4000 * left);
    GPU_CUDA(cudaStreamSynchronize(s));
    shmem_barrier_all();
}

int main(void)
{
    cudaStream_t s, s2;
    area_t *a;
    int *out, *ran, *src, me;

    shmem_init();
    gpu_test_start("gpu_stream", 0);
    if (shmem_n_pes() < 2) {
        printf("gpu_stream: needs 2 PEs or more: skipped\n");
        shmem_finalize();
        return 77;
    }
    me = shmem_my_pe();
    a = (area_t *)shmem_calloc(1, sizeof(area_t));
    GPU_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    GPU_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    out = gpu_test_results<int>(NDATA);
    ran = gpu_test_results<int>(1);
    src = gpu_test_results<int>(NDATA);

    waits(a, me, s, out, ran);
    put_barrier(a, me, s, src, out, ran);
    put_quiet(a, me, s, src);
    put_signal(a, me, s, s2, src, out, ran);

    GPU_CUDA(cudaStreamDestroy(s));
    GPU_CUDA(cudaStreamDestroy(s2));
    GPU_CUDA(cudaDeviceSynchronize());
    GPU_CUDA(cudaFreeHost(out));
    GPU_CUDA(cudaFreeHost(ran));
    GPU_CUDA(cudaFreeHost(src));
    return gpu_test_finish("gpu_stream");
}
