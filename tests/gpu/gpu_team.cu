/* Teams in kernels: nvshmem_team_split_strided and _split_2d on the host, then
 * in a kernel nvshmem_team_my_pe, _n_pes and _translate_pe on every team (checked
 * against the host's answers and the arithmetic of the split), and the team
 * barriers: nvshmem_barrier, nvshmem_team_sync and their _block and _warp forms.
 * The barrier rounds are gpu_barrier's: each member puts a round's value into its
 * right-hand neighbour's box, passes a barrier and checks its own box; the member
 * whose turn it is sleeps first, so a member let through early reads a stale
 * value. After destroying the split teams it splits the whole world again, which
 * takes a freed slot whose words other PEs used: they must start from zero.
 * Blocks of 40 threads (a full warp and a partial one). gpu_team.sh runs it at 2
 * and 4 PEs, both transports. Exit 0 pass, 77 without a GPU, 99 fail. */
#include "gpu_test.h"

#define ITERS 40 /* barrier rounds per team (GPU_TEAM_ITERS shrinks it) */
#define THREADS 40
#define MAX_PES 64
#define MAX_TEAMS 8

/* A team as the test expects it: member i is world PE start + i * stride. */
typedef struct {
    nvshmem_team_t team;
    int start, stride, size;
    const char *name;
} expect_t;

/* What a kernel answers for one team: my_pe, n_pes, each world PE translated
 * into the team and each team index translated into the world. */
typedef struct {
    int my_pe, n_pes;
    int to_team[MAX_PES];
    int to_world[MAX_PES];
} answer_t;

__global__ void k_query(const nvshmem_team_t *teams, int nteams, int n_pes, answer_t *out)
{
    int t, p;

    for (t = 0; t < nteams; t++) {
        out[t].my_pe = nvshmem_team_my_pe(teams[t]);
        out[t].n_pes = nvshmem_team_n_pes(teams[t]);
        for (p = 0; p < n_pes; p++) {
            out[t].to_team[p] = nvshmem_team_translate_pe(NVSHMEM_TEAM_WORLD, p, teams[t]);
            out[t].to_world[p] = nvshmem_team_translate_pe(teams[t], p, NVSHMEM_TEAM_WORLD);
        }
    }
}

/* Rounds 1..iters on team; thread 0 puts and checks, the group forms take the
 * whole block (or the first warp). */
__global__ void k_barrier(nvshmem_team_t team, int *box, int right, int idx, int size, int base,
                          int iters, int *bad)
{
    int i, tid = threadIdx.x, me = nvshmem_my_pe();

    for (i = 1; i <= iters; i++) {
        if (tid == 0) {
            if (i % size == idx)
                __nanosleep(20000);
            nvshmem_int_p(&box[i % 2], base + i, right);
        }
        switch (i % 5) {
        case 0:
            if (tid == 0)
                nvshmem_barrier(team);
            break;
        case 1:
            if (tid == 0) {
                nvshmem_quiet();
                nvshmem_team_sync(team);
            }
            break;
        /* On the world team, the _all forms. */
        case 2:
            if (team == NVSHMEM_TEAM_WORLD)
                nvshmemx_barrier_all_block();
            else
                nvshmemx_barrier_block(team);
            break;
        case 3:
            if (tid < 32 && team == NVSHMEM_TEAM_WORLD)
                nvshmemx_barrier_all_warp();
            else if (tid < 32)
                nvshmemx_barrier_warp(team);
            break;
        case 4:
            if (tid == 0)
                nvshmem_quiet();
            if (tid < 32 && team == NVSHMEM_TEAM_WORLD)
                nvshmemx_sync_all_warp();
            else if (tid < 32)
                nvshmemx_team_sync_warp(team);
            if (team == NVSHMEM_TEAM_WORLD)
                nvshmemx_sync_all_block();
            else
                nvshmemx_team_sync_block(team);
            break;
        }
        if (tid == 0) {
            int v = nvshmem_int_g(&box[i % 2], me);

            if (v != base + i && bad[0]++ == 0) {
                bad[1] = i;
                bad[2] = v;
            }
        }
    }
}

