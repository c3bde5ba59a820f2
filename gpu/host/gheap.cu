/* The GPU symmetric heap: nvshmem_malloc, _calloc, _align and _free (api.cu)
 * allocate here, from one cudaMalloc per PE (SHOAL_GPU_SYMMETRIC_SIZE bytes) with the host heap's
 * allocator, so the same calls give the same offsets on every PE; same-node
 * peers' heaps are mapped into this GPU by CUDA IPC at init. It must never
 * touch GPU memory from the host but through CUDA calls. Without a GPU (or with
 * a size of 0) the routines are shmem_malloc's, on the host heap. */
#include "shoal_gpu.h"
#include "shoal_gheap.h"
#include "shoal_log.h" /* SHOAL_LOG_* levels only */

#include "shmem.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What each PE publishes in its host heap at init for the PEs of its node. */
typedef struct gheap_rec {
    cudaIpcMemHandle_t handle;
    uint64_t offset; /* the heap's start in its allocation (the base is aligned) */
    uint64_t size;   /* 0: that PE has no GPU heap */
} gheap_rec_t;

shoal_gpu_range_t shoal_gpu_gheap_range;

static_assert(SHOAL_GPU_MIN_ALIGN == SHOAL_HEAP_MIN_ALIGN, "nvshmem_malloc aligns as shmem_malloc");

static struct {
    int active;         /* nvshmem_malloc allocates here, not in the host heap */
    shoal_heap_t alloc; /* offsets into [base, base + size) */
    char *block;        /* what cudaMalloc returned */
    char *base;         /* this PE's heap: block rounded up to SHOAL_GHEAP_BASE_ALIGN */
    size_t size;
    char **table;        /* n_pes: each PE's heap as mapped here, NULL where it is not */
    char **opened;       /* n_pes: what cudaIpcOpenMemHandle returned, to close */
    char **table_dev;    /* the table in device memory (state.peer_gheap) */
    cudaStream_t stream; /* nvshmem_calloc's clearing: waits for nothing of the program's */
} gheap;

static void cuda_fatal(const shoal_gpu_env_t *env, const char *what, cudaError_t rc)
{
    env->fatal("shmem_init: %s failed for the GPU symmetric heap: %s", what,
               cudaGetErrorString(rc));
}

/* This PE's heap: the allocation, its handle in rec. */
static void gheap_create(const shoal_gpu_env_t *env, size_t size, gheap_rec_t *rec)
{
    cudaError_t rc;
    uintptr_t base;

    rc = cudaMalloc((void **)&gheap.block, size + SHOAL_GHEAP_BASE_ALIGN);
    if (rc != cudaSuccess)
        env->fatal("shmem_init: cannot allocate the GPU symmetric heap (%zu bytes) on GPU %d: "
                   "%s; lower SHOAL_GPU_SYMMETRIC_SIZE (or NVSHMEM_SYMMETRIC_SIZE)",
                   size, shoal_gpu.device, cudaGetErrorString(rc));
    base = ((uintptr_t)gheap.block + SHOAL_GHEAP_BASE_ALIGN - 1) & ~(SHOAL_GHEAP_BASE_ALIGN - 1);
    gheap.base = (char *)base;
    gheap.size = size;
    rc = cudaIpcGetMemHandle(&rec->handle, gheap.block);
    if (rc != cudaSuccess)
        cuda_fatal(env, "cudaIpcGetMemHandle", rc);
    rec->offset = base - (uintptr_t)gheap.block;
    rec->size = size;
    if (shoal_gheap_setup(&gheap.alloc, size) != SHOAL_OK)
        env->fatal("shmem_init: out of memory for the GPU heap's allocator");
    rc = cudaStreamCreateWithFlags(&gheap.stream, cudaStreamNonBlocking);
    if (rc != cudaSuccess)
        cuda_fatal(env, "cudaStreamCreateWithFlags", rc);
}

/* Opens the same-node peers' heaps (those whose host heap is mapped here) from
 * the records they published at recs (a host-heap address). Returns how many. */
