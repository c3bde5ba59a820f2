/* Teams in kernels: the queries on the device state's team table, PE translation,
 * and the barrier every device collective synchronises with (a dissemination
 * barrier on the team's symmetric words). It never allocates: the host makes and
 * destroys teams (gpu/host/team_api.cu, team_table.cu) and keeps the table. Also built as host
 * code, the CPU engine (tests/gpu-cpu). */
#include "shoal_device.cuh"
#include "shoal_dev_state.h"
#include "shoal_dev_host.h"
#include "nvshmem.h"

#if defined(__CUDA_ARCH__) || defined(SHOAL_DEV_ON_CPU)
#define DEVICE_HALF 1
#endif

static_assert(NVSHMEM_TEAM_WORLD == 0 && NVSHMEM_TEAM_SHARED == 1 && NVSHMEMX_TEAM_NODE == 2 &&
                  SHOAL_DEV_TEAMS_PREDEFINED == 3,
              "the predefined teams are the first slots of the team table");

__device__ const shoal_dev_team_t *shoal_dev_team_get(int team, int strided, const char *routine)
{
    const shoal_dev_team_t *t = shoal_dev_team_at(shoal_dev_state.teams, team);

    if (t == NULL)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_TEAM, team);
    if (strided && t->stride == 0)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_TEAM_IRREGULAR, team);
    return t;
}

/* Dissemination: ceil(log2 size) rounds; in round r this PE adds 1 to word 1 + r
 * of the team's slot on the member 2^r to its right and waits for its own word
 * 1 + r to reach this barrier's number (word 0, this PE's count of barriers on the
 * team). fence: the host proxy's requests are quieted first, and a system fence
 * precedes each arrival and follows the last wait, so every store this thread saw
 * complete (its own, and those of the threads it synchronised with: fences are
 * cumulative) is visible to every member that passes, and what they stored before
 * arriving is visible here. Without it, only the rendezvous. Arrivals on members
 * not mapped here are the proxy's atomics; without a proxy every member's heap
 * must be mapped. Cost per round: one fence, one remote atomic and the polling
 * of one word in this PE's heap. */
__device__ void shoal_dev_barrier(int team, int fence, const char *routine)
{
    const shoal_dev_state_t *s = &shoal_dev_state;
    const shoal_dev_team_t *t = shoal_dev_team_get(team, 1, routine);
    uint64_t *words = s->psync[team].barrier, *mine, epoch, one = 1;
    int err = SHOAL_DEV_OK, i, dist, r;

    mine = (uint64_t *)shoal_dev_translate(s, words, sizeof(s->psync[team].barrier), s->my_pe,
                                           SHOAL_DEV_ERR_DEST, &err);
    if (mine == NULL)
        shoal_dev_fail(routine, err, (long long)(uintptr_t)words);
    for (i = 0; i < t->size && s->proxy == NULL; i++)
        if (s->peer_heap[t->start + i * t->stride] == NULL)
            shoal_dev_fail(routine, SHOAL_DEV_ERR_PE_UNMAPPED, t->start + i * t->stride);
    if (fence)
        shoal_dev_proxy_quiet();
    epoch = ++mine[0];
    for (r = 0, dist = 1; dist < t->size; r++, dist *= 2) {
        int to = t->start + (int)(((long long)t->my_index + dist) % t->size) * t->stride;
        unsigned ns = 0;

        if (fence)
            __threadfence_system();
        shoal_dev_amo(SHOAL_AMO_ADD, &words[1 + r], &one, NULL, NULL, sizeof(one), to, routine);
        while (shoal_wait_load_ivar(&mine[1 + r], sizeof(uint64_t), 0) < epoch)
            shoal_dev_backoff(&ns);
    }
    if (fence)
        __threadfence_system();
}

/* The barrier called by a group: its threads meet, one of them passes the team's
 * barrier, and they meet again, so no thread returns before the barrier is done.
 * The block's own __syncthreads (or __syncwarp) orders the other threads' stores
 * before the first thread's fence. */
static __device__ void group_barrier(int team, int fence, int warp, const char *routine)
{
    unsigned n, rank = shoal_dev_group_rank(warp, &n);

    shoal_dev_group_sync(warp, n);
    if (rank == 0)
        shoal_dev_barrier(team, fence, routine);
    shoal_dev_group_sync(warp, n);
}

/* This PE's number in team, or team's size (which): NVSHMEM_TEAM_INVALID gives -1. */
static __host__ __device__ int team_query(const shoal_dev_team_t *table, nvshmem_team_t team,
                                          int which, const char *routine)
{
    const shoal_dev_team_t *t;

    if (team == NVSHMEM_TEAM_INVALID)
        return -1;
    t = shoal_dev_team_at(table, team);
    if (t == NULL) {
#ifdef DEVICE_HALF
        shoal_dev_fail(routine, SHOAL_DEV_ERR_TEAM, team);
#else
        shoal_gpu_bad_team(routine, team);
#endif
    }
    return which ? t->size : t->my_index;
}

