/* Host shmem_ routines on the GPU heap (nvshmem_malloc memory): put, get, p, g,
 * iput, iget and a put longer than one request piece to the right-hand PE's GPU
 * heap, seen after a barrier; AMOs of every kind racing from every PE on GPU-heap
 * words; put-with-signal with the data, the signal or both in the GPU heap, and
 * shmem_signal_set on this PE's own, each waited for by a kernel;
 * shmem_signal_fetch; the host's waits and tests on its GPU heap, for a peer's
 * kernel's signal and a peer host's add. The right-hand PE's GPU heap is mapped (one node,
 * SHOAL_TRANSPORT=auto: this GPU's copies and atomics) or not (ucx, another
 * node: through that PE's host proxy). Exit 0 pass, 77 without a GPU, 99 fail. */
#include "gpu_test.h"

#include <stdint.h>

#define N 64
#define BIG 10000 /* bytes: more than one 4 KiB request */

enum { R_WAITED, R_DATA_BAD, R_HOST_DATA_BAD, R_OWN_SIG, R_N };

/* Waits for the left-hand PE's put-with-signal into this PE's GPU heap (flag),
 * then for its put-with-signal of host-heap data (hflag), then for this PE's
 * host to set own, checking the data each brings. */
__global__ void k_wait(const long *buf, uint64_t *flag, const long *hbuf, uint64_t *hflag,
                       uint64_t *own, int left, long *res)
{
    int i;

    nvshmem_signal_wait_until(flag, NVSHMEM_CMP_EQ, 7);
    for (i = 0; i < N; i++)
        if (buf[i] != left * 100L + i)
            res[R_DATA_BAD]++;
    nvshmem_signal_wait_until(hflag, NVSHMEM_CMP_EQ, 9);
    for (i = 0; i < N; i++)
        if (hbuf[i] != -(left * 100L + i))
            res[R_HOST_DATA_BAD]++;
    res[R_OWN_SIG] = (long)nvshmem_signal_wait_until(own, NVSHMEM_CMP_GE, 3);
    res[R_WAITED] = 1;
}

/* The host's round trip on the right-hand PE's GPU heap, for the record
 * (docs/design.md): a g and a fetch_add, iters of each, printed by PE 0. */
static void round_trip(long *word, int right, int mapped)
{
    int iters = gpu_test_count("GPU_GHEAP_ITERS", 200), i;
    double t0, g_us, amo_us;
    long sum = 0;

    shmem_barrier_all();
    t0 = gpu_test_now_us();
    for (i = 0; i < iters; i++)
        sum += shmem_long_g(word, right);
    g_us = (gpu_test_now_us() - t0) / iters;
    t0 = gpu_test_now_us();
    for (i = 0; i < iters; i++)
        sum += shmem_long_atomic_fetch_add(word, 0, right);
    amo_us = (gpu_test_now_us() - t0) / iters;
    GPU_CHECK(sum >= 0, "the round trip's sum %ld", sum);
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("gpu_gheap_host: host on the right-hand PE's GPU heap (%s): g %.1f us, fetch_add "
               "%.1f us\n",
               mapped ? "mapped here: this GPU" : "not mapped: its proxy", g_us, amo_us);
}

/* Sets the right-hand PE's GPU-heap flag, which its host waits for. */
__global__ void k_signal(uint64_t *flag, uint64_t value, int right)
{
    nvshmemx_signal_op(flag, value, NVSHMEM_SIGNAL_SET, right);
}

/* This PE's GPU-heap longs, read by the GPU into host memory. */
static void read_own(long *host, const long *gheap, size_t n)
{
    GPU_CUDA(cudaMemcpy(host, gheap, n * sizeof(long), cudaMemcpyDeviceToHost));
}

