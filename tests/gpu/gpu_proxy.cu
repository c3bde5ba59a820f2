/* The host proxy (SHOAL_GPU_PROXY, gpu/host/proxy_thread.cu): kernels that reach
 * PEs whose heaps are not mapped here, and atomics the host does for them. Run by
 * gpu_proxy.sh under SHOAL_TRANSPORT=ucx (no peer mapped: the proxy carries
 * everything remote) and with SHOAL_GPU_PROXY=all (it carries everything), at 2
 * and 4 PEs. Each PE, with its neighbours right = me + 1 and left = me - 1:
 *   1. puts 8, 5000 and 20000 bytes to right (one, two and five of the ring's
 *      pieces; 5000 is no multiple of a word), fences, adds 1 to right's signal,
 *      and waits for left's three signals before it checks left's data;
 *   2. puts 9000 bytes with a signal (set), the signal riding on the last piece;
 *   3. gets 10000 bytes of left's pattern;
 *   4. a block of 40 threads puts with nvshmemx_putmem_block, its two warps get
 *      with nvshmemx_getmem_warp (a full warp and a partial one);
 *   5. THREADS kernel threads and the host add to one counter on PE 0 at once, a
 *      64-bit fetch_add and a 32-bit compare_swap loop: none is lost, so the
 *      GPU's and the CPU's atomics are one atomicity domain;
 *   6. a device barrier_all, after which each PE finds what left put before it.
 * Then it times ROUNDS 8-byte gets and fetch_adds on right: the proxied round
 * trip, printed and never asserted. GPU_PROXY_ITERS and GPU_PROXY_ROUNDS shrink
 * test 5 and the timing (tests/multinode). Exit 0 pass, 77 without a GPU, 99 fail. */
#include "gpu_test.h"

#include <stdint.h>

#define BIG 20000
#define PUT_SIG_BYTES 9000
#define GET_BYTES 10000
#define GROUP_THREADS 40
#define GROUP_BYTES 6000
#define THREADS 4
#define ITERS 200  /* test 5's additions per thread (GPU_PROXY_ITERS) */
#define ROUNDS 200 /* timed calls (GPU_PROXY_ROUNDS) */

/* Test 1's sizes, i = 0..2. */
static __host__ __device__ size_t put_size(int i)
{
    return i == 0 ? 8 : i == 1 ? 5000 : BIG;
}

typedef struct area {
    alignas(8) unsigned char src[BIG];   /* this PE's pattern, set by the host */
    unsigned char out[BIG];              /* what the kernel puts from */
    unsigned char in[8 + 5000 + BIG];    /* test 1, from left */
    unsigned char in2[PUT_SIG_BYTES];    /* test 2, from left */
    unsigned char got[GET_BYTES];        /* test 3 */
    unsigned char in3[GROUP_BYTES];      /* test 4, from left */
    unsigned char got3[GROUP_BYTES];     /* test 4 */
    uint64_t sig, sig2, counter, lat;
    uint32_t counter32;
    int box;
} area_t;

/* Byte j of PE pe's data in test t. */
static __host__ __device__ unsigned char pattern(int pe, size_t j, int t)
{
    return (unsigned char)(pe * 31 + j * 7 + t * 13 + 1);
}

/* The first mismatch of [p, p + n) with pe's pattern t, into bad: 0 when none. */
static __host__ __device__ int mismatch(const unsigned char *p, size_t n, int pe, int t,
                                       long long *bad)
{
    size_t j;

    for (j = 0; j < n; j++) {
        if (p[j] != pattern(pe, j, t)) {
            bad[0] = t;
            bad[1] = (long long)j;
            bad[2] = p[j];
            bad[3] = pattern(pe, j, t);
            return 1;
        }
    }
    return 0;
}

__global__ void k_rma(area_t *a, int me, int n_pes, long long *bad)
{
    int right = (me + 1) % n_pes, left = (me + n_pes - 1) % n_pes, i;
    size_t j, off = 0;

    for (i = 0; i < 3; off += put_size(i), i++) {
        for (j = 0; j < put_size(i); j++)
            a->out[j] = pattern(me, j, i);
        nvshmem_putmem(a->in + off, a->out, put_size(i), right);
    }
    nvshmem_fence();
    for (i = 0; i < 3; i++)
        nvshmemx_signal_op(&a->sig, 1, NVSHMEM_SIGNAL_ADD, right);
    for (j = 0; j < PUT_SIG_BYTES; j++)
        a->out[j] = pattern(me, j, 3);
    nvshmem_putmem_signal(a->in2, a->out, PUT_SIG_BYTES, &a->sig2, 7, NVSHMEM_SIGNAL_SET, right);
    nvshmem_getmem(a->got, a->src, GET_BYTES, left);
    if (mismatch(a->got, GET_BYTES, left, 9, bad))
        return;
    nvshmem_signal_wait_until(&a->sig, NVSHMEM_CMP_EQ, 3);
    for (i = 0, off = 0; i < 3; off += put_size(i), i++)
        if (mismatch(a->in + off, put_size(i), left, i, bad))
            return;
    nvshmem_signal_wait_until(&a->sig2, NVSHMEM_CMP_EQ, 7);
    mismatch(a->in2, PUT_SIG_BYTES, left, 3, bad);
}

/* One block of GROUP_THREADS: the block puts src to right; each warp gets its
 * half of right's src. */
