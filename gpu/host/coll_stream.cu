/* The team collectives and barriers in a CUDA stream's order: nvshmemx_barrier_on_stream,
 * nvshmemx_team_sync_on_stream, the byte forms of broadcast, fcollect and alltoall
 * on a stream, and what the generated typed ones (gen/coll_stream.cu) call. Each
 * checks its arguments on the host, with the host's one-line errors, then
 * enqueues one block that makes the device collective (the engine's _block path),
 * so it starts after the stream's earlier work and later work waits for its end.
 * It never waits for the stream itself. */
#include "shoal_device.cuh"
#include "shoal_gpu.h"
#include "shoal_gpu_host.h"
#include "shoal_gpu_launch.h"
#include "nvshmem.h"
#include "nvshmemx.h"

#include <string.h>

/* A block's threads; on the CPU engine each is a pthread, and a few suffice. */
#ifdef SHOAL_DEV_ON_CPU
#define COLL_THREADS 4
#else
#define COLL_THREADS 128
#endif

/* The routine's name, passed by value: the kernel reads it from its parameters,
 * never from host memory. */
typedef struct {
    char s[64];
} routine_name_t;

static routine_name_t name_of(const char *routine)
{
    routine_name_t n;

    strncpy(n.s, routine, sizeof(n.s) - 1);
    n.s[sizeof(n.s) - 1] = '\0';
    return n;
}

__global__ static void coll_kernel(int kind, int team, void *dest, const void *source,
                                   size_t nelems, size_t elem, int root, int op, int dt,
                                   routine_name_t name)
{
    switch (kind) {
    case SHOAL_GPU_COLL_BROADCAST:
        shoal_dev_broadcast(team, dest, source, nelems, elem, root, SHOAL_DEV_BLOCK, name.s);
        break;
    case SHOAL_GPU_COLL_FCOLLECT:
        shoal_dev_fcollect(team, dest, source, nelems, elem, SHOAL_DEV_BLOCK, name.s);
        break;
    case SHOAL_GPU_COLL_ALLTOALL:
        shoal_dev_alltoall(team, dest, source, nelems, elem, SHOAL_DEV_BLOCK, name.s);
        break;
    default:
        shoal_dev_reduce(team, dest, source, nelems, elem, op, dt, SHOAL_DEV_BLOCK, name.s);
        break;
    }
}

__global__ static void team_barrier_kernel(int team, int fence, routine_name_t name)
{
    shoal_dev_barrier(team, fence, name.s);
}

/* team as the device collectives need it, checked now: a valid team, evenly
 * spaced, whose members this GPU reaches (mapped, or through the host proxy). */
static const shoal_dev_team_t *stream_team(const shoal_gpu_env_t *env, int team,
                                           const char *routine)
{
    const shoal_dev_team_t *t = shoal_dev_team_at(shoal_gpu.state.teams, team);
    int i;

    if (t == NULL)
        shoal_gpu_bad_team(routine, team);
    if (t->stride == 0)
        env->fatal("%s: argument team is %d, whose PEs are not evenly spaced in "
                   "NVSHMEM_TEAM_WORLD; the device collectives need a team that a split made",
                   routine, team);
    for (i = 0; i < t->size && shoal_gpu.state.proxy == NULL; i++)
        if (shoal_gpu.peer_heap[t->start + i * t->stride] == NULL)
            env->fatal("%s: PE %d is out of this GPU's reach (its heap is not mapped on this "
                       "node, and SHOAL_GPU_PROXY=none turned off the host proxy), and the "
                       "routine involves every PE of the team",
                       routine, t->start + i * t->stride);
    return t;
}

/* addr in the symmetric heap: the GPU heap (nvshmem_malloc) or the host's,
 * where shoal_gpu_check_heap names the argument when it is neither. */
static void check_symm(const shoal_gpu_env_t *env, const void *addr, size_t len, size_t align,
                       const char *arg, const char *routine)
{
    const shoal_dev_state_t *s = &shoal_gpu.state;
    uintptr_t off = (uintptr_t)addr - s->gheap_base;

    if (off < s->gheap_size && len <= s->gheap_size - off && ((uintptr_t)addr & (align - 1)) == 0)
        return;
    shoal_gpu_check_heap(env, addr, len, align, arg, routine);
}

