/* The CPU engine's host side: what gpu/host/init.cu does for a GPU, for kernels
 * that are threads of the PE. Its hooks hand the device engine (gpu/device, built
 * as host code) this PE's heap and the same-node peers' mapped heaps, a launch
 * starts threads, and a device error's trap is reported by gpu/host/status.cu as
 * on a GPU. Test code: never installed, never part of libshoal or libshoal_gpu. */
#include "shoal_gpu.h"
#include "shoal_gpu_host.h" /* shoal_gpu_gheap_coll */
/* In the host routines' library: a weak reference, NULL in the hooks where a
 * program does not link it (the API then says that the GPU library linked makes
 * no collectives on the GPU heap). */
#pragma weak shoal_gpu_gheap_coll
#include "shoal_log.h" /* SHOAL_LOG_* levels only */
#include "shmem.h"

#include <cuda_runtime_api.h> /* this directory's: the launch and sync */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memory>
#include <vector>

shoal_gpu_t shoal_gpu;
thread_local shoal_dev_dim_t threadIdx, blockIdx, blockDim, gridDim;

static void cpu_init(const shoal_gpu_env_t *env, char *summary, size_t len)
{
    int pe, mapped = 0;
    char proxy_what[128], gheap_what[128];

    shoal_gpu.env = env;
    shoal_gpu.peer_heap = (char **)calloc((size_t)env->n_pes, sizeof(char *));
    shoal_gpu.status = (shoal_dev_status_t *)calloc(1, sizeof(shoal_dev_status_t));
    if (shoal_gpu.peer_heap == NULL || shoal_gpu.status == NULL)
        env->fatal("shmem_init: out of memory for the CPU engine's table of %d heaps", env->n_pes);
    /* The "device" addresses are the host's: each reachable heap where this
     * process maps it. */
    for (pe = 0; pe < env->n_pes; pe++) {
        size_t size = 0;

        shoal_gpu.peer_heap[pe] = (char *)env->peer_heap(pe, &size);
        mapped += pe != env->my_pe && shoal_gpu.peer_heap[pe] != NULL;
    }
    shoal_gpu.state.my_pe = env->my_pe;
    shoal_gpu.state.n_pes = env->n_pes;
    /* The team slots' words and the predefined teams, as gpu/host/init.cu
     * makes them (collective). */
    shoal_gpu_teams_setup(env);
    shoal_gpu_teams_shared(shoal_gpu.peer_heap);
    shoal_gpu.state.heap_base = (uintptr_t)env->heap_base;
    shoal_gpu.state.heap_size = env->heap_size;
    shoal_gpu.state.peer_heap = shoal_gpu.peer_heap;
    shoal_gpu.state.status = shoal_gpu.status;
    /* The GPU heap as on a GPU: cudaMalloc and CUDA IPC are mem_cpu.cc's. */
    shoal_gpu_gheap_setup(env, 1, gheap_what, sizeof(gheap_what));
    /* The host proxy as on a GPU whose atomics are the CPU's, or, with
     * DEVCPU_NO_HOST_ATOMICS=1, as on a PCIe GPU without native host atomics:
     * the proxy then carries every atomic while puts and gets stay load/store.
     * A test's knob, not a setting: a SHOAL_ name would draw shmem_init's
     * unknown-setting warning. The ring is plain memory. */
    const char *no_host_atomics = getenv("DEVCPU_NO_HOST_ATOMICS");
    int native = no_host_atomics == NULL || strcmp(no_host_atomics, "1") != 0;

    if (shoal_gpu_proxy_plan(env, shoal_gpu.peer_heap, native, &shoal_gpu.state, proxy_what,
                             sizeof(proxy_what))) {
        shoal_gpu.ring = (shoal_proxy_ring_t *)calloc(1, sizeof(shoal_proxy_ring_t));
        if (shoal_gpu.ring == NULL)
            env->fatal("shmem_init: out of memory for the GPU proxy's ring");
        shoal_gpu_proxy_start(shoal_gpu.ring);
        shoal_gpu.state.proxy = shoal_gpu.ring;
    }
    shoal_dev_state = shoal_gpu.state; /* before any kernel thread starts */
    shoal_gpu.active = 1;
    snprintf(summary, len,
             "CPU engine (a test build: kernels are threads of the PE): this PE's heap and %d "
             "same-node peers' heaps reachable, %d PEs not mapped; %s; %s",
             mapped, env->n_pes - 1 - mapped, gheap_what, proxy_what);
    env->log(SHOAL_LOG_INFO, "GPU: %s", summary);
}

static void cpu_finalize(void)
{
    static const shoal_dev_state_t none = {};

    /* Kernels started after this fail with "not set up". */
    shoal_dev_state = none;
    shoal_gpu_proxy_stop();
    shoal_gpu_gheap_cleanup();
    free(shoal_gpu.ring);
    free(shoal_gpu.peer_heap);
    free(shoal_gpu.status);
    memset(&shoal_gpu, 0, sizeof(shoal_gpu));
}

SHOAL_GPU_REGISTER_HOOKS(cpu_init, cpu_finalize, shoal_gpu_gheap_coll)

void shoal_dev_cpu_trap(void)
{
    /* The record is complete (shoal_dev_fail wrote its code last): the host's
     * check prints the line and ends the job, here and now. */
    shoal_gpu_check();
    /* No record: the engine was not set up, and shoal_dev_fail printed why. */
    fflush(stdout);
    _exit(1);
}

