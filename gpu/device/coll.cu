/* The team collectives in kernels: broadcast, fcollect, alltoall and reductions,
 * untyped (the generated typed routines call them with the element size). Every
 * one pulls: a barrier on the team, gets from the members' heaps, a closing sync,
 * so it needs no buffer of its own except a reduction's, which stages each piece
 * of its source in the team's symmetric scratch (a source may be its dest). Never
 * allocates. Also built as host code, the CPU engine (tests/gpu-cpu).
 *
 * Memory ordering: the opening barrier fences (nvshmem_barrier's), so what each
 * member stored into its source before the call, in any thread that synchronised
 * with the calling ones, is visible to the gets; the closing sync keeps a member
 * from returning (and reusing its source, or the team's scratch) before every
 * member's gets from it are complete. The gets complete when they return (loads,
 * or the host proxy's answered request), so dest is complete locally on return;
 * other PEs see it after a fence, as for a get. */
#include "shoal_device.cuh"
#include "shoal_dev_state.h"
#include "shoal_red.h" /* shoal_red_op_t, shoal_dt_t */
#include "nvshmem.h"

/* The calling thread's rank and its group's size (1 for one thread). */
static __device__ unsigned who_rank(int who, unsigned *n)
{
    if (who == SHOAL_DEV_THREAD) {
        *n = 1;
        return 0;
    }
    return shoal_dev_group_rank(who, n);
}

/* The team's barrier (fence) or sync, passed by the group's first thread while
 * the others wait. */
static __device__ void meet(int team, int fence, int who, unsigned rank, unsigned n,
                            const char *routine)
{
    if (who != SHOAL_DEV_THREAD)
        shoal_dev_group_sync(who, n);
    if (rank == 0)
        shoal_dev_barrier(team, fence, routine);
    if (who != SHOAL_DEV_THREAD)
        shoal_dev_group_sync(who, n);
}

/* A get by the thread or shared by its group. */
static __device__ void get(void *dest, const void *src, size_t bytes, int pe, int who,
                           const char *routine)
{
    if (who == SHOAL_DEV_THREAD)
        shoal_dev_get(dest, src, bytes, pe, routine);
    else
        shoal_dev_get_group(dest, src, bytes, pe, who, routine);
}

/* nelems * elem, or the end of the kernel naming the argument (err). */
static __device__ size_t bytes_of(size_t nelems, size_t elem, size_t times, int err,
                                  const char *routine)
{
    if (elem != 0 && nelems > SIZE_MAX / elem / (times ? times : 1))
        shoal_dev_fail(routine, err, (long long)nelems);
    return nelems * elem;
}

static __device__ int member_pe(const shoal_dev_team_t *t, int i)
{
    return t->start + i * t->stride;
}

__device__ int shoal_dev_broadcast(int team, void *dest, const void *src, size_t nelems,
                                   size_t elem, int root, int who, const char *routine)
{
    const shoal_dev_team_t *t = shoal_dev_team_get(team, 1, routine);
    size_t bytes = bytes_of(nelems, elem, 1, SHOAL_DEV_ERR_NELEMS, routine);
    unsigned n, rank = who_rank(who, &n);

    if (root < 0 || root >= t->size)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_ROOT,
                       (long long)(((unsigned long long)t->size << 32) | (uint32_t)root));
    meet(team, 1, who, rank, n, routine);
    get(dest, src, bytes, member_pe(t, root), who, routine);
    meet(team, 0, who, rank, n, routine);
    return 0;
}

/* fcollect (alltoall 0) or alltoall (1): member i's block of bytes, at src (at
 * src + my_index * bytes for alltoall), to dest + i * bytes. Starting with this
 * PE's right-hand neighbour spreads the members' gets over the sources. */
static __device__ void exchange(int team, void *dest, const void *src, size_t nelems, size_t elem,
                                int alltoall, int who, const char *routine)
{
    const shoal_dev_team_t *t = shoal_dev_team_get(team, 1, routine);
    size_t bytes = bytes_of(nelems, elem, (size_t)t->size, SHOAL_DEV_ERR_NELEMS, routine);
    const char *from = (const char *)src + (alltoall ? (size_t)t->my_index * bytes : 0);
    unsigned n, rank = who_rank(who, &n);
    int k;

    meet(team, 1, who, rank, n, routine);
    for (k = 1; k <= t->size; k++) {
        int i = (t->my_index + k) % t->size;

        get((char *)dest + (size_t)i * bytes, from, bytes, member_pe(t, i), who, routine);
    }
    meet(team, 0, who, rank, n, routine);
}

__device__ int shoal_dev_fcollect(int team, void *dest, const void *src, size_t nelems, size_t elem,
                                  int who, const char *routine)
{
    exchange(team, dest, src, nelems, elem, 0, who, routine);
    return 0;
}