int shoal_gpu_coll_on_stream(int kind, int team, void *dest, const void *source, size_t nelems,
                             size_t elem, int root, int op, int dt, cudaStream_t stream,
                             const char *routine)
{
    const shoal_gpu_env_t *env = shoal_gpu_stream_env(routine);
    const shoal_dev_team_t *t = stream_team(env, team, routine);
    size_t per = (size_t)t->size, bytes, out;

    if (elem != 0 && nelems > SIZE_MAX / elem / per)
        env->fatal("%s: argument %s is %zu, too large: its size in bytes overflows size_t", routine,
                   kind == SHOAL_GPU_COLL_REDUCE ? "nreduce" : "nelems", nelems);
    bytes = nelems * elem;
    if (kind == SHOAL_GPU_COLL_BROADCAST && (root < 0 || root >= t->size))
        env->fatal("%s: argument PE_root is %d, valid range 0..%d", routine, root, t->size - 1);
    /* What each member writes and what the others read of it. */
    out = kind == SHOAL_GPU_COLL_FCOLLECT || kind == SHOAL_GPU_COLL_ALLTOALL ? bytes * per : bytes;
    check_symm(env, dest, out, elem ? elem : 1, "dest", routine);
    /* A reduction reads its own source only: any memory the GPU reads. */
    if (kind != SHOAL_GPU_COLL_REDUCE)
        check_symm(env, source, kind == SHOAL_GPU_COLL_ALLTOALL ? bytes * per : bytes,
                   elem ? elem : 1, "source", routine);
    SHOAL_GPU_LAUNCH_ON(stream, 1, COLL_THREADS, coll_kernel, kind, team, dest, source, nelems,
                        elem, root, op, dt, name_of(routine));
    shoal_gpu_check_enqueued(env, routine);
    return 0;
}

static void barrier_on_stream(int team, int fence, cudaStream_t stream, const char *routine)
{
    const shoal_gpu_env_t *env = shoal_gpu_stream_env(routine);

    stream_team(env, team, routine);
    SHOAL_GPU_LAUNCH_ON(stream, 1, 1, team_barrier_kernel, team, fence, name_of(routine));
    shoal_gpu_check_enqueued(env, routine);
}

extern "C" {

void nvshmemx_barrier_on_stream(nvshmem_team_t team, cudaStream_t stream)
{
    barrier_on_stream(team, 1, stream, "nvshmemx_barrier_on_stream");
}

int nvshmemx_team_sync_on_stream(nvshmem_team_t team, cudaStream_t stream)
{
    barrier_on_stream(team, 0, stream, "nvshmemx_team_sync_on_stream");
    return 0;
}

int nvshmemx_broadcastmem_on_stream(nvshmem_team_t team, void *dest, const void *source,
                                    size_t nelems, int PE_root, cudaStream_t stream)
{
    return shoal_gpu_coll_on_stream(SHOAL_GPU_COLL_BROADCAST, team, dest, source, nelems, 1,
                                    PE_root, 0, 0, stream, "nvshmemx_broadcastmem_on_stream");
}

int nvshmemx_fcollectmem_on_stream(nvshmem_team_t team, void *dest, const void *source,
                                   size_t nelems, cudaStream_t stream)
{
    return shoal_gpu_coll_on_stream(SHOAL_GPU_COLL_FCOLLECT, team, dest, source, nelems, 1, 0, 0, 0,
                                    stream, "nvshmemx_fcollectmem_on_stream");
}

int nvshmemx_alltoallmem_on_stream(nvshmem_team_t team, void *dest, const void *source,
                                   size_t nelems, cudaStream_t stream)
{
    return shoal_gpu_coll_on_stream(SHOAL_GPU_COLL_ALLTOALL, team, dest, source, nelems, 1, 0, 0, 0,
                                    stream, "nvshmemx_alltoallmem_on_stream");
}

} /* extern "C" */

int shoal_gpu_coll_host(int kind, int team, void *dest, const void *source, size_t nelems,
                        size_t elem, int root, int op, int dt, const char *routine)
{
    const shoal_gpu_env_t *env = shoal_gpu_stream_env(routine);
    cudaStream_t stream;
    cudaError_t rc;

    /* A stream per call, non-blocking: the collective waits for no work of the
     * program's (a kernel may be waiting for this very collective), and nothing
     * is left to tear down at finalize. A host collective costs its launch and
     * a round of the device collective anyway. */
    rc = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (rc != cudaSuccess)
        env->fatal("%s: cannot create a stream for the collective: %s", routine,
                   cudaGetErrorString(rc));
    shoal_gpu_coll_on_stream(kind, team, dest, source, nelems, elem, root, op, dt, stream, routine);
    rc = cudaStreamSynchronize(stream);
    if (rc != cudaSuccess)
        env->fatal("%s: the collective's kernel failed: %s", routine, cudaGetErrorString(rc));
    (void)cudaStreamDestroy(stream);
    shoal_gpu_check(); /* a device error the kernel recorded ends the job with its line */
    return 0;
}

void shoal_gpu_gheap_coll(int kind, void *team, void *dest, const void *source, size_t nelems,
                          size_t elem, int root, int op, int dt, const char *routine)
{
    int slot = shoal_gpu_team_slot_of((shmem_team_t)team);

    if (slot < 0)
        shoal_gpu_stream_env(routine)->fatal(
            "%s: a buffer is in the GPU symmetric heap, which a collective reaches through the "
            "team's device twin, and team %p has none: make it with nvshmem_team_split_strided "
            "or nvshmem_team_split_2d (SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED have theirs)",
            routine, team);
    shoal_gpu_coll_host(kind, slot, dest, source, nelems, elem, root, op, dt, routine);
}
