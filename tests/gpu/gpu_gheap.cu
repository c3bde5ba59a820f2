/* The GPU symmetric heap (nvshmem_malloc, _calloc, _align, _free): blocks at the
 * same offsets on every PE, outside the host heap, in device memory; a kernel
 * puts into its right-hand neighbour's GPU-heap buffer, signals a GPU-heap flag
 * there, waits for its left-hand neighbour's signal on its own, checks the data,
 * reads back with gets, adds to every PE's GPU-heap counter and waits for all
 * the adds, puts and gets with the _nbi forms and p, swaps and increments the
 * right-hand PE's words, and a block of 40 threads puts and gets together; nvshmem_ptr on the
 * host and the device; freed blocks are reused. Also CUDA IPC itself, as the
 * heap uses it: a handle another PE opens, writes through and closes. Where a
 * peer's GPU heap is not mapped (SHOAL_TRANSPORT=ucx, another node) the kernels'
 * operations on it go through the host proxy (gheap_remote.cu).
 * Exit 0 pass, 77 without a GPU, 99 fail. */
#include "gpu_test.h"

#include <stdint.h>

#define N 64     /* longs per buffer */
#define GROUP 40 /* threads of the group kernel: a full warp and a partial one */

enum {
    R_DATA_BAD,
    R_DATA_FIRST,
    R_GET,
    R_COUNT,
    R_FETCH,
    R_PTR,
    R_SIG,
    R_GROUP_BAD,
    R_NBI_BAD,
    R_SWAP,
    R_CSWAP,
    R_INC,
    R_N
};

#define EXTRA 6 /* longs of the right-hand PE's that only this PE's kernel touches */

/* The _nbi forms, p, and the swaps and inc on the right-hand PE's extra. */
__global__ void k_extra(long *extra, int me, int right, long *res)
{
    long src[4] = {me * 10L, me * 10L + 1, me * 10L + 2, me * 10L + 3}, got[5];
    int i;

    nvshmem_long_put_nbi(extra, src, 4, right);
    nvshmem_long_p(&extra[4], 77, right);
    nvshmem_quiet();
    nvshmem_long_get_nbi(got, extra, 5, right);
    nvshmem_quiet();
    for (i = 0; i < 4; i++)
        res[R_NBI_BAD] += got[i] != src[i];
    res[R_NBI_BAD] += got[4] != 77;
    res[R_SWAP] = nvshmem_long_atomic_swap(&extra[5], 3, right);
    res[R_CSWAP] = nvshmem_long_atomic_compare_swap(&extra[5], 3, 4, right);
    res[R_INC] = nvshmem_long_atomic_fetch_inc(&extra[5], right);
}

__global__ void k_ring(long *buf, uint64_t *flag, long *count, long *fetched, int me, int n_pes,
                       int mapped, long *res)
{
    int right = (me + 1) % n_pes, left = (me + n_pes - 1) % n_pes, pe, i;
    long src[N];

    for (i = 0; i < N; i++)
        src[i] = me * 1000L + i;
    nvshmem_long_put(buf, src, N, right);
    nvshmem_fence();
    nvshmemx_signal_op(flag, 1, NVSHMEM_SIGNAL_SET, right);
    /* GE: the left-hand PE's ADD of 10 below may come before this PE looks. */
    nvshmem_signal_wait_until(flag, NVSHMEM_CMP_GE, 1);
    for (i = 0; i < N; i++)
        if (buf[i] != left * 1000L + i && res[R_DATA_BAD]++ == 0)
            res[R_DATA_FIRST] = i;
    res[R_GET] = nvshmem_long_g(&buf[N - 1], right); /* what this PE put there */
    for (pe = 0; pe < n_pes; pe++)
        nvshmem_long_atomic_add(count, 1, pe);
    nvshmem_long_wait_until(count, NVSHMEM_CMP_EQ, n_pes);
    res[R_COUNT] = nvshmem_long_atomic_fetch(count, me);
    res[R_FETCH] = nvshmem_long_atomic_fetch_add(fetched, 5, right);
    res[R_PTR] = (nvshmem_ptr(buf, right) != NULL) == mapped && nvshmem_ptr(buf, me) == (void *)buf;
    nvshmem_putmem_signal(&buf[0], src, sizeof(long), flag, 10, NVSHMEM_SIGNAL_ADD, right);
    nvshmem_uint64_wait_until(flag, NVSHMEM_CMP_EQ, 11);
    res[R_SIG] = (long)nvshmem_signal_fetch(flag);
}