__global__ void k_group(area_t *a, int me, int n_pes)
{
    int right = (me + 1) % n_pes;
    size_t half = GROUP_BYTES / 2, w = threadIdx.x / 32;

    nvshmemx_putmem_block(a->in3, a->src, GROUP_BYTES, right);
    nvshmemx_getmem_warp(a->got3 + w * half, a->src + w * half, half, right);
    nvshmem_quiet();
}

__global__ void k_amo(area_t *a, int iters)
{
    int i;

    for (i = 0; i < iters; i++) {
        uint32_t old;

        nvshmem_uint64_atomic_fetch_add(&a->counter, 1, 0);
        do
            old = nvshmem_uint32_atomic_fetch(&a->counter32, 0);
        while (nvshmem_uint32_atomic_compare_swap(&a->counter32, old, old + 1, 0) != old);
    }
}

__global__ void k_barrier(area_t *a, int me, int n_pes, long long *bad)
{
    int left = (me + n_pes - 1) % n_pes;

    nvshmem_int_p(&a->box, 100 + me, (me + 1) % n_pes);
    nvshmem_barrier_all();
    if (a->box != 100 + left) {
        bad[0] = 6;
        bad[2] = a->box;
        bad[3] = 100 + left;
    }
}

__global__ void k_latency(area_t *a, int right, int fetch_add, int rounds)
{
    uint64_t sum = 0;
    int i;

    for (i = 0; i < rounds; i++)
        sum += fetch_add ? nvshmem_uint64_atomic_fetch_add(&a->lat, 1, right)
                         : nvshmem_uint64_g(&a->counter, right);
    a->sig = sum; /* keeps the loop; nobody reads it */
}

static void run(void (*launch)(area_t *), area_t *a)
{
    launch(a);
    GPU_CUDA(cudaGetLastError());
    GPU_CUDA(cudaDeviceSynchronize());
    shmem_barrier_all(); /* with the proxy's drain: every proxied request landed */
}

static int g_me, g_n;
static long long *g_bad;

static void launch_rma(area_t *a) { GPU_LAUNCH(k_rma, 1, 1, a, g_me, g_n, g_bad); }
static void launch_group(area_t *a) { GPU_LAUNCH(k_group, 1, GROUP_THREADS, a, g_me, g_n); }
static void launch_barrier(area_t *a) { GPU_LAUNCH(k_barrier, 1, 1, a, g_me, g_n, g_bad); }

/* Test 5: the kernel's threads and this thread add at once. */
static void atomics(area_t *a)
{
    int i, iters = gpu_test_count("GPU_PROXY_ITERS", ITERS);

    GPU_LAUNCH(k_amo, 1, THREADS, a, iters);
    GPU_CUDA(cudaGetLastError());
    for (i = 0; i < iters; i++) {
        uint32_t old;

        shmem_uint64_atomic_add(&a->counter, 1, 0);
        do
            old = shmem_uint32_atomic_fetch(&a->counter32, 0);
        while (shmem_uint32_atomic_compare_swap(&a->counter32, old, old + 1, 0) != old);
    }
    GPU_CUDA(cudaDeviceSynchronize());
    shmem_barrier_all();
    if (g_me == 0) {
        GPU_CHECK_EQ("64-bit counter", (long long)g_n * (THREADS + 1) * iters, a->counter);
        GPU_CHECK_EQ("32-bit counter", (long long)g_n * (THREADS + 1) * iters,
                     a->counter32);
    }
}

static void latency(area_t *a)
{
    int k, rounds = gpu_test_count("GPU_PROXY_ROUNDS", ROUNDS);

    for (k = 0; k < 2; k++) {
        double t = gpu_test_now_us();

        GPU_LAUNCH(k_latency, 1, 1, a, (g_me + 1) % g_n, k, rounds);
        GPU_CUDA(cudaDeviceSynchronize());
        t = (gpu_test_now_us() - t) / rounds;
        shmem_barrier_all();
        if (g_me == 0)
            printf("gpu_proxy: %s on PE %d from a kernel of PE 0: %.2f us per call (%d calls, "
                   "launch included)\n",
                   k ? "uint64 fetch_add" : "8-byte get (uint64_g)", 1 % g_n, t, rounds);
    }
}

int main(void)
{
    area_t *a;
    long long *bad;
    size_t j;

    shmem_init();
    gpu_test_start("gpu_proxy", 0);
    g_me = shmem_my_pe();
    g_n = shmem_n_pes();
    a = (area_t *)shmem_calloc(1, sizeof(area_t));
    bad = g_bad = gpu_test_results<long long>(4);
    for (j = 0; j < BIG; j++)
        a->src[j] = pattern(g_me, j, 9);
    shmem_barrier_all();

    run(launch_rma, a);
    GPU_CHECK(bad[0] == 0 && bad[1] == 0, "test %lld: byte %lld is %lld, expected %lld", bad[0],
              bad[1], bad[2], bad[3]);
    run(launch_group, a);
    GPU_CHECK(!mismatch(a->in3, GROUP_BYTES, (g_me + g_n - 1) % g_n, 9, bad),
              "block put: byte %lld is %lld, expected %lld", bad[1], bad[2], bad[3]);
    GPU_CHECK(!mismatch(a->got3, GROUP_BYTES, (g_me + 1) % g_n, 9, bad),
              "warp get: byte %lld is %lld, expected %lld", bad[1], bad[2], bad[3]);
    memset(bad, 0, 4 * sizeof(*bad));
    atomics(a);
    run(launch_barrier, a);
    GPU_CHECK(bad[0] == 0, "after the device barrier, box is %lld, expected %lld", bad[2],
              bad[3]);
    latency(a);
    return gpu_test_finish("gpu_proxy");
}