__device__ int shoal_dev_alltoall(int team, void *dest, const void *src, size_t nelems, size_t elem,
                                  int who, const char *routine)
{
    exchange(team, dest, src, nelems, elem, 1, who, routine);
    return 0;
}

/* acc[i] = acc[i] op in[i] for count elements of T; integer sums and products
 * wrap, through U (T's unsigned twin), as the host's reductions do. Returns 0
 * where op has no case for T. */
template <typename T, typename U>
static __device__ int combine_int(T *acc, const T *in, size_t count, int op)
{
    size_t i;

    for (i = 0; i < count; i++) {
        T x = acc[i], y = in[i];

        switch (op) {
        case SHOAL_RED_AND:
            acc[i] = x & y;
            break;
        case SHOAL_RED_OR:
            acc[i] = x | y;
            break;
        case SHOAL_RED_XOR:
            acc[i] = x ^ y;
            break;
        case SHOAL_RED_MAX:
            acc[i] = x > y ? x : y;
            break;
        case SHOAL_RED_MIN:
            acc[i] = x < y ? x : y;
            break;
        case SHOAL_RED_SUM:
            acc[i] = (T)(U)((U)x + (U)y);
            break;
        case SHOAL_RED_PROD:
            acc[i] = (T)(U)((U)x * (U)y);
            break;
        default:
            return 0;
        }
    }
    return 1;
}

template <typename T> static __device__ int combine_real(T *acc, const T *in, size_t count, int op)
{
    size_t i;

    for (i = 0; i < count; i++) {
        T x = acc[i], y = in[i];

        switch (op) {
        case SHOAL_RED_MAX:
            acc[i] = x > y ? x : y;
            break;
        case SHOAL_RED_MIN:
            acc[i] = x < y ? x : y;
            break;
        case SHOAL_RED_SUM:
            acc[i] = x + y;
            break;
        case SHOAL_RED_PROD:
            acc[i] = x * y;
            break;
        default:
            return 0;
        }
    }
    return 1;
}

/* The representation (dt, elem) picks the arithmetic; 0 where none fits. */
static __device__ int combine(void *acc, const void *in, size_t count, size_t elem, int op, int dt)
{
    if (dt == SHOAL_DT_FLOAT && elem == 4)
        return combine_real((float *)acc, (const float *)in, count, op);
    if (dt == SHOAL_DT_FLOAT && elem == 8)
        return combine_real((double *)acc, (const double *)in, count, op);
    if (dt == SHOAL_DT_INT || dt == SHOAL_DT_UINT) {
        int s = dt == SHOAL_DT_INT;

        switch (elem) {
        case 1:
            return s ? combine_int<int8_t, uint8_t>((int8_t *)acc, (const int8_t *)in, count, op)
                     : combine_int<uint8_t, uint8_t>((uint8_t *)acc, (const uint8_t *)in, count,
                                                     op);
        case 2:
            return s ? combine_int<int16_t, uint16_t>((int16_t *)acc, (const int16_t *)in, count,
                                                      op)
                     : combine_int<uint16_t, uint16_t>((uint16_t *)acc, (const uint16_t *)in, count,
                                                       op);
        case 4:
            return s ? combine_int<int32_t, uint32_t>((int32_t *)acc, (const int32_t *)in, count,
                                                      op)
                     : combine_int<uint32_t, uint32_t>((uint32_t *)acc, (const uint32_t *)in, count,
                                                       op);
        case 8:
            return s ? combine_int<int64_t, uint64_t>((int64_t *)acc, (const int64_t *)in, count,
                                                      op)
                     : combine_int<uint64_t, uint64_t>((uint64_t *)acc, (const uint64_t *)in, count,
                                                       op);
        }
    }
    return 0;
}

/* What one thread reads of a member's staged piece at a time. */
#define PIECE 1024

/* Pieces of SHOAL_DEV_TEAM_SCRATCH bytes, each in three steps: every member
 * (its group's threads, once they have all arrived) copies its piece of source
 * into its own scratch and the team passes a barrier;
 * every member reads each member's scratch in team order, combining into its
 * dest (the group's threads share the elements); the team syncs, so no member
 * overwrites its scratch while another still reads it. Every member combines in
 * the same order, so all get the same bits. Cost per piece: two barriers, three
 * group syncs, and size gets of the piece per PE. */
