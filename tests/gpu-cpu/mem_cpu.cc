/* The CPU engine's device memory and CUDA IPC (cuda_runtime_api.h): each
 * cudaMalloc is a memfd mapped in this process, so a peer reaches it only
 * after cudaIpcOpenMemHandle has mapped the same memfd through /proc/PID/fd,
 * as a GPU's peers reach its memory only through an opened handle. Test code:
 * never part of libshoal or libshoal_gpu. */
#include <cuda_runtime_api.h> /* this directory's */

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <vector>

/* What a handle carries: the allocating process and its memfd. */
typedef struct mem_handle {
    uint64_t magic;
    int64_t pid;
    int64_t fd;
    uint64_t size;
} mem_handle_t;

static_assert(sizeof(mem_handle_t) <= sizeof(cudaIpcMemHandle_t), "a handle fits CUDA's");

#define HANDLE_MAGIC 0x73686f616c697063ull /* "shoalipc" */

typedef struct mapping {
    char *base;
    size_t size;
    int fd; /* the memfd of an allocation; -1 for an opened peer's */
} mapping_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static std::vector<mapping_t> maps;

/* The mapping containing p (locked by the caller), or NULL. */
static mapping_t *find(const void *p)
{
    for (mapping_t &m : maps)
        if ((uintptr_t)p - (uintptr_t)m.base < m.size)
            return &m;
    return NULL;
}

cudaError_t cudaMalloc(void **p, size_t size)
{
    int fd = memfd_create("shoal-devcpu", MFD_CLOEXEC);
    void *base;

    if (fd < 0)
        return cudaErrorMemoryAllocation;
    if (size == 0)
        size = 1;
    if (ftruncate(fd, (off_t)size) != 0 ||
        (base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
        close(fd);
        return cudaErrorMemoryAllocation;
    }
    pthread_mutex_lock(&lock);
    maps.push_back({(char *)base, size, fd});
    pthread_mutex_unlock(&lock);
    *p = base;
    return cudaSuccess;
}

/* Unmaps the allocation or the opened peer's allocation starting at p (own:
 * whether it must be an allocation). */
static cudaError_t unmap(void *p, int own)
{
    cudaError_t rc = cudaErrorInvalidDevicePointer;
    size_t i;

    pthread_mutex_lock(&lock);
    for (i = 0; i < maps.size(); i++) {
        mapping_t m = maps[i];

        if (m.base != p || (m.fd >= 0) != own)
            continue;
        munmap(m.base, m.size);
        if (m.fd >= 0)
            close(m.fd);
        maps.erase(maps.begin() + (long)i);
        rc = cudaSuccess;
        break;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

cudaError_t cudaFree(void *p)
{
    return p == NULL ? cudaSuccess : unmap(p, 1);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    (void)kind;
    memmove(dst, src, count);
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    (void)stream;
    return cudaMemcpy(dst, src, count, kind);
}

cudaError_t cudaMemset(void *p, int value, size_t count)
{
    memset(p, value, count);
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t count, cudaStream_t stream)
{
    (void)stream;
    return cudaMemset(p, value, count);
}

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *p)
{
    mem_handle_t h;
    mapping_t *m;

    memset(handle, 0, sizeof(*handle));
    pthread_mutex_lock(&lock);
    m = find(p);
    if (m == NULL || m->fd < 0 || m->base != p) {
        pthread_mutex_unlock(&lock);
        return cudaErrorInvalidValue;
    }
    h = {HANDLE_MAGIC, (int64_t)getpid(), (int64_t)m->fd, (uint64_t)m->size};
    pthread_mutex_unlock(&lock);
    memcpy(handle, &h, sizeof(h));
    return cudaSuccess;
}

cudaError_t cudaIpcOpenMemHandle(void **p, cudaIpcMemHandle_t handle, unsigned flags)
{
    mem_handle_t h;
    char path[64];
    void *base;
    int fd;

    (void)flags;
    memcpy(&h, &handle, sizeof(h));
    if (h.magic != HANDLE_MAGIC || h.pid == (int64_t)getpid()) /* CUDA refuses its own too */
        return cudaErrorInvalidResourceHandle;
    snprintf(path, sizeof(path), "/proc/%lld/fd/%lld", (long long)h.pid, (long long)h.fd);
    fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return cudaErrorMapBufferObjectFailed;
    base = mmap(NULL, h.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED)
        return cudaErrorMapBufferObjectFailed;
    pthread_mutex_lock(&lock);
    maps.push_back({(char *)base, (size_t)h.size, -1});
    pthread_mutex_unlock(&lock);
    *p = base;
    return cudaSuccess;
}

cudaError_t cudaIpcCloseMemHandle(void *p)
{
    return unmap(p, 0);
}

size_t shoal_dev_cpu_mapped(const void *p)
{
    mapping_t *m;
    size_t size;

    pthread_mutex_lock(&lock);
    m = find(p);
    size = m != NULL ? m->size : 0;
    pthread_mutex_unlock(&lock);
    return size;
}
