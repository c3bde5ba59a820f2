/* The device state's team table as the host keeps it: the predefined teams at
 * init, and a slot for each team a split makes (the same slot on every member),
 * with its symmetric words zeroed, its entry copied to the device. Collective
 * where it says so; never called from a kernel. */
#include "shoal_gpu.h"
#include "nvshmem.h"
#include "shmem.h"

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The world PEs of host team h, in team order, in pes (n entries). */
static void team_pes(shmem_team_t h, int n, int *pes)
{
    int i;

    for (i = 0; i < n; i++)
        pes[i] = shmem_team_translate_pe(h, i, SHMEM_TEAM_WORLD);
}

/* Slot's entry of the table to the device copy, where there is one (a GPU set
 * up). The rest of the device state is untouched. */
static void team_publish(int slot)
{
    const shoal_dev_team_t *t = &shoal_gpu.state.teams[slot];
    cudaError_t rc;

    if (!shoal_gpu.active)
        return;
    rc = cudaMemcpyToSymbol(shoal_dev_state, t, sizeof(*t),
                            offsetof(shoal_dev_state_t, teams) + slot * sizeof(*t));
    if (rc != cudaSuccess)
        shoal_gpu.env->fatal("nvshmem_team_split_strided, _split_2d or nvshmem_team_destroy: "
                             "cannot update the GPU's team table (cudaMemcpyToSymbol: %s)",
                             cudaGetErrorString(rc));
}

void shoal_gpu_teams_setup(const shoal_gpu_env_t *env)
{
    shoal_dev_state_t *s = &shoal_gpu.state;
    int n = shmem_team_n_pes(SHMEM_TEAM_SHARED), *pes;
    size_t bytes = SHOAL_DEV_TEAMS_MAX * sizeof(shoal_dev_team_psync_t) + 2 * sizeof(uint64_t);

    /* Collective: every PE's init calls it, GPU or not, so the heap stays
     * symmetric. Never freed: the heap goes with shmem_finalize. */
    s->psync = (shoal_dev_team_psync_t *)shmem_calloc(1, bytes);
    if (s->psync == NULL)
        env->fatal("shmem_init: no room in the symmetric heap for the device teams' %zu bytes "
                   "of synchronization words and scratch; raise SHMEM_SYMMETRIC_SIZE",
                   bytes);
    shoal_gpu.slot_words = (uint64_t *)(s->psync + SHOAL_DEV_TEAMS_MAX);
    memset(s->teams, 0, sizeof(s->teams));
    s->teams[NVSHMEM_TEAM_WORLD] = (shoal_dev_team_t){0, 1, env->n_pes, env->my_pe};
    /* Without a GPU the shared team is this PE alone (shoal_gpu_teams_shared). */
    s->teams[NVSHMEM_TEAM_SHARED] = (shoal_dev_team_t){env->my_pe, 1, 1, 0};
    pes = (int *)malloc((size_t)n * sizeof(int));
    if (pes == NULL)
        env->fatal("shmem_init: out of memory for the %d PEs of SHMEM_TEAM_SHARED", n);
    team_pes(SHMEM_TEAM_SHARED, n, pes);
    shoal_dev_team_describe(pes, n, env->my_pe, &s->teams[NVSHMEMX_TEAM_NODE]);
    free(pes);
    shoal_gpu.team_handle[NVSHMEM_TEAM_WORLD] = SHMEM_TEAM_WORLD;
    shoal_gpu.team_handle[NVSHMEMX_TEAM_NODE] = SHMEM_TEAM_SHARED;
    shoal_gpu.team_handle[NVSHMEM_TEAM_SHARED] = NULL; /* a team of one needs none */
}

void shoal_gpu_teams_shared(char *const *table)
{
    shoal_dev_state_t *s = &shoal_gpu.state;
    const shoal_dev_team_t *node = &s->teams[NVSHMEMX_TEAM_NODE];
    int pe, n = 0, *pes = (int *)malloc((size_t)s->n_pes * sizeof(int));

    if (pes == NULL)
        shoal_gpu.env->fatal("shmem_init: out of memory for a table of %d PEs", s->n_pes);
    for (pe = 0; pe < s->n_pes; pe++)
        if (table[pe] != NULL)
            pes[n++] = pe;
    shoal_dev_team_describe(pes, n, s->my_pe, &s->teams[NVSHMEM_TEAM_SHARED]);
    free(pes);
    /* The shared team is the node's wherever every same-node heap is mapped here
     * (SHOAL_TRANSPORT=auto): then SHMEM_TEAM_SHARED is its host team. */
    if (memcmp(&s->teams[NVSHMEM_TEAM_SHARED], node, sizeof(*node)) == 0)
        shoal_gpu.team_handle[NVSHMEM_TEAM_SHARED] = SHMEM_TEAM_SHARED;
}

/* A slot for host team h, which a split just made with this PE in it, the same
 * on every member: the lowest slot that no member uses (an OR reduction of the
 * members' masks on h). Zeroes this PE's words of the slot, fills and publishes
 * its entry, then syncs h, so that no member's kernel arrives on words another
 * member has not zeroed yet. -1 when no slot is free on every member (then on
 * every member alike). */
int shoal_gpu_team_register(shmem_team_t h)
{
    shoal_dev_state_t *s = &shoal_gpu.state;
    uint64_t *words = shoal_gpu.slot_words, used = 0;
    int slot, n = shmem_team_n_pes(h), *pes;

    for (slot = 0; slot < SHOAL_DEV_TEAMS_MAX; slot++)
        if (s->teams[slot].size != 0)
            used |= 1ULL << slot;
    words[0] = used;
    shmem_uint64_or_reduce(h, &words[1], &words[0], 1);
    for (slot = SHOAL_DEV_TEAMS_PREDEFINED; slot < SHOAL_DEV_TEAMS_MAX; slot++)
        if ((words[1] & (1ULL << slot)) == 0)
            break;
    if (slot == SHOAL_DEV_TEAMS_MAX)
        return -1;
    pes = (int *)malloc((size_t)n * sizeof(int));
    if (pes == NULL)
        shoal_gpu.env->fatal("nvshmem_team_split_strided: out of memory for a team of %d PEs", n);
    team_pes(h, n, pes);
    shoal_dev_team_describe(pes, n, s->my_pe, &s->teams[slot]);
    free(pes);
    memset(&s->psync[slot], 0, sizeof(s->psync[slot]));
    shoal_gpu.team_handle[slot] = h;
    team_publish(slot);
    shmem_team_sync(h);
    return slot;
}

void shoal_gpu_team_forget(int slot)
{
    memset(&shoal_gpu.state.teams[slot], 0, sizeof(shoal_gpu.state.teams[slot]));
    shoal_gpu.team_handle[slot] = NULL;
    team_publish(slot);
}

int shoal_gpu_team_slot_of(shmem_team_t h)
{
    int slot;

    if (h == SHMEM_TEAM_WORLD)
        return NVSHMEM_TEAM_WORLD;
    for (slot = 0; h != NULL && slot < SHOAL_DEV_TEAMS_MAX; slot++)
        if (shoal_gpu.team_handle[slot] == h)
            return slot;
    return -1;
}
