/* The host routines on the GPU heap (shoal_gpu_hook.h's gheap_owns, _rma and
 * _amo): libshoal's API hands here a put, get or atomic on an nvshmem_malloc
 * address. Where the target PE's GPU heap is mapped here (this PE's own, or a
 * same-node peer's by CUDA IPC) this GPU does it: a copy on a stream of its own,
 * or a one-thread kernel for an atomic; elsewhere the target PE's host proxy
 * does (gheap_remote.cu). The host never loads or stores GPU memory itself, and
 * every operation is complete at its target when the routine returns. */
#include "shoal_device.cuh"
#include "shoal_gpu.h"
#include "shoal_gpu_launch.h"

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t ops_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
    /* Non-blocking: its copies and kernels never wait for the program's work (a
     * kernel may be waiting for exactly this copy). Used under ops_lock. */
    cudaStream_t stream;
    uint64_t *old, *old_dev; /* mapped pinned host memory: the atomic's old value */
    int ready;
} ops;

void shoal_gpu_gheap_ops_setup(const shoal_gpu_env_t *env)
{
    cudaError_t rc = cudaStreamCreateWithFlags(&ops.stream, cudaStreamNonBlocking);

    if (rc == cudaSuccess)
        rc = cudaHostAlloc((void **)&ops.old, sizeof(*ops.old), cudaHostAllocMapped);
    if (rc == cudaSuccess)
        rc = cudaHostGetDevicePointer((void **)&ops.old_dev, ops.old, 0);
    if (rc != cudaSuccess)
        env->fatal("shmem_init: setting up the host's copies into the GPU heap failed: %s",
                   cudaGetErrorString(rc));
    ops.ready = 1;
}

void shoal_gpu_gheap_ops_cleanup(void)
{
    if (!ops.ready)
        return;
    (void)cudaStreamDestroy(ops.stream);
    (void)cudaFreeHost(ops.old);
    (void)cudaGetLastError();
    ops.ready = 0;
}

/* The calling thread works on this PE's GPU for one copy or atomic (a new
 * thread, such as the proxy's, starts on device 0; a program may have made
 * another GPU current): returns the device to restore. */
static int enter_device(void)
{
    int prev = shoal_gpu.device;

    (void)cudaGetDevice(&prev);
    if (prev != shoal_gpu.device)
        (void)cudaSetDevice(shoal_gpu.device);
    return prev;
}

static void leave_device(int prev)
{
    if (prev != shoal_gpu.device)
        (void)cudaSetDevice(prev);
}

static void cuda_failed(const char *routine, const char *what, cudaError_t rc)
{
    shoal_gpu.env->fatal("%s: %s on the GPU heap failed: %s", routine, what,
                         cudaGetErrorString(rc));
}

/* Cost: one cudaMemcpyAsync and one stream synchronize (a few us on a GPU). */
void shoal_gpu_gheap_copy(void *dest, const void *src, size_t bytes, const char *routine)
{
    int prev = enter_device();
    cudaError_t rc;

    pthread_mutex_lock(&ops_lock);
    rc = cudaMemcpyAsync(dest, src, bytes, cudaMemcpyDefault, ops.stream);
    if (rc == cudaSuccess)
        rc = cudaStreamSynchronize(ops.stream);
    pthread_mutex_unlock(&ops_lock);
    leave_device(prev);
    if (rc != cudaSuccess)
        cuda_failed(routine, "a copy", rc);
}

/* The op was checked on the host: the routine's name here (a device string)
 * only ever names a bug in Shoal. */
__global__ static void amo_kernel(int op, void *p, uint64_t operand, uint64_t compare, size_t size,
                                  uint64_t *old)
{
    *old =
        shoal_dev_amo_at((shoal_amo_op_t)op, p, operand, compare, size, "host AMO on the GPU heap");
}

/* Cost: a kernel launch and a stream synchronize (some 10 us on a GPU). The
 * kernel needs room on the GPU next to the program's kernels. */
uint64_t shoal_gpu_gheap_atomic(int op, void *p, uint64_t operand, uint64_t compare, size_t size,
                                const char *routine)
{
    int prev = enter_device();
    cudaError_t rc;
    uint64_t old;

    pthread_mutex_lock(&ops_lock);
    SHOAL_GPU_LAUNCH_ON(ops.stream, 1, 1, amo_kernel, op, p, operand, compare, size, ops.old_dev);
    rc = cudaGetLastError();
    if (rc == cudaSuccess)
        rc = cudaStreamSynchronize(ops.stream);
    old = size == 8 ? *ops.old : (uint32_t)*ops.old;
    pthread_mutex_unlock(&ops_lock);
    leave_device(prev);
    if (rc != cudaSuccess)
        cuda_failed(routine, "an atomic", rc);
    return old;
}