/* Kernel threads. */

/* What the threads of one block share: the barriers of __syncthreads and of
 * each warp's __syncwarp. Freed with the block's last thread's record. */
typedef struct block_sync {
    pthread_barrier_t block;
    std::vector<pthread_barrier_t> warps;

    block_sync(unsigned n) : warps((n + warpSize - 1) / warpSize)
    {
        unsigned w;

        pthread_barrier_init(&block, NULL, n);
        for (w = 0; w < warps.size(); w++) {
            unsigned left = n - w * warpSize;

            pthread_barrier_init(&warps[w], NULL, left < (unsigned)warpSize ? left : warpSize);
        }
    }
    ~block_sync()
    {
        pthread_barrier_destroy(&block);
        for (pthread_barrier_t &b : warps)
            pthread_barrier_destroy(&b);
    }
} block_sync_t;

typedef struct kernel_thread {
    std::function<void()> kernel;
    shoal_dev_dim_t block_idx, thread_idx, grid_dim, block_dim;
    std::shared_ptr<block_sync_t> sync;
    pthread_t tid;
} kernel_thread_t;

static thread_local kernel_thread_t *self;

int shoal_dev_cpu_in_kernel(void)
{
    return self != NULL;
}

void shoal_dev_cpu_syncthreads(void)
{
    pthread_barrier_wait(&self->sync->block);
}

void shoal_dev_cpu_syncwarp(void)
{
    pthread_barrier_wait(&self->sync->warps[self->thread_idx.x / warpSize]);
}

static pthread_mutex_t launch_lock = PTHREAD_MUTEX_INITIALIZER;
static cudaError_t launch_error = cudaSuccess;

/* The threads launched and not yet joined. Made once and never freed: a stream's
 * worker (stream_cpu.cc) may launch after main has returned, when exit's
 * destructors would have freed a static vector. */
static std::vector<kernel_thread_t *> &launch_list(void)
{
    static std::vector<kernel_thread_t *> *launched = new std::vector<kernel_thread_t *>;

    return *launched;
}

static void *kernel_main(void *arg)
{
    kernel_thread_t *k = (kernel_thread_t *)arg;

    self = k;
    blockIdx = k->block_idx;
    threadIdx = k->thread_idx;
    gridDim = k->grid_dim;
    blockDim = k->block_dim;
    k->kernel();
    return NULL;
}

void shoal_dev_cpu_launch(unsigned grid, unsigned block, std::function<void()> kernel)
{
    unsigned b, t;

    pthread_mutex_lock(&launch_lock);
    for (b = 0; b < grid; b++) {
        std::shared_ptr<block_sync_t> sync = std::make_shared<block_sync_t>(block);

        for (t = 0; t < block; t++) {
            kernel_thread_t *k = new kernel_thread_t;

            k->kernel = kernel;
            k->block_idx = {b, 0, 0};
            k->thread_idx = {t, 0, 0};
            k->grid_dim = {grid, 1, 1};
            k->block_dim = {block, 1, 1};
            k->sync = sync;
            if (pthread_create(&k->tid, NULL, kernel_main, k) != 0) {
                delete k;
                launch_error = cudaErrorLaunchOutOfResources;
                continue;
            }
            launch_list().push_back(k);
        }
    }
    pthread_mutex_unlock(&launch_lock);
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    if (device != 0)
        return cudaErrorInvalidValue;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
        *value = SHOAL_DEV_CPU_BLOCK_THREADS;
        return cudaSuccess;
    case cudaDevAttrMultiProcessorCount:
        *value = SHOAL_DEV_CPU_SMS;
        return cudaSuccess;
    case cudaDevAttrCooperativeLaunch: {
        /* Every launch's threads run at once here; SHOAL_DEV_CPU_COOP=0 plays a
         * GPU without cooperative launches (err_gpu_launch_coop). */
        const char *coop = getenv("SHOAL_DEV_CPU_COOP");

        *value = coop == NULL || strcmp(coop, "0") != 0;
        return cudaSuccess;
    }
    }
    return cudaErrorInvalidValue;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize)
{
    int n;

    (void)func;
    if (blockSize <= 0 || blockSize > SHOAL_DEV_CPU_BLOCK_THREADS)
        return cudaErrorInvalidValue;
    n = SHOAL_DEV_CPU_SM_THREADS / blockSize;
    if (n > SHOAL_DEV_CPU_SM_BLOCKS)
        n = SHOAL_DEV_CPU_SM_BLOCKS;
    if (dynamicSMemSize > 0 && (size_t)n > SHOAL_DEV_CPU_SM_SHARED / dynamicSMemSize)
        n = (int)(SHOAL_DEV_CPU_SM_SHARED / dynamicSMemSize);
    *numBlocks = n;
    return cudaSuccess;
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t rc;

    pthread_mutex_lock(&launch_lock);
    rc = launch_error;
    launch_error = cudaSuccess;
    pthread_mutex_unlock(&launch_lock);
    return rc;
}

cudaError_t cudaDeviceSynchronize(void)
{
    std::vector<kernel_thread_t *> done;

    shoal_dev_cpu_streams_drain(); /* stream_cpu.cc: their launches join the list */
    pthread_mutex_lock(&launch_lock);
    done.swap(launch_list());
    pthread_mutex_unlock(&launch_lock);
    for (kernel_thread_t *k : done) {
        pthread_join(k->tid, NULL);
        delete k;
    }
    return cudaSuccess;
}