static int gheap_open_peers(const shoal_gpu_env_t *env, const gheap_rec_t *recs)
{
    int pe, mapped = 0;

    for (pe = 0; pe < env->n_pes; pe++) {
        size_t host_size;
        const char *peer = (const char *)env->peer_heap(pe, &host_size);
        gheap_rec_t rec;
        void *p = NULL;
        cudaError_t rc;

        if (pe == env->my_pe || peer == NULL)
            continue;
        /* The record as that PE wrote it, through its host heap mapped here. */
        memcpy(&rec, peer + ((const char *)recs - (const char *)env->heap_base), sizeof(rec));
        if (rec.size != gheap.size) {
            env->log(SHOAL_LOG_WARN,
                     "GPU heap: PE %d's is %llu bytes, this PE's %zu: not "
                     "mapped (set SHOAL_GPU_SYMMETRIC_SIZE alike on every PE)",
                     pe, (unsigned long long)rec.size, gheap.size);
            continue;
        }
        rc = cudaIpcOpenMemHandle(&p, rec.handle, cudaIpcMemLazyEnablePeerAccess);
        if (rc != cudaSuccess) {
            env->log(SHOAL_LOG_WARN,
                     "GPU heap: cannot map PE %d's into GPU %d (%s): kernels "
                     "here cannot reach it",
                     pe, shoal_gpu.device, cudaGetErrorString(rc));
            (void)cudaGetLastError();
            continue;
        }
        gheap.opened[pe] = (char *)p;
        gheap.table[pe] = (char *)p + rec.offset;
        mapped++;
    }
    return mapped;
}

void shoal_gpu_gheap_setup(const shoal_gpu_env_t *env, int have_gpu, char *what, size_t len)
{
    size_t n = (size_t)env->n_pes, size = have_gpu ? env->gpu_heap_size : 0;
    gheap_rec_t *recs;
    cudaError_t rc;
    int mapped;

    /* Collective, GPU or not, wherever the setting asks for a GPU heap: the
     * slots of the requests on GPU heaps not mapped here (gheap_remote.cu). */
    if (env->gpu_heap_size > 0)
        shoal_gpu_gheap_remote_setup(env, have_gpu);
    /* Collective, GPU or not: every PE publishes its record (zero: no heap). */
    recs = (gheap_rec_t *)shmem_calloc(1, sizeof(gheap_rec_t));
    if (recs == NULL)
        env->fatal("shmem_init: no room in the symmetric heap for the GPU heap's %zu-byte "
                   "record; raise SHMEM_SYMMETRIC_SIZE",
                   sizeof(gheap_rec_t));
    if (size == 0) {
        shmem_free(recs);
        snprintf(what, len, "no GPU heap (%s): nvshmem_malloc allocates in the host heap",
                 have_gpu ? "SHOAL_GPU_SYMMETRIC_SIZE is 0" : "no GPU");
        return;
    }
    gheap.table = (char **)calloc(n, sizeof(char *));
    gheap.opened = (char **)calloc(n, sizeof(char *));
    if (gheap.table == NULL || gheap.opened == NULL)
        env->fatal("shmem_init: out of memory for the table of %d GPU heaps", env->n_pes);
    gheap_create(env, size, recs);
    gheap.table[env->my_pe] = gheap.base;
    env->barrier("nvshmem_init"); /* every record written */
    mapped = gheap_open_peers(env, recs);
    shmem_free(recs); /* its barrier: every PE has read the records */

    rc = cudaMalloc((void **)&gheap.table_dev, n * sizeof(char *));
    if (rc == cudaSuccess)
        rc = cudaMemcpy(gheap.table_dev, gheap.table, n * sizeof(char *), cudaMemcpyHostToDevice);
    if (rc != cudaSuccess)
        cuda_fatal(env, "copying the table of GPU heaps to the GPU", rc);
    shoal_gpu.state.gheap_base = (uintptr_t)gheap.base;
    shoal_gpu.state.gheap_size = gheap.size;
    shoal_gpu.state.peer_gheap = gheap.table_dev;
    gheap.active = 1;
    shoal_gpu_gheap_range.base = (uintptr_t)gheap.base;
    shoal_gpu_gheap_range.size = gheap.size;
    shoal_gpu_gheap_ops_setup(env);
    shoal_gpu_gheap_remote_start();
    snprintf(what, len, "GPU heap %zu bytes (cudaMalloc), %d same-node peers' mapped (CUDA IPC)",
             size, mapped);
}

void shoal_gpu_gheap_cleanup(void)
{
    int pe;

    shoal_gpu_gheap_remote_cleanup();
    shoal_gpu_gheap_range.size = 0;
    if (gheap.active) {
        shoal_gpu_gheap_ops_cleanup();
        for (pe = 0; pe < shoal_gpu.env->n_pes; pe++)
            if (gheap.opened[pe] != NULL)
                (void)cudaIpcCloseMemHandle(gheap.opened[pe]);
        (void)cudaFree(gheap.table_dev);
        (void)cudaStreamDestroy(gheap.stream);
        (void)cudaFree(gheap.block);
        (void)cudaGetLastError();
        shoal_gheap_cleanup(&gheap.alloc);
    }
    free(gheap.table);
    free(gheap.opened);
    memset(&gheap, 0, sizeof(gheap));
}