/* Every thread of a block: put a block's buffer to the right, then get it back. */
__global__ void k_group(long *buf, long *back, int me, int n_pes, long *res)
{
    long *src = back + N;
    int right = (me + 1) % n_pes, i;

    nvshmemx_long_put_block(buf, src, N, right);
    nvshmem_quiet();
    nvshmemx_long_get_block(back, buf, N, right);
    if (threadIdx.x == 0)
        for (i = 0; i < N; i++)
            if (back[i] != src[i])
                res[R_GROUP_BAD]++;
}

/* CUDA IPC as the heap uses it: PE 0's allocation, opened by every other PE. */
static void check_ipc(int me)
{
    cudaIpcMemHandle_t *handle = (cudaIpcMemHandle_t *)shmem_malloc(sizeof(*handle));
    cudaIpcMemHandle_t h;
    void *own = NULL, *peer = NULL;
    long v = 0;

    if (me == 0) {
        GPU_CUDA(cudaMalloc(&own, 4096));
        GPU_CUDA(cudaMemset(own, 0, 4096));
        GPU_CUDA(cudaIpcGetMemHandle(handle, own));
        /* A process cannot open its own handle. */
        GPU_CHECK(cudaIpcOpenMemHandle(&peer, *handle, cudaIpcMemLazyEnablePeerAccess) !=
                      cudaSuccess,
                  "%s", "opening one's own handle succeeded");
        (void)cudaGetLastError();
    }
    shmem_barrier_all();
    if (me != 0) {
        shmem_getmem(&h, handle, sizeof(h), 0);
        GPU_CUDA(cudaIpcOpenMemHandle(&peer, h, cudaIpcMemLazyEnablePeerAccess));
        v = 100 + me;
        GPU_CUDA(cudaMemcpy((long *)peer + me, &v, sizeof(v), cudaMemcpyHostToDevice));
#ifdef SHOAL_DEV_ON_CPU
        GPU_CHECK(shoal_dev_cpu_mapped(peer) == 4096, "opened: %zu bytes mapped",
                  shoal_dev_cpu_mapped(peer));
#endif
        GPU_CUDA(cudaIpcCloseMemHandle(peer));
#ifdef SHOAL_DEV_ON_CPU
        GPU_CHECK(shoal_dev_cpu_mapped(peer) == 0, "closed: %zu bytes still mapped",
                  shoal_dev_cpu_mapped(peer));
#endif
    }
    shmem_barrier_all();
    if (me == 0) {
        long got[8] = {0};
        int pe;

        GPU_CUDA(cudaMemcpy(got, own, sizeof(got), cudaMemcpyDeviceToHost));
        for (pe = 1; pe < shmem_n_pes() && pe < 8; pe++)
            GPU_CHECK_EQ("a value a peer wrote through CUDA IPC", 100 + pe, got[pe]);
        GPU_CUDA(cudaFree(own));
    }
    shmem_free(handle);
}

