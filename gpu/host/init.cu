/* Joins a PE's start-up and shut-down through libshoal's GPU hooks: registers the
 * symmetric heap and every same-node peer's heap with the current GPU (mapped, so
 * the same addresses work in kernels), and hands the device engine its state.
 * Without a usable GPU it says so once and does nothing else. */
#include "shoal_gpu.h"
#include "shoal_gpu_host.h" /* shoal_gpu_gheap_coll */
#include "shoal_log.h" /* SHOAL_LOG_* levels only: libshoal exports no log routine */

#include "shmem.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

shoal_gpu_t shoal_gpu;

static void cuda_fail(const char *what, cudaError_t rc)
{
    shoal_gpu.env->fatal("shmem_init: %s failed on GPU %d: %s (%s)", what, shoal_gpu.device,
                         cudaGetErrorString(rc), cudaGetErrorName(rc));
}

static void register_heaps(const shoal_gpu_env_t *env, int *mapped_out)
{
    int pe, mapped = 0;

    for (pe = 0; pe < env->n_pes; pe++) {
        size_t size = 0;
        void *host = env->peer_heap(pe, &size), *dev = NULL;
        cudaError_t rc;

        if (host == NULL)
            continue;
        /* Pins the whole heap: its pages become resident now. */
        rc = cudaHostRegister(host, size, cudaHostRegisterMapped | cudaHostRegisterPortable);
        if (rc != cudaSuccess)
            env->fatal("shmem_init: cannot register %s symmetric heap (%zu bytes at %p) with "
                       "GPU %d: %s; lower SHMEM_SYMMETRIC_SIZE or raise the locked-memory "
                       "limit (ulimit -l)",
                       pe == env->my_pe ? "this PE's" : "a same-node peer's", size, host,
                       shoal_gpu.device, cudaGetErrorString(rc));
        shoal_gpu.registered[pe] = host;
        rc = cudaHostGetDevicePointer(&dev, host, 0);
        if (rc != cudaSuccess)
            cuda_fail("cudaHostGetDevicePointer", rc);
        shoal_gpu.peer_heap[pe] = (char *)dev;
        mapped += pe != env->my_pe;
    }
    *mapped_out = mapped;
}

/* The status block, in mapped pinned host memory: the host reads it even after
 * a trap has left the GPU's context unusable. */
static shoal_dev_status_t *status_create(shoal_dev_status_t **dev_out)
{
    void *host = NULL, *dev = NULL;
    cudaError_t rc;

    rc = cudaHostAlloc(&host, sizeof(shoal_dev_status_t),
                       cudaHostAllocMapped | cudaHostAllocPortable);
    if (rc != cudaSuccess)
        cuda_fail("cudaHostAlloc of the device error record", rc);
    memset(host, 0, sizeof(shoal_dev_status_t));
    rc = cudaHostGetDevicePointer(&dev, host, 0);
    if (rc != cudaSuccess)
        cuda_fail("cudaHostGetDevicePointer", rc);
    *dev_out = (shoal_dev_status_t *)dev;
    return (shoal_dev_status_t *)host;
}

/* The host proxy's ring, in mapped pinned host memory, and its thread, where
 * shoal_gpu_proxy_plan says this PE needs one. Says what it did in what. */
static void proxy_setup(const shoal_gpu_env_t *env, int native_atomics, char *what, size_t len)
{
    void *host = NULL, *dev = NULL;
    cudaError_t rc;

    if (!shoal_gpu_proxy_plan(env, shoal_gpu.peer_heap, native_atomics, &shoal_gpu.state, what,
                              len))
        return;
    rc = cudaHostAlloc(&host, sizeof(shoal_proxy_ring_t),
                       cudaHostAllocMapped | cudaHostAllocPortable);
    if (rc != cudaSuccess)
        cuda_fail("cudaHostAlloc of the host proxy's ring", rc);
    rc = cudaHostGetDevicePointer(&dev, host, 0);
    if (rc != cudaSuccess)
        cuda_fail("cudaHostGetDevicePointer", rc);
    shoal_gpu.ring = (shoal_proxy_ring_t *)host;
    shoal_gpu_proxy_start(shoal_gpu.ring);
    shoal_gpu.state.proxy = (shoal_proxy_ring_t *)dev;
}

