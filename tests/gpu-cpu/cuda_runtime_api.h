/* The few CUDA runtime names that Shoal's GPU headers and tests use, for the CPU
 * engine, where no CUDA is installed: found first on this directory's include
 * path, in place of CUDA's header. The "device" is the CPU: a launch starts
 * threads of this PE (dev_cpu.cc), and host memory is device memory. */
#ifndef SHOAL_DEV_CPU_RUNTIME_H
#define SHOAL_DEV_CPU_RUNTIME_H

#ifndef SHOAL_DEV_ON_CPU
#error "tests/gpu-cpu/cuda_runtime_api.h is for the CPU engine only (with shoal_dev_port.h)"
#endif

#include <stdlib.h>
#include <string.h>

#include <functional>

/* As CUDA declares it, so that nvshmemx.h's stream prototypes read the same. */
typedef struct CUstream_st *cudaStream_t;

/* CUDA's values, for the codes a test may see here. */
typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorMapBufferObjectFailed = 205,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorLaunchOutOfResources = 701,
} cudaError_t;

#define cudaHostAllocDefault 0u
#define cudaHostAllocMapped 2u
#define cudaStreamDefault 0u
#define cudaStreamNonBlocking 1u

static inline const char *cudaGetErrorString(cudaError_t rc)
{
    switch (rc) {
    case cudaSuccess:
        return "no error";
    case cudaErrorInvalidValue:
        return "invalid argument";
    case cudaErrorMemoryAllocation:
        return "out of memory";
    case cudaErrorInvalidDevicePointer:
        return "invalid device pointer";
    case cudaErrorMapBufferObjectFailed:
        return "mapping of buffer object failed";
    case cudaErrorInvalidResourceHandle:
        return "invalid resource handle";
    case cudaErrorNotReady:
        return "device not ready";
    case cudaErrorLaunchOutOfResources:
        return "cannot start a kernel thread";
    }
    return "unknown error";
}

/* The CPU engine is always there: one device per PE. */
static inline cudaError_t cudaGetDeviceCount(int *count)
{
    *count = 1;
    return cudaSuccess;
}

/* Mapped host memory is plain memory here, zeroed like the tests expect of it. */
static inline cudaError_t cudaHostAlloc(void **p, size_t size, unsigned flags)
{
    (void)flags;
    *p = calloc(1, size ? size : 1);
    return *p != NULL ? cudaSuccess : cudaErrorMemoryAllocation;
}

static inline cudaError_t cudaFreeHost(void *p)
{
    free(p);
    return cudaSuccess;
}

/* The host's address is the device's. */
static inline cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags)
{
    (void)flags;
    *dev = host;
    return cudaSuccess;
}

/* One device: every thread's. */
static inline cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? cudaSuccess : cudaErrorInvalidValue;
}

static inline cudaError_t cudaGetDevice(int *device)
{
    *device = 0;
    return cudaSuccess;
}

/* Device memory and IPC (mem_cpu.cc), with CUDA's rules: cudaMalloc gives a
 * mapping of its own (a memfd), which no other process reaches until it opens
 * the allocation's handle with cudaIpcOpenMemHandle (it maps the memfd through
 * /proc/PID/fd); opening in the allocating process fails, as on a GPU;
 * cudaIpcCloseMemHandle unmaps. Copies and sets are done when they return. */
typedef struct cudaIpcMemHandle_st {
    char reserved[64];
} cudaIpcMemHandle_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

#define cudaIpcMemLazyEnablePeerAccess 1u

cudaError_t cudaMalloc(void **p, size_t size);
/* A __device__ variable is a plain one here. */
template <typename T>
static inline cudaError_t cudaMemcpyToSymbol(T &symbol, const void *src, size_t count,
                                             size_t offset = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    (void)kind;
    memcpy((char *)&symbol + offset, src, count);
    return cudaSuccess;
}
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
/* Done when it returns, like cudaMemsetAsync: a caller orders it after the
 * stream's launches by synchronizing the stream first. */
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemset(void *p, int value, size_t count);
cudaError_t cudaMemsetAsync(void *p, int value, size_t count, cudaStream_t stream);
cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *p);
cudaError_t cudaIpcOpenMemHandle(void **p, cudaIpcMemHandle_t handle, unsigned flags);
cudaError_t cudaIpcCloseMemHandle(void *p);
/* The bytes of cudaMalloc memory mapped at p in this process (its own or an
 * opened peer's), 0 where p is in none: what a test checks after a close. */
size_t shoal_dev_cpu_mapped(const void *p);

/* Launch shapes, as CUDA declares them; the engine runs the x extent only. */
struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz)
    {
    }
};

/* The engine's "device" (dev_cpu.cc), for what a cooperative launch asks of it:
 * SHOAL_DEV_CPU_SMS multiprocessors, each holding up to
 * SHOAL_DEV_CPU_SM_THREADS kernel threads in at most SHOAL_DEV_CPU_SM_BLOCKS
 * blocks, and SHOAL_DEV_CPU_SM_SHARED bytes of dynamic shared memory (which the
 * engine never gives a kernel: a launch only sizes against it). It makes
 * cooperative launches, unless SHOAL_DEV_CPU_COOP is 0. */
#define SHOAL_DEV_CPU_SMS 2
#define SHOAL_DEV_CPU_SM_THREADS 256
#define SHOAL_DEV_CPU_SM_BLOCKS 8
#define SHOAL_DEV_CPU_SM_SHARED (96 * 1024)
#define SHOAL_DEV_CPU_BLOCK_THREADS 1024

/* CUDA's values. */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrCooperativeLaunch = 95
};
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
/* Blocks of blockSize threads, each with dynamicSMemSize bytes of shared
 * memory, that one multiprocessor holds at once (func: any kernel, all alike). */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize);

/* Starts grid x block threads running kernel, each with its own blockIdx and
 * threadIdx (x only), and returns at once, as a launch does. */
void shoal_dev_cpu_launch(unsigned grid, unsigned block, std::function<void()> kernel);
/* Whether the calling thread is a kernel's (a launch started it): where a
 * routine that is host and device takes its device half. */
int shoal_dev_cpu_in_kernel(void);
/* The error of the last launch (a thread that could not start), then cleared. */
cudaError_t cudaGetLastError(void);
/* Waits for every stream to be idle, then for every kernel thread launched so far. */
cudaError_t cudaDeviceSynchronize(void);

/* Streams (stream_cpu.cc): each a FIFO whose worker thread starts a launch once
 * the one before it has ended; NULL is the default stream, a worker of its own
 * that does not synchronize with the others. */
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
/* cudaSuccess when idle, cudaErrorNotReady while work is queued or running. */
cudaError_t cudaStreamQuery(cudaStream_t stream);
/* kernel<<<grid, block, 0, stream>>>: queues the launch and returns at once
 * (shoal_gpu_launch.h's SHOAL_GPU_LAUNCH_ON). */
void shoal_dev_cpu_launch_on(cudaStream_t stream, unsigned grid, unsigned block,
                             std::function<void()> kernel);
/* Returns once every stream is idle: cudaDeviceSynchronize's first step. */
void shoal_dev_cpu_streams_drain(void);

#endif