int main(void)
{
    int me, n_pes, right, left, pe, i;
    long *buf, *count, *hbuf, *res, src[N], host[N], v;
    unsigned long long *bits;
    uint64_t *flag, *hflag, *own;
    char *big, out[BIG], back[BIG];

    shmem_init();
    gpu_test_start("gpu_gheap_host", 0);
    me = shmem_my_pe();
    n_pes = shmem_n_pes();
    right = (me + 1) % n_pes;
    left = (me + n_pes - 1) % n_pes;
    res = gpu_test_results<long>(R_N);

    buf = (long *)nvshmem_calloc(N, sizeof(long));
    count = (long *)nvshmem_calloc(4, sizeof(long));
    bits = (unsigned long long *)nvshmem_calloc(1, sizeof(*bits));
    flag = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));
    own = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));
    big = (char *)nvshmem_calloc(BIG, 1);
    hbuf = (long *)shmem_calloc(N, sizeof(long));
    hflag = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
    GPU_CHECK(buf != NULL && count != NULL && bits != NULL && flag != NULL && own != NULL &&
                  big != NULL && hbuf != NULL && hflag != NULL,
              "%s", "an allocation failed");

    /* put, then get back; p and g; visible to the owner after the barrier. */
    for (i = 0; i < N; i++)
        src[i] = me * 1000L + i;
    shmem_long_put(buf, src, N, right);
    shmem_long_p(&buf[N - 1], -me, right);
    shmem_barrier_all();
    read_own(host, buf, N);
    for (i = 0; i < N - 1; i++)
        GPU_CHECK_EQ("buf[i] the left-hand PE put", left * 1000L + i, host[i]);
    GPU_CHECK_EQ("buf[N - 1] the left-hand PE's p", -left, host[N - 1]);
    memset(host, 0, sizeof(host));
    shmem_long_get(host, buf, N - 1, right);
    for (i = 0; i < N - 1; i++)
        GPU_CHECK_EQ("shmem_long_get of what this PE put", me * 1000L + i, host[i]);
    GPU_CHECK_EQ("shmem_long_g of this PE's p", -me, shmem_long_g(&buf[N - 1], right));
    GPU_CHECK_EQ("shmem_long_g on this PE's own GPU heap", -left, shmem_long_g(&buf[N - 1], me));
    shmem_barrier_all();

    /* Strided: every other long of the first 8, and back. */
    for (i = 0; i < 4; i++)
        src[i] = 500L + me * 10 + i;
    shmem_long_iput(buf, src, 2, 1, 4, right);
    shmem_barrier_all();
    read_own(host, buf, 8);
    for (i = 0; i < 4; i++) {
        GPU_CHECK_EQ("buf[2i] from the left-hand PE's iput", 500L + left * 10 + i, host[2 * i]);
        GPU_CHECK_EQ("buf[2i + 1], untouched by the iput", left * 1000L + 2 * i + 1,
                     host[2 * i + 1]);
    }
    memset(host, 0, sizeof(host));
    shmem_long_iget(host, buf, 1, 2, 4, right);
    for (i = 0; i < 4; i++)
        GPU_CHECK_EQ("shmem_long_iget of this PE's iput", 500L + me * 10 + i, host[i]);

    /* A local buffer in the GPU heap, a remote one in the host heap: staged. */
    shmem_putmem(hbuf, buf, N * sizeof(long), right);
    shmem_barrier_all();
    for (i = 0; i < 4; i++)
        GPU_CHECK_EQ("hbuf[2i], put from the left-hand PE's GPU heap",
                     500L + (left + n_pes - 1) % n_pes * 10 + i, hbuf[2 * i]);
    shmem_getmem(&buf[N - 2], &hbuf[0], sizeof(long), right);
    read_own(host, &buf[N - 2], 1);
    GPU_CHECK_EQ("a get from the host heap into the GPU heap", 500L + left * 10, host[0]);
    shmem_barrier_all();

    /* More than one piece each way. */
    for (i = 0; i < BIG; i++)
        out[i] = (char)(me * 7 + i * 13);
    shmem_putmem(big, out, BIG, right);
    shmem_barrier_all();
    shmem_getmem(back, big, BIG, right);
    GPU_CHECK(memcmp(back, out, BIG) == 0, "%s", "a 10000-byte put and get back differ");
    shmem_barrier_all();

    /* AMOs from every PE on every PE's GPU-heap words. */
    for (pe = 0; pe < n_pes; pe++) {
        shmem_long_atomic_add(&count[0], 1, pe);
        shmem_long_atomic_inc(&count[1], pe);
        (void)shmem_long_atomic_fetch_add(&count[2], 2, pe);
        shmem_ulonglong_atomic_or(bits, 1ULL << me, pe);
    }
    shmem_barrier_all();
    GPU_CHECK_EQ("count[0] after every PE's add", n_pes, shmem_long_atomic_fetch(&count[0], me));
    GPU_CHECK_EQ("count[1] after every PE's inc", n_pes, shmem_long_atomic_fetch(&count[1], me));
    GPU_CHECK_EQ("count[2] after every PE's fetch_add of 2", 2 * n_pes,
                 shmem_long_atomic_fetch(&count[2], right));
    GPU_CHECK_EQ("bits after every PE's or", (1LL << n_pes) - 1,
                 (long long)shmem_ulonglong_atomic_fetch(bits, right));
    shmem_barrier_all();
    /* Only PE me changes count[3] on its right-hand PE: each result is known. */
    GPU_CHECK_EQ("swap's old value", 0, shmem_long_atomic_swap(&count[3], 5, right));
    GPU_CHECK_EQ("compare_swap that fails", 5,
                 shmem_long_atomic_compare_swap(&count[3], 4, 9, right));
    GPU_CHECK_EQ("compare_swap that succeeds", 5,
                 shmem_long_atomic_compare_swap(&count[3], 5, 6, right));
    GPU_CHECK_EQ("fetch_xor's old value", 6,
                 (long)shmem_ulonglong_atomic_fetch_xor((unsigned long long *)&count[3], 3, right));
    shmem_long_atomic_set(&count[3], 40, right);
    shmem_long_atomic_fetch_inc_nbi(&v, &count[3], right);
    shmem_quiet();
    GPU_CHECK_EQ("fetch_inc_nbi after set", 40, v);
    shmem_barrier_all();
    read_own(host, &count[3], 1);
    GPU_CHECK_EQ("count[3] after the left-hand PE's set and inc", 41, host[0]);

    /* Signals a kernel waits for: from the left-hand PE's host, and this PE's. */
    GPU_LAUNCH(k_wait, 1, 1, buf, flag, hbuf, hflag, own, left, res);
    GPU_CUDA(cudaGetLastError());
    for (i = 0; i < N; i++)
        src[i] = me * 100L + i;
    shmem_putmem_signal(buf, src, sizeof(src), flag, 7, SHMEM_SIGNAL_SET, right);
    for (i = 0; i < N; i++)
        src[i] = -(me * 100L + i);
    shmem_putmem_signal(hbuf, src, sizeof(src), hflag, 4, SHMEM_SIGNAL_ADD, right);
    shmem_signal_add(hflag, 5, right); /* host heap: 9 */
    shmem_signal_set(own, 1, me);
    shmem_signal_add(own, 2, me);
    GPU_CUDA(cudaDeviceSynchronize());
    shmem_barrier_all();
    GPU_CHECK_EQ("the kernel's waits returned", 1, res[R_WAITED]);
    GPU_CHECK_EQ("GPU-heap longs wrong after the GPU-heap signal", 0, res[R_DATA_BAD]);
    GPU_CHECK_EQ("host-heap longs wrong after the host-heap signal", 0, res[R_HOST_DATA_BAD]);
    GPU_CHECK_EQ("the GPU-heap signal this PE's host set and added to", 3, res[R_OWN_SIG]);
    GPU_CHECK_EQ("shmem_signal_fetch on the GPU heap", 7, shmem_signal_fetch(flag));

    /* The host waits on its GPU heap: for the left-hand PE's kernel's signal,
     * and for its host's add (after every PE has read its 7). */
    shmem_barrier_all();
    GPU_LAUNCH(k_signal, 1, 1, flag, 8, right);
    GPU_CUDA(cudaGetLastError());
    GPU_CHECK_EQ("shmem_signal_wait_until on the GPU heap", 8,
                 shmem_signal_wait_until(flag, SHMEM_CMP_EQ, 8));
    GPU_CUDA(cudaDeviceSynchronize());
    shmem_long_atomic_add(&count[0], 100, right);
    shmem_long_wait_until(&count[0], SHMEM_CMP_EQ, n_pes + 100);
    GPU_CHECK_EQ("shmem_long_test after the wait", 1,
                 shmem_long_test(&count[0], SHMEM_CMP_EQ, n_pes + 100));
    GPU_CHECK_EQ("shmem_long_test_all on two GPU-heap longs", 1,
                 shmem_long_test_all(count, 2, NULL, SHMEM_CMP_GE, n_pes));
    GPU_CHECK_EQ("shmem_long_test_any finds none", SIZE_MAX,
                 shmem_long_test_any(count, 2, NULL, SHMEM_CMP_LT, 0));
    shmem_barrier_all();

    /* Data into the host heap from the GPU heap (staged), signal in the GPU heap
     * (and the reverse above); then the same with a host-heap signal. */
    shmem_long_put_signal(hbuf, buf, N, own, 10, SHMEM_SIGNAL_ADD, right);
    shmem_barrier_all();
    GPU_CHECK_EQ("a GPU-heap signal after a host-heap put", 13, shmem_signal_fetch(own));
    GPU_CHECK_EQ("the host-heap data before it, from the GPU heap",
                 (left + n_pes - 1) % n_pes * 100L + N - 1, hbuf[N - 1]);
    shmem_barrier_all();
    shmem_long_put_signal(&hbuf[1], &count[0], 1, hflag, 1, SHMEM_SIGNAL_ADD, right);
    shmem_barrier_all();
    GPU_CHECK_EQ("a host-heap signal after a put from the GPU heap", 10, *hflag);
    GPU_CHECK_EQ("that put's long, the left-hand PE's count[0]", n_pes + 100, hbuf[1]);

    round_trip(&count[0], right, shmem_ptr(hbuf, right) != NULL);

    shmem_free(hflag);
    shmem_free(hbuf);
    nvshmem_free(big);
    nvshmem_free(own);
    nvshmem_free(flag);
    nvshmem_free(bits);
    nvshmem_free(count);
    nvshmem_free(buf);
    if (me == 0)
        printf("gpu_gheap_host: host put, get, strided, AMOs and signals on the GPU heap at %d "
               "PEs\n",
               n_pes);
    return gpu_test_finish("gpu_gheap_host");
}
