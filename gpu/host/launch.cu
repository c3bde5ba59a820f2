/* nvshmemx_collective_launch and nvshmemx_collective_launch_query_gridsize: a
 * kernel launched so that all its blocks run at once (CUDA's cooperative launch),
 * which a kernel needs when its blocks wait for each other or for other PEs'
 * kernels (device barriers, waits, collectives). The sizing and every argument
 * check are here, for both builds; under nvcc the launch is
 * cudaLaunchCooperativeKernel. The CPU engine cannot call a kernel it knows only
 * as a const void * with an array of parameter addresses, so its launch is the
 * typed template in nvshmemx.h, which binds the parameters and calls
 * shoal_gpu_collective_launch_cpu below. */
#include "shoal_gpu.h"
#include "nvshmem.h"
#include "nvshmemx.h"

#define LAUNCH "nvshmemx_collective_launch"
#define QUERY "nvshmemx_collective_launch_query_gridsize"

static unsigned long long extent(dim3 d)
{
    return (unsigned long long)d.x * d.y * d.z;
}

static int device_attr(const shoal_gpu_env_t *env, enum cudaDeviceAttr attr, const char *what,
                       const char *routine)
{
    int dev = 0, value = 0;
    cudaError_t rc = cudaGetDevice(&dev);

    if (rc == cudaSuccess)
        rc = cudaDeviceGetAttribute(&value, attr, dev);
    if (rc != cudaSuccess)
        env->fatal("%s: cannot read the GPU's %s: %s", routine, what, cudaGetErrorString(rc));
    return value;
}

/* The CPU engine runs the x extent only: d (argument arg) must have no other. */
static void one_dimensional(const shoal_gpu_env_t *env, dim3 d, const char *arg, const char *what,
                            const char *routine)
{
#ifdef SHOAL_DEV_ON_CPU
    if (d.y != 1 || d.z != 1)
        env->fatal("%s: argument %s is %ux%ux%u; the CPU engine runs one-dimensional %s only",
                   routine, arg, d.x, d.y, d.z, what);
#else
    (void)env, (void)d, (void)arg, (void)what, (void)routine;
#endif
}

/* The threads of a block of blockDims, checked: 1 to the GPU's most. */
static unsigned block_threads(const shoal_gpu_env_t *env, dim3 block, const char *routine)
{
    unsigned long long n = extent(block);
    int most = device_attr(env, cudaDevAttrMaxThreadsPerBlock, "most threads per block", routine);

    if (n == 0 || n > (unsigned long long)most)
        env->fatal("%s: argument blockDims is %ux%ux%u (%llu threads), expected 1 to %d threads "
                   "per block",
                   routine, block.x, block.y, block.z, n, most);
    one_dimensional(env, block, "blockDims", "blocks", routine);
    return (unsigned)n;
}

/* The most blocks of threads threads, with smem bytes of dynamic shared memory
 * each, that are resident on this PE's GPU at once: all a cooperative launch may
 * start. 0 where not even one block fits. */
static int coop_blocks(const shoal_gpu_env_t *env, const void *func, unsigned threads, size_t smem,
                       const char *routine)
{
    int sms, per_sm = 0;
    cudaError_t rc;

    if (!device_attr(env, cudaDevAttrCooperativeLaunch, "support for cooperative launches",
                     routine))
        env->fatal("%s: this PE's GPU cannot make cooperative launches (CUDA's "
                   "cudaDevAttrCooperativeLaunch is 0), which the routine needs",
                   routine);
    sms = device_attr(env, cudaDevAttrMultiProcessorCount, "multiprocessor count", routine);
    rc = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, (int)threads, smem);
    if (rc != cudaSuccess)
        env->fatal("%s: cannot size a cooperative launch of kernel %p with %u threads per "
                   "block and %zu bytes of dynamic shared memory: %s",
                   routine, func, threads, smem, cudaGetErrorString(rc));
    return sms * per_sm;
}

