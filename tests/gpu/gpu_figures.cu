/* Figures of the device routines on the GPU symmetric heap (nvshmem_malloc),
 * for the closing notes of a session that has a GPU, and checks of what they
 * did (so that a figure of a broken routine is a failure, not a number):
 *   PE 0's kernel alone, on PE 1's GPU heap (mapped by CUDA IPC):
 *     a chain of 8-byte gets (each address depends on the value before),
 *     8-byte puts each followed by nvshmem_quiet, fetch_adds (the total is
 *     checked on PE 1), and nvshmemx_putmem_block of 1 MiB (one block of 256
 *     threads; the last copy is checked on PE 1) in GB/s;
 *   every PE: nvshmem_barrier_all in a kernel (all PEs' kernels at once).
 * Times are host clock around the launch and cudaDeviceSynchronize, divided by
 * the count (FIGURES_ITERS, FIGURES_BW_ITERS, FIGURES_BARRIERS shrink them).
 * Where PEs share a GPU without MPS, their kernels take turns on it, and the
 * barrier's figure shows it. Needs 2 or more PEs with every GPU heap mapped (one
 * node, SHOAL_TRANSPORT=auto) and a GPU (77 otherwise), or the CPU engine
 * (tests/gpu-cpu), where the times mean nothing. Exit 0 pass, 99 fail. */
#include "gpu_test.h"

#include <stdint.h>

#define BW_BYTES (1 << 20)
#define BW_THREADS 256

__global__ void k_get_chain(long *buf, int pe, int iters, long *out)
{
    long x = 0;

    for (int i = 0; i < iters; i++)
        x = nvshmem_long_g(&buf[x & 7], pe); /* buf holds zeros: always buf[0] */
    *out = x;
}

__global__ void k_put_quiet(long *buf, int pe, int iters)
{
    for (int i = 1; i <= iters; i++) {
        nvshmem_long_p(&buf[8], i, pe);
        nvshmem_quiet();
    }
}

__global__ void k_fetch_add(long *count, int pe, int iters, long *out)
{
    long last = -1;

    for (int i = 0; i < iters; i++)
        last = nvshmem_long_atomic_fetch_add(count, 1, pe);
    *out = last;
}

__global__ void k_put_block(char *dst, const char *src, int pe, int iters)
{
    for (int i = 0; i < iters; i++)
        nvshmemx_putmem_block(dst, src, BW_BYTES, pe);
    nvshmem_quiet();
}

__global__ void k_barriers(int iters)
{
    for (int i = 0; i < iters; i++)
        nvshmem_barrier_all();
}

__global__ void k_read(const long *p, int n, long *out)
{
    for (int i = 0; i < n; i++)
        out[i] = p[i];
}

__global__ void k_fill(char *p, size_t n, int seed)
{
    for (size_t i = threadIdx.x; i < n; i += blockDim.x)
        p[i] = (char)(i * 7 + seed);
}

enum { R_GET, R_FADD, R_PEEK, R_N = R_PEEK + 16 };