int main(void)
{
    int me, n_pes, right, left, i, pe, mapped;
    long *buf, *count, *fetched, *back, *res, host[N], *offsets, *extra;
    uint64_t *flag, zero = 1;
    char *aligned, *again;

    shmem_init();
    gpu_test_start("gpu_gheap", 0);
    me = shmem_my_pe();
    n_pes = shmem_n_pes();
    right = (me + 1) % n_pes;
    left = (me + n_pes - 1) % n_pes;
    res = gpu_test_results<long>(R_N);

    buf = (long *)nvshmem_malloc(N * sizeof(long));
    flag = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));
    count = (long *)nvshmem_calloc(1, sizeof(long));
    fetched = (long *)nvshmem_calloc(1, sizeof(long));
    aligned = (char *)nvshmem_align(1 << 16, 100);
    GPU_CHECK(buf != NULL && flag != NULL && count != NULL && fetched != NULL && aligned != NULL,
              "%s", "an allocation failed");
    GPU_CHECK(((uintptr_t)aligned & 0xffff) == 0, "nvshmem_align(65536): %p", (void *)aligned);
    GPU_CHECK(((uintptr_t)buf & 63) == 0, "nvshmem_malloc: %p is not 64-byte aligned", (void *)buf);
    /* Not the host heap: shmem_ routines do not know these addresses. */
    GPU_CHECK(!shmem_addr_accessible(buf, me), "%s", "nvshmem_malloc returned host-heap memory");
#ifdef SHOAL_DEV_ON_CPU
    GPU_CHECK(shoal_dev_cpu_mapped(buf) > 0, "%s", "nvshmem_malloc memory is not device memory");
#else
    {
        struct cudaPointerAttributes a;

        GPU_CUDA(cudaPointerGetAttributes(&a, buf));
        GPU_CHECK(a.type == cudaMemoryTypeDevice, "nvshmem_malloc memory is of type %d",
                  (int)a.type);
    }