/* The world PE's number in e, or -1. */
static int index_in(const expect_t *e, int pe)
{
    int off = pe - e->start;

    if (off % e->stride != 0 || off / e->stride < 0 || off / e->stride >= e->size)
        return -1;
    return off / e->stride;
}

static void check_queries(const expect_t *e, int n, int me, int n_pes)
{
    nvshmem_team_t *teams = gpu_test_results<nvshmem_team_t>(MAX_TEAMS);
    answer_t *a = gpu_test_results<answer_t>(MAX_TEAMS);
    int t, p;

    for (t = 0; t < n; t++)
        teams[t] = e[t].team;
    GPU_LAUNCH(k_query, 1, 1, teams, n, n_pes, a);
    GPU_CUDA(cudaGetLastError());
    GPU_CUDA(cudaDeviceSynchronize());
    for (t = 0; t < n; t++) {
        char what[96];

        snprintf(what, sizeof(what), "%s: nvshmem_team_my_pe (device)", e[t].name);
        GPU_CHECK_EQ(what, index_in(&e[t], me), a[t].my_pe);
        snprintf(what, sizeof(what), "%s: nvshmem_team_my_pe (host)", e[t].name);
        GPU_CHECK_EQ(what, index_in(&e[t], me), nvshmem_team_my_pe(e[t].team));
        snprintf(what, sizeof(what), "%s: nvshmem_team_n_pes (device)", e[t].name);
        GPU_CHECK_EQ(what, e[t].size, a[t].n_pes);
        snprintf(what, sizeof(what), "%s: nvshmem_team_n_pes (host)", e[t].name);
        GPU_CHECK_EQ(what, e[t].size, nvshmem_team_n_pes(e[t].team));
        for (p = 0; p < n_pes; p++) {
            int world = p < e[t].size ? e[t].start + p * e[t].stride : -1;

            snprintf(what, sizeof(what), "%s: world PE %d translated into it", e[t].name, p);
            GPU_CHECK_EQ(what, index_in(&e[t], p), a[t].to_team[p]);
            GPU_CHECK_EQ(what, index_in(&e[t], p),
                         nvshmem_team_translate_pe(NVSHMEM_TEAM_WORLD, p, e[t].team));
            snprintf(what, sizeof(what), "%s: its PE %d translated into the world", e[t].name, p);
            GPU_CHECK_EQ(what, world, a[t].to_world[p]);
            GPU_CHECK_EQ(what, world, nvshmem_team_translate_pe(e[t].team, p, NVSHMEM_TEAM_WORLD));
        }
    }
    GPU_CHECK_EQ("translate with NVSHMEM_TEAM_INVALID", -1,
                 nvshmem_team_translate_pe(NVSHMEM_TEAM_INVALID, 0, NVSHMEM_TEAM_WORLD));
    GPU_CHECK_EQ("nvshmem_team_n_pes(NVSHMEM_TEAM_INVALID)", -1,
                 nvshmem_team_n_pes(NVSHMEM_TEAM_INVALID));
}

/* gpu_barrier's rounds on e, from every member; the host's nvshmem_barrier and
 * nvshmem_team_sync on the team after each launch. */
static void check_barriers(const expect_t *e, int me, int iters, int *box)
{
    int idx = index_in(e, me), *bad = gpu_test_results<int>(3), k;
    int right = e->start + ((idx + 1) % e->size) * e->stride;

    if (idx < 0)
        return;
    /* A box per team: a PE may start on a team while a partner still tests
     * another (the handle is the same on every member). */
    box += 2 * e->team;
    for (k = 0; k < 2; k++) {
        GPU_LAUNCH(k_barrier, 1, THREADS, e->team, box, right, idx, e->size, k * iters, iters, bad);
        GPU_CUDA(cudaGetLastError());
        GPU_CUDA(cudaDeviceSynchronize());
        if (k == 0)
            nvshmem_barrier(e->team);
        else
            nvshmem_team_sync(e->team);
    }
    GPU_CHECK(bad[0] == 0,
              "%s: %d stale reads after a team barrier, the first in round %d "
              "(found %d)",
              e->name, bad[0], bad[1], bad[2]);
}

