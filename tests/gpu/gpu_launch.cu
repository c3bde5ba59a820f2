/* The collective launch (nvshmemx_collective_launch, _query_gridsize). Each
 * launch's blocks wait for each other and for the other PEs' kernels, which only
 * a launch that runs them all at once lets end: every block's thread 0 adds 1 to
 * this PE's count[0] and waits until all the grid's blocks have; then thread 0 of
 * block 0 adds 1 to count[1] on every PE and waits for every PE's. Then each
 * thread writes what it was passed, read back on the host: the parameters
 * (an int, a double and a struct by value), copied at the launch (the host
 * changes its copies right after), and the grid it ran as. Three launches: a
 * gridDims of 0 (the most that fit: what the query says), an explicit grid on a
 * stream of its own, and (under nvcc) the C form with the kernel cast to const
 * void *, as NVSHMEM programs write it. err_gpu_launch_grid checks that one block
 * more than the query's is refused. Exit 0 pass, 77 without a GPU, 99 fail. */
#include "gpu_test.h"

/* A block's threads: a few on the CPU engine, where each is a thread of the PE. */
#ifdef SHOAL_DEV_ON_CPU
#define THREADS 4
#else
#define THREADS 256
#endif
#define EXPLICIT_GRID 3

typedef struct {
    char tag[8];
    int scale;
} launch_tag_t;

/* out[0..2]: the grid, block and scale seen; out[3 + t]: thread t's value. */
__global__ void k_coop(int *count, int grid_target, int pe_target, double half, launch_tag_t tag,
                       long *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    int me = nvshmem_my_pe(), n = nvshmem_n_pes(), pe;

    if (threadIdx.x == 0) {
        nvshmem_int_atomic_add(&count[0], 1, me);
        nvshmem_int_wait_until(&count[0], NVSHMEM_CMP_GE, grid_target);
    }
    if (t == 0) {
        for (pe = 0; pe < n; pe++)
            nvshmem_int_atomic_add(&count[1], 1, pe);
        nvshmem_int_wait_until(&count[1], NVSHMEM_CMP_GE, pe_target);
        out[0] = gridDim.x;
        out[1] = blockDim.x;
        out[2] = tag.scale;
    }
    out[3 + t] = (long)(half * 2) * tag.scale + tag.tag[t % 8] + t;
}

/* What k_coop's thread t writes, for the parameters the launch passed. */
static long expected(long twice, int scale, const char *tag, unsigned t)
{
    return twice * scale + tag[t % 8] + t;
}

static void check_run(const char *what, const long *out, unsigned grid, long twice, int scale,
                      const char *tag)
{
    unsigned t, bad = 0, first = 0;

    GPU_CHECK_EQ(what, grid, out[0]);
    GPU_CHECK_EQ(what, THREADS, out[1]);
    GPU_CHECK_EQ(what, scale, out[2]);
    for (t = 0; t < grid * THREADS; t++)
        if (out[3 + t] != expected(twice, scale, tag, t) && bad++ == 0)
            first = t;
    GPU_CHECK(bad == 0,
              "%s: %u of %u threads wrote a wrong value, the first thread %u (%ld, "
              "expected %ld)",
              what, bad, grid * THREADS, first, out[3 + first], expected(twice, scale, tag, first));
}

int main(void)
{
    int me, n_pes, *count, most = 0, sms = 0, grid_target, pe_target;
    double half = 10.5;
    launch_tag_t tag = {"abcdefg", 3};
    void *args[6];
    cudaStream_t stream;
    long *out;

    shmem_init();
    gpu_test_start("gpu_launch", 0);
    me = shmem_my_pe();
    n_pes = shmem_n_pes();
    count = (int *)shmem_calloc(2, sizeof(int));
    GPU_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    GPU_CHECK_EQ("query's return", 0,
                 nvshmemx_collective_launch_query_gridsize((const void *)k_coop, dim3(THREADS),
                                                           args, 0, &most));
    GPU_CHECK(most >= sms,
              "the query says %d blocks of %d threads fit, fewer than the GPU's %d "
              "multiprocessors",
              most, THREADS, sms);
    out = gpu_test_results<long>(3 + (size_t)most * THREADS);
    args[0] = &count;
    args[1] = &grid_target;
    args[2] = &pe_target;
    args[3] = &half;
    args[4] = &tag;
    args[5] = &out;

    /* 1: gridDims 0 takes the most that fit; the host's copies change at once */
    grid_target = most;
    pe_target = n_pes;
    GPU_CHECK_EQ("launch's return", 0,
                 nvshmemx_collective_launch(k_coop, dim3(0), dim3(THREADS), args, 0, NULL));
    half = -1;
    tag.scale = -1;
    tag.tag[0] = 'X';
    GPU_CUDA(cudaDeviceSynchronize());
    check_run("grid of 0", out, (unsigned)most, 21, 3, "abcdefg");
    shmem_barrier_all();

    /* 2: an explicit grid, on a stream of its own */
    half = 2;
    tag.scale = 5 + me;
    grid_target = most + EXPLICIT_GRID;
    pe_target = 2 * n_pes;
    GPU_CUDA(cudaStreamCreate(&stream));
    GPU_CHECK_EQ(
        "launch's return", 0,
        nvshmemx_collective_launch(k_coop, dim3(EXPLICIT_GRID), dim3(THREADS), args, 0, stream));
    GPU_CUDA(cudaStreamSynchronize(stream));
    check_run("explicit grid", out, EXPLICIT_GRID, 4, 5 + me, "Xbcdefg");
    shmem_barrier_all();

#ifndef SHOAL_DEV_ON_CPU
    /* 3: the C form, the kernel cast as NVSHMEM programs cast it */
    grid_target = most + 2 * EXPLICIT_GRID;
    pe_target = 3 * n_pes;
    GPU_CHECK_EQ("launch's return", 0,
                 nvshmemx_collective_launch((const void *)k_coop, dim3(EXPLICIT_GRID),
                                            dim3(THREADS), args, 0, stream));
    GPU_CUDA(cudaStreamSynchronize(stream));
    check_run("C form", out, EXPLICIT_GRID, 4, 5 + me, "Xbcdefg");
    shmem_barrier_all();
#endif
    GPU_CUDA(cudaStreamDestroy(stream));
    if (me == 0)
        printf("gpu_launch: collective launches of up to %d blocks of %d threads at %d PEs\n", most,
               THREADS, n_pes);
    return gpu_test_finish("gpu_launch");
}