int main(void)
{
    int iters, bw_iters, barriers, me, n_pes;
    long *buf, *count, *res;
    char *dst, *src;
    double t;

    shmem_init();
    gpu_test_start("gpu_figures", 0);
    me = shmem_my_pe();
    n_pes = shmem_n_pes();
    iters = gpu_test_count("FIGURES_ITERS", 20000);
    bw_iters = gpu_test_count("FIGURES_BW_ITERS", 200);
    barriers = gpu_test_count("FIGURES_BARRIERS", 1000);
    res = gpu_test_results<long>(R_N);
    buf = (long *)nvshmem_calloc(16, sizeof(long));
    count = (long *)nvshmem_calloc(1, sizeof(long));
    dst = (char *)nvshmem_malloc(BW_BYTES);
    src = (char *)nvshmem_malloc(BW_BYTES);
    GPU_CHECK(buf != NULL && count != NULL && dst != NULL && src != NULL, "%s",
              "nvshmem_malloc/calloc returned NULL");
    if (n_pes < 2 || nvshmem_ptr(buf, 1) == NULL) {
        if (me == 0)
            printf("gpu_figures: skipped: needs 2 or more PEs with PE 1's GPU heap mapped\n");
        shmem_finalize();
        return 77;
    }
    GPU_LAUNCH(k_fill, 1, BW_THREADS, src, (size_t)BW_BYTES, me);
    GPU_CUDA(cudaDeviceSynchronize());
    shmem_barrier_all();

    if (me == 0) {
        t = gpu_test_now_us();
        GPU_LAUNCH(k_get_chain, 1, 1, buf, 1, iters, &res[R_GET]);
        GPU_CUDA(cudaDeviceSynchronize());
        printf(
            "gpu_figures: device get of 8 B from PE 1's GPU heap: %.3f us each (a chain of %d)\n",
            (gpu_test_now_us() - t) / iters, iters);
        GPU_CHECK_EQ("what the chain of gets read", 0, res[R_GET]);

        t = gpu_test_now_us();
        GPU_LAUNCH(k_put_quiet, 1, 1, buf, 1, iters);
        GPU_CUDA(cudaDeviceSynchronize());
        printf("gpu_figures: device put of 8 B + quiet to PE 1's GPU heap: %.3f us each (%d)\n",
               (gpu_test_now_us() - t) / iters, iters);

        t = gpu_test_now_us();
        GPU_LAUNCH(k_fetch_add, 1, 1, count, 1, iters, &res[R_FADD]);
        GPU_CUDA(cudaDeviceSynchronize());
        printf("gpu_figures: device fetch_add of 8 B on PE 1's GPU heap: %.3f us each (%d)\n",
               (gpu_test_now_us() - t) / iters, iters);
        GPU_CHECK_EQ("the last fetch_add's old value", iters - 1, res[R_FADD]);

        t = gpu_test_now_us();
        GPU_LAUNCH(k_put_block, 1, BW_THREADS, dst, (const char *)src, 1, bw_iters);
        GPU_CUDA(cudaDeviceSynchronize());
        t = gpu_test_now_us() - t;
        printf("gpu_figures: device putmem_block of 1 MiB to PE 1's GPU heap (%d threads): "
               "%.2f GB/s, %.1f us each (%d)\n",
               BW_THREADS, (double)BW_BYTES * bw_iters / (t * 1e3), t / bw_iters, bw_iters);
    }
    shmem_barrier_all();
    if (me == 1) {
        long want[3] = {0, iters, iters};

        GPU_LAUNCH(k_read, 1, 1, (const long *)buf, 9, &res[R_PEEK]);
        GPU_LAUNCH(k_read, 1, 1, (const long *)count, 1, &res[R_PEEK + 9]);
        GPU_LAUNCH(k_read, 1, 1, (const long *)dst + BW_BYTES / sizeof(long) - 1, 1,
                   &res[R_PEEK + 10]);
        GPU_CUDA(cudaDeviceSynchronize());
        GPU_CHECK_EQ("buf[0] after the gets", want[0], res[R_PEEK]);
        GPU_CHECK_EQ("buf[8] after the puts", want[1], res[R_PEEK + 8]);
        GPU_CHECK_EQ("the counter after the fetch_adds", want[2], res[R_PEEK + 9]);
        {
            long expect;
            char bytes[sizeof(long)];
            size_t base = BW_BYTES - sizeof(long), k;

            for (k = 0; k < sizeof(long); k++)
                bytes[k] = (char)((base + k) * 7 + 0); /* PE 0's fill */
            memcpy(&expect, bytes, sizeof(long));
            GPU_CHECK_EQ("the last word putmem_block wrote", expect, res[R_PEEK + 10]);
        }
    }
    shmem_barrier_all();

    t = gpu_test_now_us();
    GPU_LAUNCH(k_barriers, 1, 1, barriers);
    GPU_CUDA(cudaDeviceSynchronize());
    t = gpu_test_now_us() - t;
    shmem_barrier_all();
    if (me == 0)
        printf("gpu_figures: device barrier_all at %d PEs: %.2f us each (%d)\n", n_pes,
               t / barriers, barriers);
    nvshmem_free(src);
    nvshmem_free(dst);
    nvshmem_free(count);
    nvshmem_free(buf);
    return gpu_test_finish("gpu_figures");
}