int main(void)
{
    int me, n_pes, iters, t, n = 0, x_start, *box, node0, node_n;
    nvshmem_team_t evens, xt, yt, all;
    expect_t e[MAX_TEAMS];

    shmem_init();
    gpu_test_start_upto("gpu_team", MAX_PES);
    me = shmem_my_pe();
    n_pes = shmem_n_pes();
    iters = gpu_test_count("GPU_TEAM_ITERS", ITERS);
    box = (int *)shmem_calloc(2 * 32, sizeof(int)); /* two per team handle (0..31) */
    GPU_CHECK_EQ(
        "nvshmem_team_split_strided's return", 0,
        nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, 0, 2, (n_pes + 1) / 2, NULL, 0, &evens));
    GPU_CHECK_EQ("nvshmem_team_split_2d's return", 0,
                 nvshmem_team_split_2d(NVSHMEM_TEAM_WORLD, 2, NULL, 0, &xt, NULL, 0, &yt));
    GPU_CHECK(me % 2 != 0 || evens != NVSHMEM_TEAM_INVALID, "evens is %d", evens);
    GPU_CHECK(me % 2 == 0 || evens == NVSHMEM_TEAM_INVALID, "evens is %d", evens);

    e[n++] = (expect_t){NVSHMEM_TEAM_WORLD, 0, 1, n_pes, "NVSHMEM_TEAM_WORLD"};
    /* This node's PEs: consecutive when the launcher places by slot, every
     * other one when it places by node (tests/multinode), so the stride is
     * read from the shared team too. */
    node0 = shmem_team_translate_pe(SHMEM_TEAM_SHARED, 0, SHMEM_TEAM_WORLD);
    node_n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    e[n++] = (expect_t){NVSHMEMX_TEAM_NODE, node0,
                        node_n > 1 ? shmem_team_translate_pe(SHMEM_TEAM_SHARED, 1,
                                                             SHMEM_TEAM_WORLD) - node0
                                   : 1,
                        node_n, "NVSHMEMX_TEAM_NODE"};
    if (me % 2 == 0)
        e[n++] = (expect_t){evens, 0, 2, (n_pes + 1) / 2, "evens (split_strided 0, 2)"};
    x_start = me / 2 * 2;
    e[n++] = (expect_t){xt, x_start, 1, n_pes - x_start < 2 ? n_pes - x_start : 2,
                        "x (split_2d, xrange 2)"};
    e[n++] = (expect_t){yt, me % 2, 2, (n_pes - me % 2 + 1) / 2, "y (split_2d, xrange 2)"};
    check_queries(e, n, me, n_pes);
    /* Each PE in its teams' order: world, node, evens (even PEs), x, y. */
    for (t = 0; t < n; t++)
        check_barriers(&e[t], me, iters, box);
    shmem_barrier_all();

    /* The freed slots go to the next splits: a world-wide team takes the first,
     * whose words only the even PEs used so far. */
    if (evens != NVSHMEM_TEAM_INVALID)
        nvshmem_team_destroy(evens);
    nvshmem_team_destroy(xt);
    nvshmem_team_destroy(yt);
    GPU_CHECK_EQ("split after destroy", 0,
                 nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, 0, 1, n_pes, NULL, 0, &all));
    e[0] = (expect_t){all, 0, 1, n_pes, "all (split_strided 0, 1, after destroys)"};
    check_queries(e, 1, me, n_pes);
    check_barriers(&e[0], me, iters, box);
    nvshmem_team_destroy(all);
    if (me == 0)
        printf("gpu_team: queries, translations and %d barrier rounds on %d teams at %d PEs\n",
               2 * iters, n + 1, n_pes);
    return gpu_test_finish("gpu_team");
}