int shoal_gpu_gheap_owns(const void *addr)
{
    return shoal_gpu_gheap_active() &&
           (uintptr_t)addr - shoal_gpu.state.gheap_base < shoal_gpu.state.gheap_size;
}

/* addr's offset in the GPU heap, where [addr, addr + len) lies in it (addr
 * does: gheap_owns); else the end of the job, naming arg. */
static size_t offset(const void *addr, size_t len, const char *routine, const char *arg)
{
    const shoal_dev_state_t *s = &shoal_gpu.state;
    size_t off = (uintptr_t)addr - s->gheap_base;

    if (len > s->gheap_size - off)
        shoal_gpu.env->fatal("%s: argument %s is %p and %zu bytes long, which runs past the end "
                             "of the GPU symmetric heap (%zu bytes at %p) by %zu bytes",
                             routine, arg, addr, len, s->gheap_size, (void *)s->gheap_base,
                             len - (s->gheap_size - off));
    return off;
}

void shoal_gpu_gheap_rma(int put, void *dest, const void *source, size_t bytes, int pe,
                         const char *routine)
{
    size_t off = offset(put ? dest : source, bytes, routine, put ? "dest" : "source");
    char *base = shoal_gpu_gheap_peer(pe);

    if (base != NULL)
        shoal_gpu_gheap_copy(put ? base + off : dest, put ? source : base + off, bytes, routine);
    else
        shoal_gpu_gheap_remote_rma(put, off, put ? (void *)source : dest, bytes, pe, routine);
}

static uint64_t word(const void *x, size_t size)
{
    if (x == NULL)
        return 0;
    return size == 8 ? *(const uint64_t *)x : *(const uint32_t *)x;
}

void shoal_gpu_gheap_amo(int op, void *dest, const void *operand, const void *compare, void *fetch,
                         size_t size, int pe, const char *routine)
{
    size_t off = offset(dest, size, routine, op == SHOAL_AMO_FETCH ? "source" : "dest");
    char *base = shoal_gpu_gheap_peer(pe);
    uint64_t old;

    if (base != NULL)
        old = shoal_gpu_gheap_atomic(op, base + off, word(operand, size), word(compare, size), size,
                                     routine);
    else
        old = shoal_gpu_gheap_remote_amo(op, off, word(operand, size), word(compare, size), size,
                                         pe, routine);
    if (fetch != NULL && size == 8)
        *(uint64_t *)fetch = old;
    else if (fetch != NULL)
        *(uint32_t *)fetch = (uint32_t)old;
}

/* A host wait's turn: back off, report a device error, then read the ivars
 * again (the set tests a host copy of them). */
typedef struct sync_turn {
    void *copy;
    const void *ivars;
    size_t bytes;
    const char *routine;
    unsigned spins;
    long ns;
} sync_turn_t;

static void sync_turn(void *arg)
{
    sync_turn_t *t = (sync_turn_t *)arg;
    struct timespec ts;

    if (++t->spins > 64) {
        t->ns = t->ns == 0 ? 1000 : (t->ns * 2 < 100000 ? t->ns * 2 : 100000);
        ts.tv_sec = 0;
        ts.tv_nsec = t->ns;
        nanosleep(&ts, NULL);
    }
    shoal_gpu_check();
    shoal_gpu_gheap_copy(t->copy, t->ivars, t->bytes, t->routine);
}

/* The host's wait loop (shoal_wait_run) on a copy of the ivars that this GPU
 * refreshes each turn. Cost per poll: one copy of the set (a few us on a GPU),
 * each aligned word read whole by the copy. No hang report or SHOAL_STATS
 * count: those are libshoal's own loop's. */
size_t shoal_gpu_gheap_sync(const shoal_wait_set_t *set_in, int sel, int block, size_t *indices,
                            const char *routine)
{
    static thread_local size_t any_cursor;
    shoal_wait_set_t set = *set_in;
    sync_turn_t t = {NULL, set.ivars, set.nelems * set.elem_size, routine, 0, 0};
    size_t found;

    (void)offset(set.ivars, t.bytes, routine, sel == SHOAL_SEL_ONE ? "ivar" : "ivars");
    t.copy = malloc(t.bytes);
    if (t.copy == NULL)
        shoal_gpu.env->fatal("%s: out of memory for a copy of %zu bytes of GPU-heap ivars", routine,
                             t.bytes);
    shoal_gpu_gheap_copy(t.copy, t.ivars, t.bytes, routine);
    set.ivars = t.copy;
    found = shoal_wait_run(&set, (shoal_sel_t)sel, block, indices, &any_cursor, sync_turn, &t);
    free(t.copy);
    return found;
}