static void gpu_init(const shoal_gpu_env_t *env, char *summary, size_t len)
{
    size_t n = (size_t)env->n_pes;
    int count = 0, native_atomics = 0, mapped;
    char proxy_what[128], gheap_what[128];
    shoal_dev_status_t *status_dev;
    struct cudaDeviceProp prop;
    cudaError_t rc;

    shoal_gpu.env = env;
    shoal_gpu.state.my_pe = env->my_pe;
    shoal_gpu.state.n_pes = env->n_pes;
    /* Before anything can return: every PE makes this collective call, with a
     * GPU or without, so that the heap stays symmetric. It also fills what the
     * host's nvshmem_team_ queries read: without a GPU, the shared team is this
     * PE alone. */
    shoal_gpu_teams_setup(env);
    rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess || count == 0) {
        snprintf(shoal_gpu.why, sizeof(shoal_gpu.why), "cudaGetDeviceCount: %s",
                 rc != cudaSuccess ? cudaGetErrorString(rc) : "no device");
        (void)cudaGetLastError();
        shoal_gpu_gheap_setup(env, 0, gheap_what, sizeof(gheap_what)); /* collective */
        snprintf(summary, len, "none (%s): nvshmem device routines unavailable, host API as usual",
                 shoal_gpu.why);
        env->log(SHOAL_LOG_INFO, "GPU: %s", summary);
        return;
    }
    rc = cudaGetDevice(&shoal_gpu.device);
    if (rc == cudaSuccess)
        rc = cudaGetDeviceProperties(&prop, shoal_gpu.device);
    if (rc != cudaSuccess)
        cuda_fail("cudaGetDeviceProperties", rc);
    cudaDeviceGetAttribute(&native_atomics, cudaDevAttrHostNativeAtomicSupported,
                           shoal_gpu.device);

    shoal_gpu.peer_heap = (char **)calloc(n, sizeof(char *));
    shoal_gpu.registered = (void **)calloc(n, sizeof(void *));
    if (shoal_gpu.peer_heap == NULL || shoal_gpu.registered == NULL)
        env->fatal("shmem_init: out of memory for the GPU's table of %d heaps", env->n_pes);
    shoal_gpu.status = status_create(&status_dev);
    register_heaps(env, &mapped);
    rc = cudaMalloc((void **)&shoal_gpu.table_dev, n * sizeof(char *));
    if (rc == cudaSuccess)
        rc = cudaMemcpy(shoal_gpu.table_dev, shoal_gpu.peer_heap, n * sizeof(char *),
                        cudaMemcpyHostToDevice);
    if (rc != cudaSuccess)
        cuda_fail("copying the table of heaps to the GPU", rc);

    shoal_gpu_teams_shared(shoal_gpu.peer_heap);
    shoal_gpu.state.heap_base = (uintptr_t)env->heap_base;
    shoal_gpu.state.heap_size = env->heap_size;
    shoal_gpu.state.peer_heap = shoal_gpu.table_dev;
    shoal_gpu.state.status = status_dev;
    /* state.psync: reserved above, a heap address like the user's. */
    shoal_gpu_gheap_setup(env, 1, gheap_what, sizeof(gheap_what));
    proxy_setup(env, native_atomics, proxy_what, sizeof(proxy_what));
    rc = cudaMemcpyToSymbol(shoal_dev_state, &shoal_gpu.state, sizeof(shoal_gpu.state));
    if (rc != cudaSuccess)
        cuda_fail("cudaMemcpyToSymbol of the device state", rc);
    shoal_gpu.active = 1;
    shoal_gpu_monitor_start();

    /* Where the GPU cannot use host pointers for registered memory, the engine
     * translates (it keeps the device addresses); the user's own loads cannot. */
    if (shoal_gpu.peer_heap[env->my_pe] != (char *)env->heap_base)
        env->log(SHOAL_LOG_WARN, "GPU %d addresses the symmetric heap at %p, not at its host "
                 "address %p: in kernels, reach it through nvshmem_ptr or nvshmem_ routines",
                 shoal_gpu.device, (void *)shoal_gpu.peer_heap[env->my_pe], env->heap_base);
    snprintf(summary, len,
             "device %d (%s): this PE's heap and %d same-node peers' heaps registered, %d PEs "
             "not mapped; GPU atomics on them are %s; %s; %s",
             shoal_gpu.device, prop.name, mapped, env->n_pes - 1 - mapped,
             native_atomics ? "atomic with the CPU's"
                            : "not atomic with concurrent CPU atomics (no native host atomics)",
             gheap_what, proxy_what);
    env->log(SHOAL_LOG_INFO, "GPU: %s", summary);
}

static void gpu_finalize(void)
{
    static const shoal_dev_state_t none = {};
    int pe;

    if (shoal_gpu.active) {
        shoal_gpu_monitor_stop();
        shoal_gpu_proxy_stop();
        /* Kernels launched after this fail with "not set up" instead of touching
         * unmapped memory. Errors are ignored: a trapped kernel leaves the
         * context unusable, and shutting down must go on. */
        (void)cudaMemcpyToSymbol(shoal_dev_state, &none, sizeof(none));
        shoal_gpu_gheap_cleanup();
        for (pe = 0; pe < shoal_gpu.env->n_pes; pe++)
            if (shoal_gpu.registered[pe] != NULL)
                (void)cudaHostUnregister(shoal_gpu.registered[pe]);
        (void)cudaFree(shoal_gpu.table_dev);
        (void)cudaFreeHost(shoal_gpu.status);
        if (shoal_gpu.ring != NULL)
            (void)cudaFreeHost(shoal_gpu.ring);
        (void)cudaGetLastError();
    }
    free(shoal_gpu.peer_heap);
    free(shoal_gpu.registered);
    memset(&shoal_gpu, 0, sizeof(shoal_gpu));
}

/* Every program that links libshoal_gpu joins in: nvlink takes every object of
 * the archive, so this runs whether or not the program calls nvshmem_init. */
SHOAL_GPU_REGISTER_HOOKS(gpu_init, gpu_finalize, shoal_gpu_gheap_coll)