#endif
    /* Before the barrier below: after it, the left-hand PE's kernel sets it. */
    GPU_CUDA(cudaMemcpy(&zero, flag, sizeof(zero), cudaMemcpyDeviceToHost));
    GPU_CHECK_EQ("nvshmem_calloc zeroes", 0, zero);
    /* The same offsets on every PE: the distances between blocks agree. */
    offsets = (long *)shmem_calloc((size_t)n_pes * 2, sizeof(long));
    /* The right-hand PE's GPU heap is mapped here where its host heap is (one
     * node, SHOAL_TRANSPORT=auto); else kernels reach it through the proxy. */
    mapped = shmem_ptr(offsets, right) != NULL;
    for (pe = 0; pe < n_pes; pe++) {
        shmem_long_p(&offsets[2 * me], (char *)aligned - (char *)buf, pe);
        shmem_long_p(&offsets[2 * me + 1], (char *)fetched - (char *)flag, pe);
    }
    shmem_barrier_all();
    for (pe = 0; pe < n_pes; pe++) {
        GPU_CHECK_EQ("another PE's distance between nvshmem_malloc and nvshmem_align", offsets[0],
                     offsets[2 * pe]);
        GPU_CHECK_EQ("another PE's distance between two nvshmem_calloc", offsets[1],
                     offsets[2 * pe + 1]);
    }
    GPU_CHECK(nvshmem_ptr(buf, me) == (void *)buf && (nvshmem_ptr(buf, right) != NULL) == mapped,
              "host nvshmem_ptr: own %p (expected %p), right-hand %p", nvshmem_ptr(buf, me),
              (void *)buf, nvshmem_ptr(buf, right));

    GPU_LAUNCH(k_ring, 1, 1, buf, flag, count, fetched, me, n_pes, mapped, res);
    GPU_CUDA(cudaGetLastError());
    GPU_CUDA(cudaDeviceSynchronize());
    nvshmem_barrier_all();
    GPU_CHECK(res[R_DATA_BAD] == 0, "%ld longs from the left-hand PE wrong, the first at %ld",
              res[R_DATA_BAD], res[R_DATA_FIRST]);
    GPU_CHECK_EQ("nvshmem_long_g of what this PE put", me * 1000L + N - 1, res[R_GET]);
    GPU_CHECK_EQ("the GPU-heap counter every PE added to", n_pes, res[R_COUNT]);
    GPU_CHECK_EQ("nvshmem_long_atomic_fetch_add's old value", 0, res[R_FETCH]);
    GPU_CHECK_EQ("device nvshmem_ptr", 1, res[R_PTR]);
    GPU_CHECK_EQ("the signal after SET 1 and ADD 10", 11, res[R_SIG]);
    GPU_CUDA(cudaMemcpy(host, buf, sizeof(host), cudaMemcpyDeviceToHost));
    GPU_CHECK_EQ("buf[0] from the put with signal", left * 1000L, host[0]);
    for (i = 1; i < N; i++)
        GPU_CHECK_EQ("buf[i], copied to the host", left * 1000L + i, host[i]);
    GPU_CUDA(cudaMemcpy(host, fetched, sizeof(long), cudaMemcpyDeviceToHost));
    GPU_CHECK_EQ("the fetch_add's target", 5, host[0]);

    /* The _nbi forms, p and more AMOs, each PE on its right-hand one's extra. */
    extra = (long *)nvshmem_calloc(EXTRA, sizeof(long));
    GPU_LAUNCH(k_extra, 1, 1, extra, me, right, res);
    GPU_CUDA(cudaGetLastError());
    GPU_CUDA(cudaDeviceSynchronize());
    nvshmem_barrier_all();
    GPU_CHECK_EQ("longs wrong after put_nbi, p and get_nbi", 0, res[R_NBI_BAD]);
    GPU_CHECK_EQ("swap's old value", 0, res[R_SWAP]);
    GPU_CHECK_EQ("compare_swap's old value", 3, res[R_CSWAP]);
    GPU_CHECK_EQ("fetch_inc's old value", 4, res[R_INC]);
    GPU_CUDA(cudaMemcpy(host, extra, EXTRA * sizeof(long), cudaMemcpyDeviceToHost));
    GPU_CHECK_EQ("extra[0], from the left-hand PE's put_nbi", left * 10L, host[0]);
    GPU_CHECK_EQ("extra[5] after the left-hand PE's swaps and inc", 5, host[5]);
    nvshmem_free(extra);

    /* The group forms on the GPU heap: back holds 2N longs, the source second. */
    back = (long *)nvshmem_calloc(2 * N, sizeof(long));
    for (i = 0; i < N; i++)
        host[i] = -(me * 100L + i);
    GPU_CUDA(cudaMemcpy(back + N, host, sizeof(host), cudaMemcpyHostToDevice));
    nvshmem_barrier_all();
    GPU_LAUNCH(k_group, 1, GROUP, buf, back, me, n_pes, res);
    GPU_CUDA(cudaGetLastError());
    GPU_CUDA(cudaDeviceSynchronize());
    nvshmem_barrier_all();
    GPU_CHECK_EQ("longs the block got back wrong", 0, res[R_GROUP_BAD]);
    GPU_CUDA(cudaMemcpy(host, buf, sizeof(host), cudaMemcpyDeviceToHost));
    GPU_CHECK_EQ("buf[N - 1] after the left-hand PE's block put", -(left * 100L + N - 1),
                 host[N - 1]);

    /* Freed blocks are reused, alike on every PE; a size of 0 is NULL. */
    nvshmem_free(back);
    nvshmem_free(aligned);
    again = (char *)nvshmem_align(1 << 16, 100);
    GPU_CHECK(again == aligned, "after nvshmem_free, nvshmem_align gave %p, not %p", (void *)again,
              (void *)aligned);
    GPU_CHECK(nvshmem_malloc(0) == NULL, "%s", "nvshmem_malloc(0) is not NULL");
    nvshmem_free(NULL);
    nvshmem_free(again);
    nvshmem_free(fetched);
    nvshmem_free(count);
    nvshmem_free(flag);
    nvshmem_free(buf);
    shmem_free(offsets);

    check_ipc(me);
    if (me == 0)
        printf("gpu_gheap: GPU heap put, get, AMOs, signals, waits and group forms at %d PEs\n",
               n_pes);
    return gpu_test_finish("gpu_gheap");
}
