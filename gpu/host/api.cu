/* The nvshmem_ host routines: NVSHMEM's names for shmem_init, shmem_malloc and
 * the rest. Each first reports a device error a kernel left behind, then calls
 * the shmem_ routine, whose checks (and error lines) apply as they are. */
#include "shoal_gpu.h"
#include "nvshmem.h"
#include "shmem.h"
#include "shoal_log.h" /* SHOAL_LOG_* levels only */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void shoal_gpu_need_init(const char *routine)
{
    char host[64] = "?";

    if (shoal_gpu.env != NULL)
        return;
    /* libshoal's log is not ours to call before shmem_init: the same form by hand. */
    gethostname(host, sizeof(host) - 1);
    fprintf(stderr, "[%s:%d:-] %s: called before nvshmem_init; call nvshmem_init (or shmem_init) "
            "first\n", host, (int)getpid(), routine);
    fflush(stderr);
    _exit(1);
}

int shoal_gpu_my_pe(void)
{
    shoal_gpu_check();
    return shmem_my_pe();
}

int shoal_gpu_n_pes(void)
{
    shoal_gpu_check();
    return shmem_n_pes();
}

/* On the host, nvshmem_ptr gives the address a kernel uses: NULL unless the
 * object is in a heap registered with this GPU, or in a GPU heap mapped into it. Without a GPU, shmem_ptr's. */
void *shoal_gpu_ptr(const void *ptr, int pe)
{
    uintptr_t off = (uintptr_t)ptr - shoal_gpu.state.heap_base;
    int in_gheap;
    void *p;

    shoal_gpu_check();
    p = shoal_gpu_gheap_ptr(ptr, pe, &in_gheap); /* the GPU heap's: mapped here or NULL */
    if (in_gheap)
        return p;
    p = shmem_ptr(ptr, pe); /* checks the PE; NULL where no load or store reaches */
    if (p == NULL || !shoal_gpu.active)
        return p;
    if (off >= shoal_gpu.state.heap_size || shoal_gpu.peer_heap[pe] == NULL)
        return NULL; /* global/static data: not registered with the GPU */
    return shoal_gpu.peer_heap[pe] + off;
}

void shoal_gpu_fence(void)
{
    shoal_gpu_check();
    shmem_fence();
}

void shoal_gpu_quiet(void)
{
    shoal_gpu_check_and_drain(); /* what kernels handed the host proxy, too */
    shmem_quiet();
}

void shoal_gpu_barrier_all(void)
{
    shmem_barrier_all(); /* it reports a device error first */
}

void shoal_gpu_sync_all(void)
{
    shoal_gpu_check();
    shmem_sync_all();
}

const shoal_dev_state_t *shoal_gpu_team_state(const char *routine)
{
    shoal_gpu_need_init(routine);
    shoal_gpu_check();
    return &shoal_gpu.state;
}

extern "C" {

void nvshmem_init(void)
{
    shmem_init();
}

void nvshmem_finalize(void)
{
    shoal_gpu_check();
    shmem_finalize();
}

/* The GPU heap's when there is one (gheap.cu), else the host heap's. */
void *nvshmem_malloc(size_t size)
{
    shoal_gpu_need_init("nvshmem_malloc");
    shoal_gpu_check();
    if (!shoal_gpu_gheap_active())
        return shmem_malloc(size);
    return shoal_gpu_gheap_alloc(size, SHOAL_GPU_MIN_ALIGN, 0, "nvshmem_malloc");
}

void *nvshmem_calloc(size_t count, size_t size)
{
    size_t bytes;

    shoal_gpu_need_init("nvshmem_calloc");
    shoal_gpu_check();
    if (!shoal_gpu_gheap_active())
        return shmem_calloc(count, size);
    if (__builtin_mul_overflow(count, size, &bytes)) { /* cannot fit: NULL, collectively */
        shoal_gpu.env->barrier("nvshmem_calloc");
        shoal_gpu.env->log(SHOAL_LOG_WARN, "nvshmem_calloc: cannot allocate %zu objects of %zu "
                           "bytes: the product overflows size_t; returning NULL",
                           count, size);
        return NULL;
    }
    return shoal_gpu_gheap_alloc(bytes, SHOAL_GPU_MIN_ALIGN, 1, "nvshmem_calloc");
}

void *nvshmem_align(size_t alignment, size_t size)
{
    shoal_gpu_need_init("nvshmem_align");
    shoal_gpu_check();
    if (!shoal_gpu_gheap_active())
        return shmem_align(alignment, size);
    if (alignment == 0 || (alignment & (alignment - 1)) != 0)
        shoal_gpu.env->fatal("nvshmem_align: argument alignment is %zu, expected a power of two",
                             alignment);
    return shoal_gpu_gheap_alloc(size, alignment, 0, "nvshmem_align");
}

void nvshmem_free(void *ptr)
{
    shoal_gpu_need_init("nvshmem_free");
    shoal_gpu_check();
    if (!shoal_gpu_gheap_active())
        shmem_free(ptr);
    else
        shoal_gpu_gheap_free(ptr, "nvshmem_free");
}

} /* extern "C" */