__device__ int shoal_dev_reduce(int team, void *dest, const void *src, size_t nreduce, size_t elem,
                                int op, int dt, int who, const char *routine)
{
    const shoal_dev_state_t *s = &shoal_dev_state;
    const shoal_dev_team_t *t = shoal_dev_team_get(team, 1, routine);
    size_t bytes = bytes_of(nreduce, elem, 1, SHOAL_DEV_ERR_NREDUCE, routine), chunk, off;
    unsigned char *scratch = s->psync[team].scratch, *mine;
    unsigned n, rank = who_rank(who, &n);
    int err = SHOAL_DEV_OK;

    if (elem == 0 || elem > 8 || (elem & (elem - 1)) != 0)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_SIZE, (long long)elem);
    chunk = SHOAL_DEV_TEAM_SCRATCH / elem * elem;
    mine = (unsigned char *)shoal_dev_translate(s, scratch, SHOAL_DEV_TEAM_SCRATCH, s->my_pe,
                                                SHOAL_DEV_ERR_DEST, &err);
    if (mine == NULL)
        shoal_dev_fail(routine, err, (long long)(uintptr_t)scratch);
    for (off = 0; off == 0 || off < bytes; off += chunk) {
        size_t len = bytes - off < chunk ? bytes - off : chunk, count = len / elem;
        /* This thread's elements of the piece: [first, last). */
        size_t first = count * rank / n, last = count * (rank + 1) / n, e;
        uint64_t buf[PIECE / sizeof(uint64_t)];
        int i;

        /* The group meets first: a thread must not stage into the team's scratch
         * while another thread of its group still reads it for an earlier
         * collective on the team. */
        if (who != SHOAL_DEV_THREAD)
            shoal_dev_group_sync(who, n);
        if (len > 0)
            shoal_dev_copy(mine + first * elem, (const char *)src + off + first * elem,
                           (last - first) * elem);
        meet(team, 1, who, rank, n, routine);
        for (i = 0; i < t->size; i++) {
            for (e = first; e < last; e += PIECE / elem) {
                size_t k = last - e < PIECE / elem ? last - e : PIECE / elem;
                char *d = (char *)dest + off + e * elem;

                shoal_dev_get(i == 0 ? (void *)d : (void *)buf, scratch + e * elem, k * elem,
                              member_pe(t, i), routine);
                if (i > 0 && !combine(d, buf, k, elem, op, dt))
                    shoal_dev_fail(routine, SHOAL_DEV_ERR_RED_OP, op);
            }
        }
        meet(team, 0, who, rank, n, routine);
    }
    return 0;
}

extern "C" {

/* The byte forms: nelems bytes (per PE for fcollect and alltoall). */
__device__ int nvshmem_broadcastmem(nvshmem_team_t team, void *dest, const void *source,
                                    size_t nelems, int PE_root)
{
    return shoal_dev_broadcast(team, dest, source, nelems, 1, PE_root, SHOAL_DEV_THREAD,
                               "nvshmem_broadcastmem");
}

__device__ int nvshmemx_broadcastmem_block(nvshmem_team_t team, void *dest, const void *source,
                                           size_t nelems, int PE_root)
{
    return shoal_dev_broadcast(team, dest, source, nelems, 1, PE_root, SHOAL_DEV_BLOCK,
                               "nvshmemx_broadcastmem_block");
}

__device__ int nvshmemx_broadcastmem_warp(nvshmem_team_t team, void *dest, const void *source,
                                          size_t nelems, int PE_root)
{
    return shoal_dev_broadcast(team, dest, source, nelems, 1, PE_root, SHOAL_DEV_WARP,
                               "nvshmemx_broadcastmem_warp");
}

__device__ int nvshmem_fcollectmem(nvshmem_team_t team, void *dest, const void *source,
                                   size_t nelems)
{
    return shoal_dev_fcollect(team, dest, source, nelems, 1, SHOAL_DEV_THREAD,
                              "nvshmem_fcollectmem");
}

__device__ int nvshmemx_fcollectmem_block(nvshmem_team_t team, void *dest, const void *source,
                                          size_t nelems)
{
    return shoal_dev_fcollect(team, dest, source, nelems, 1, SHOAL_DEV_BLOCK,
                              "nvshmemx_fcollectmem_block");
}

__device__ int nvshmemx_fcollectmem_warp(nvshmem_team_t team, void *dest, const void *source,
                                         size_t nelems)
{
    return shoal_dev_fcollect(team, dest, source, nelems, 1, SHOAL_DEV_WARP,
                              "nvshmemx_fcollectmem_warp");
}

__device__ int nvshmem_alltoallmem(nvshmem_team_t team, void *dest, const void *source,
                                   size_t nelems)
{
    return shoal_dev_alltoall(team, dest, source, nelems, 1, SHOAL_DEV_THREAD,
                              "nvshmem_alltoallmem");
}

__device__ int nvshmemx_alltoallmem_block(nvshmem_team_t team, void *dest, const void *source,
                                          size_t nelems)
{
    return shoal_dev_alltoall(team, dest, source, nelems, 1, SHOAL_DEV_BLOCK,
                              "nvshmemx_alltoallmem_block");
}

__device__ int nvshmemx_alltoallmem_warp(nvshmem_team_t team, void *dest, const void *source,
                                         size_t nelems)
{
    return shoal_dev_alltoall(team, dest, source, nelems, 1, SHOAL_DEV_WARP,
                              "nvshmemx_alltoallmem_warp");
}

} /* extern "C" */