static void check_func(const shoal_gpu_env_t *env, const void *func, const char *routine)
{
    if (func == NULL)
        env->fatal("%s: argument func is NULL, expected the kernel to launch", routine);
}

extern "C" int nvshmemx_collective_launch_query_gridsize(const void *func, dim3 blockDims,
                                                         void **args, size_t sharedMem,
                                                         int *gridsize)
{
    const shoal_gpu_env_t *env = shoal_gpu_stream_env(QUERY);

    (void)args; /* CUDA sizes a launch without its parameters' values */
    check_func(env, func, QUERY);
    if (gridsize == NULL)
        env->fatal("%s: argument gridsize is NULL, expected where to write the number of "
                   "blocks",
                   QUERY);
    *gridsize = coop_blocks(env, func, block_threads(env, blockDims, QUERY), sharedMem, QUERY);
    return 0;
}

/* The grid to launch, checked: gridDims, or where it has no block the most that
 * fit; never more blocks than fit at once. */
static dim3 coop_grid(const shoal_gpu_env_t *env, const void *func, dim3 grid, dim3 block,
                      size_t smem, void **args, size_t nparams)
{
    unsigned threads;
    int most;

    check_func(env, func, LAUNCH);
    if (args == NULL && nparams > 0)
        env->fatal("%s: argument args is NULL, expected the addresses of the kernel's "
                   "parameters (it takes %zu)",
                   LAUNCH, nparams);
    threads = block_threads(env, block, LAUNCH);
    most = coop_blocks(env, func, threads, smem, LAUNCH);
    if (most == 0)
        env->fatal("%s: not one block of %u threads with %zu bytes of dynamic shared memory "
                   "fits on this PE's GPU",
                   LAUNCH, threads, smem);
    if (extent(grid) == 0)
        return dim3((unsigned)most, 1, 1);
    if (extent(grid) > (unsigned long long)most)
        env->fatal("%s: argument gridDims is %ux%ux%u (%llu blocks), more than the %d blocks "
                   "of %u threads that run at once on this PE's GPU; all of them must, in a "
                   "cooperative launch (nvshmemx_collective_launch_query_gridsize tells the "
                   "most, and a gridDims of 0 takes it)",
                   LAUNCH, grid.x, grid.y, grid.z, extent(grid), most, threads);
    one_dimensional(env, grid, "gridDims", "grids", LAUNCH);
    return grid;
}

#ifdef SHOAL_DEV_ON_CPU
int shoal_gpu_collective_launch_cpu(const void *func, dim3 gridDims, dim3 blockDims, void **args,
                                    size_t nparams, size_t sharedMem, cudaStream_t stream,
                                    std::function<std::function<void()>()> bind)
{
    const shoal_gpu_env_t *env = shoal_gpu_stream_env(LAUNCH);
    dim3 grid = coop_grid(env, func, gridDims, blockDims, sharedMem, args, nparams);

    /* bound only now that args is known to be there: the values are copied at
     * the launch, as CUDA copies them into the kernel's parameter space */
    shoal_dev_cpu_launch_on(stream, grid.x, blockDims.x, bind());
    shoal_gpu_check_enqueued(env, LAUNCH);
    return 0;
}
#else
extern "C" int nvshmemx_collective_launch(const void *func, dim3 gridDims, dim3 blockDims,
                                          void **args, size_t sharedMem, cudaStream_t stream)
{
    const shoal_gpu_env_t *env = shoal_gpu_stream_env(LAUNCH);
    dim3 grid = coop_grid(env, func, gridDims, blockDims, sharedMem, args, 0);
    cudaError_t rc = cudaLaunchCooperativeKernel(func, grid, blockDims, args, sharedMem, stream);

    if (rc != cudaSuccess)
        env->fatal("%s: the cooperative launch of kernel %p (%ux%ux%u blocks of %ux%ux%u "
                   "threads) failed: %s",
                   LAUNCH, func, grid.x, grid.y, grid.z, blockDims.x, blockDims.y, blockDims.z,
                   cudaGetErrorString(rc));
    return 0;
}
#endif