void *shoal_gpu_gheap_ptr(const void *ptr, int pe, int *in_out)
{
    uintptr_t off = (uintptr_t)ptr - (uintptr_t)gheap.base;

    *in_out = gheap.active && off < gheap.size;
    if (!*in_out)
        return NULL;
    if (pe < 0 || pe >= shoal_gpu.env->n_pes)
        shoal_gpu.env->fatal("nvshmem_ptr: argument pe is %d, valid range 0..%d", pe,
                             shoal_gpu.env->n_pes - 1);
    return gheap.table[pe] != NULL ? gheap.table[pe] + off : NULL;
}

char *shoal_gpu_gheap_peer(int pe)
{
    return gheap.active ? gheap.table[pe] : NULL;
}

int shoal_gpu_gheap_unmapped(void)
{
    int pe, n = 0;

    for (pe = 0; gheap.active && pe < shoal_gpu.env->n_pes; pe++)
        n += gheap.table[pe] == NULL;
    return n;
}

/* Why an allocation every PE attempted failed, as shmem_malloc says it. */
static void warn_failed(size_t size, size_t align, const char *routine)
{
    size_t largest = shoal_gheap_largest_free(&gheap.alloc);

    if (align > SHOAL_GHEAP_BASE_ALIGN)
        shoal_gpu.env->log(SHOAL_LOG_WARN,
                           "%s: cannot place %zu bytes at a multiple of %zu "
                           "bytes: the GPU symmetric heap itself is aligned to %zu bytes; "
                           "returning NULL",
                           routine, size, align, SHOAL_GHEAP_BASE_ALIGN);
    else
        shoal_gpu.env->log(SHOAL_LOG_WARN,
                           "%s: cannot allocate %zu bytes: %zu of %zu GPU "
                           "symmetric heap bytes are in use (largest free range %zu bytes); "
                           "returning NULL; raise SHOAL_GPU_SYMMETRIC_SIZE",
                           routine, size, gheap.alloc.in_use, gheap.alloc.capacity, largest);
}

/* shmem_malloc's discipline: the arguments compared (SHOAL_CHECK_COLL), the
 * deterministic allocator on every PE, then a barrier; a size of 0 does nothing.
 * clear: zeroed on every PE before any PE returns. */
void *shoal_gpu_gheap_alloc(size_t size, size_t align, int clear, const char *routine)
{
    const unsigned long long vals[3] = {size, align, gheap.size};
    static const char *const names[3] = {"size", "alignment", "SHOAL_GPU_SYMMETRIC_SIZE"};
    size_t off = 0;
    cudaError_t rc;
    int status;

    if (size == 0)
        return NULL;
    shoal_gpu.env->coll_args(routine, vals, names, 3);
    if (align > SHOAL_GHEAP_BASE_ALIGN) /* the same on every PE */
        status = SHOAL_ERR_NO_MEMORY;
    else
        status = shoal_gheap_alloc(&gheap.alloc, size, align, &off);
    shoal_gpu.env->barrier(routine);
    if (status != SHOAL_OK) {
        warn_failed(size, align, routine);
        return NULL;
    }
    if (!clear)
        return gheap.base + off;
    rc = cudaMemsetAsync(gheap.base + off, 0, size, gheap.stream);
    if (rc == cudaSuccess)
        rc = cudaStreamSynchronize(gheap.stream);
    if (rc != cudaSuccess)
        shoal_gpu.env->fatal("%s: clearing %zu bytes of GPU memory failed: %s", routine, size,
                             cudaGetErrorString(rc));
    /* No PE may write the block remotely before its owner has cleared it. */
    shoal_gpu.env->barrier(routine);
    return gheap.base + off;
}

void shoal_gpu_gheap_free(void *ptr, const char *routine)
{
    size_t off = (uintptr_t)ptr - (uintptr_t)gheap.base, start, size;

    if (ptr == NULL) /* no action, so no barrier either */
        return;
    shoal_gpu.env->barrier(routine);
    if (off >= gheap.size || shoal_gheap_lookup(&gheap.alloc, off, &start, &size) != SHOAL_OK ||
        start != off)
        shoal_gpu.env->fatal("%s: argument ptr is %p, which is not a block from nvshmem_malloc "
                             "(or it was freed already)",
                             routine, ptr);
    shoal_gheap_free(&gheap.alloc, off);
}

int shoal_gpu_gheap_active(void)
{
    return gheap.active;
}