extern "C" {

__host__ __device__ int nvshmem_team_my_pe(nvshmem_team_t team)
{
#ifdef DEVICE_HALF
    return team_query(shoal_dev_state.teams, team, 0, "nvshmem_team_my_pe");
#else
    return team_query(shoal_gpu_team_state("nvshmem_team_my_pe")->teams, team, 0,
                      "nvshmem_team_my_pe");
#endif
}

__host__ __device__ int nvshmem_team_n_pes(nvshmem_team_t team)
{
#ifdef DEVICE_HALF
    return team_query(shoal_dev_state.teams, team, 1, "nvshmem_team_n_pes");
#else
    return team_query(shoal_gpu_team_state("nvshmem_team_n_pes")->teams, team, 1,
                      "nvshmem_team_n_pes");
#endif
}

/* On the device both teams must be strided (every team a split makes is); on the
 * host, shmem_team_translate_pe answers for the others. */
__host__ __device__ int nvshmem_team_translate_pe(nvshmem_team_t src_team, int src_pe,
                                                  nvshmem_team_t dest_team)
{
#ifdef DEVICE_HALF
    static const char routine[] = "nvshmem_team_translate_pe";

    if (src_team == NVSHMEM_TEAM_INVALID || dest_team == NVSHMEM_TEAM_INVALID)
        return -1;
    return shoal_dev_team_translate(shoal_dev_team_get(src_team, 1, routine), src_pe,
                                    shoal_dev_team_get(dest_team, 1, routine));
#else
    return shoal_gpu_team_translate(src_team, src_pe, dest_team);
#endif
}

/* On the device, a barrier among all PEs of the job; one thread of each PE calls
 * it. PEs not mapped here are reached through the host proxy (without one,
 * SHOAL_GPU_PROXY=none, they are an error). On the host, shmem_barrier_all and
 * shmem_sync_all. */
__host__ __device__ void nvshmem_barrier_all(void)
{
#ifdef DEVICE_HALF
    shoal_dev_barrier(NVSHMEM_TEAM_WORLD, 1, "nvshmem_barrier_all");
#else
    shoal_gpu_barrier_all();
#endif
}

__host__ __device__ void nvshmem_sync_all(void)
{
#ifdef DEVICE_HALF
    shoal_dev_barrier(NVSHMEM_TEAM_WORLD, 0, "nvshmem_sync_all");
#else
    shoal_gpu_sync_all();
#endif
}

/* The same among team's members. On the host, a quiet (the host proxy's too)
 * and shmem_team_sync on the team's host handle. */
__host__ __device__ void nvshmem_barrier(nvshmem_team_t team)
{
#ifdef DEVICE_HALF
    shoal_dev_barrier(team, 1, "nvshmem_barrier");
#else
    shoal_gpu_team_barrier(team, 1, "nvshmem_barrier");
#endif
}

__host__ __device__ int nvshmem_team_sync(nvshmem_team_t team)
{
#ifdef DEVICE_HALF
    shoal_dev_barrier(team, 0, "nvshmem_team_sync");
#else
    shoal_gpu_team_barrier(team, 0, "nvshmem_team_sync");
#endif
    return 0;
}

/* The _block and _warp forms: every thread of the group calls them. */
__device__ void nvshmemx_barrier_all_block(void)
{
    group_barrier(NVSHMEM_TEAM_WORLD, 1, 0, "nvshmemx_barrier_all_block");
}

__device__ void nvshmemx_barrier_all_warp(void)
{
    group_barrier(NVSHMEM_TEAM_WORLD, 1, 1, "nvshmemx_barrier_all_warp");
}

__device__ void nvshmemx_sync_all_block(void)
{
    group_barrier(NVSHMEM_TEAM_WORLD, 0, 0, "nvshmemx_sync_all_block");
}

__device__ void nvshmemx_sync_all_warp(void)
{
    group_barrier(NVSHMEM_TEAM_WORLD, 0, 1, "nvshmemx_sync_all_warp");
}

__device__ void nvshmemx_barrier_block(nvshmem_team_t team)
{
    group_barrier(team, 1, 0, "nvshmemx_barrier_block");
}

__device__ void nvshmemx_barrier_warp(nvshmem_team_t team)
{
    group_barrier(team, 1, 1, "nvshmemx_barrier_warp");
}

__device__ int nvshmemx_team_sync_block(nvshmem_team_t team)
{
    group_barrier(team, 0, 0, "nvshmemx_team_sync_block");
    return 0;
}

__device__ int nvshmemx_team_sync_warp(nvshmem_team_t team)
{
    group_barrier(team, 0, 1, "nvshmemx_team_sync_warp");
    return 0;
}

} /* extern "C" */
