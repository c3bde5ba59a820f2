/* Teams: the predefined ones and the splits. Each team owns a slot of counters
 * in an internal symmetric area made at start-up, so creating a team allocates
 * nothing symmetric (the heap's offsets stay identical on every PE). The PEs of
 * a parent agree on a slot that is free on all of them by AND-ing their masks. */
#include "shoal_core.h"
#include "shoal_coll_impl.h"
#include "shoal_rt.h"
#include "shoal_status.h"

#include <stdlib.h>
#include <string.h>

#define SLOT_STRIDE 64 /* one cache line per counter: each has its own writer */
#define SLOT_STAGE (SHOAL_SYNC_FLAGS * SLOT_STRIDE + SHOAL_SYNC_SCRATCH * 8)
/* A slot's bytes: on one node its staging area is only what a staged broadcast
 * uses; a job that spans nodes adds the regions' room and the exchange area
 * (about 38 KiB a slot, 2.4 MiB for 64 teams, where one node needs 656 KiB, and
 * a 1 MiB heap still starts). */
#define SLOT_BYTES_ONE_NODE (SLOT_STAGE + SHOAL_STAGE_ROOTS * SLOT_STRIDE + SHOAL_STAGE_BYTES)
#define SLOT_BYTES_NODES                                                                           \
    (SLOT_STAGE + SHOAL_STAGE_ROOTS * SLOT_STRIDE + SHOAL_STAGE_AREA + SHOAL_XCHG_BYTES)
_Static_assert(SLOT_STRIDE >= 16, "a counter's line also holds the count of shoal_coll_enter");

shoal_team_t shoal_team_world, shoal_team_shared;

static shoal_handles_t handles = SHOAL_HANDLES_INIT(SHOAL_HANDLE_TEAM_TAG);
static size_t slots_off;                        /* heap offset of slot 0 */
static size_t slot_bytes = SLOT_BYTES_ONE_NODE; /* set by shoal_team_setup */
static uint64_t slots_free;                     /* this PE's free slots, one bit each */

static void pset_init(shoal_pset_t *ps, int slot)
{
    ps->sync_seg = SHOAL_SEG_HEAP;
    ps->sync_off = slots_off + (size_t)slot * slot_bytes;
    ps->sync_stride = SLOT_STRIDE;
}

static void team_release(shoal_team_t *t)
{
    free(t->pes);
    free(t->index_of);
    free(t->hier.local);
    free(t->hier.leaders);
    t->pes = t->index_of = NULL;
    memset(&t->hier, 0, sizeof(t->hier));
}

/* t as the n PEs start, start + stride, ...: no tables needed. */
static void team_strided(shoal_team_t *t, int slot, int start, int stride, int n, int num_contexts)
{
    memset(t, 0, sizeof(*t));
    t->slot = slot;
    t->num_contexts = num_contexts;
    t->pset.size = n;
    t->pset.start = start;
    t->pset.stride = stride;
    pset_init(&t->pset, slot);
    t->pset.me = shoal_team_index(t, shoal_core_state.my_pe);
    t->pset.stage_off = t->pset.sync_off + SLOT_STAGE;
    t->pset.stage_sent = t->stage_sent;
    t->pset.stage_got = t->stage_got;
    t->pset.exchanges = &t->exchanges;
    t->pset.region_sent = t->region_sent;
    t->pset.region_got = t->region_got;
    t->pset.hier = &t->hier;
    shoal_coll_entered_reset(&t->pset);
}

size_t shoal_team_slot_bytes(void)
{
    return slot_bytes;
}

/* t from world PEs pes[0..n): strided when they are, else with tables. */
static shoal_status_t team_make(shoal_team_t *t, int slot, const int *pes, int n, int num_contexts)
{
    int i, stride = n > 1 ? pes[1] - pes[0] : 1, strided = stride > 0;

    for (i = 2; i < n && strided; i++)
        strided = pes[i] - pes[i - 1] == stride;
    team_strided(t, slot, pes[0], strided ? stride : 1, n, num_contexts);
    if (strided)
        return SHOAL_OK;
    t->pes = malloc((size_t)n * sizeof(int));
    t->index_of = malloc((size_t)shoal_core_state.n_pes * sizeof(int));
    if (t->pes == NULL || t->index_of == NULL) {
        team_release(t);
        return SHOAL_ERR_NO_MEMORY;
    }
    memcpy(t->pes, pes, (size_t)n * sizeof(int));
    for (i = 0; i < shoal_core_state.n_pes; i++)
        t->index_of[i] = -1;
    for (i = 0; i < n; i++)
        t->index_of[pes[i]] = i;
    t->pset.pes = t->pes;
    t->pset.me = t->index_of[shoal_core_state.my_pe];
    return SHOAL_OK;
}

static int by_rank(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The PEs this one reaches by load/store (what shmem_ptr works for): the node's,
 * from the launcher (every PE when it cannot say), or only itself when
 * SHOAL_TRANSPORT=ucx sends every peer through UCX. */
static shoal_status_t shared_pes(int local_size, int **pes_out, int *n_out)
{
    int *pes = NULL, n = 0, i;

    if (shoal_core_state.settings.transport == SHOAL_TRANSPORT_UCX)
        local_size = 1;
    if (local_size == 1 || shoal_rt_local_peers(&pes, &n) != SHOAL_OK || n == 0) {
        n = local_size >= shoal_core_state.n_pes || shoal_core_state.n_pes == 1
                ? shoal_core_state.n_pes
                : 1;
        pes = malloc((size_t)n * sizeof(int));
        if (pes == NULL)
            return SHOAL_ERR_NO_MEMORY;
        for (i = 0; i < n; i++)
            pes[i] = n == 1 ? shoal_core_state.my_pe : i;
    }
    qsort(pes, (size_t)n, sizeof(int), by_rank);
    *pes_out = pes;
    *n_out = n;
    return SHOAL_OK;
}

shoal_status_t shoal_team_setup(int local_size)
{
    int max = (int)shoal_core_state.settings.teams_max, status, n, *pes;

    slot_bytes = local_size < shoal_core_state.n_pes ? SLOT_BYTES_NODES : SLOT_BYTES_ONE_NODE;
    status = shoal_heap_alloc_own(&shoal_core_state.heap, (size_t)max * slot_bytes, SLOT_STRIDE,
                                  &slots_off);
    if (status != SHOAL_OK)
        return status;
    slots_free = (max == 64 ? ~(uint64_t)0 : (((uint64_t)1 << max) - 1)) & ~(uint64_t)3;
    team_strided(&shoal_team_world, 0, 0, 1, shoal_core_state.n_pes, SHOAL_TEAM_CTX_ANY);
    shoal_team_world.predefined = 1;
    shoal_team_world.pset.name = "SHMEM_TEAM_WORLD";
    status = shared_pes(local_size, &pes, &n);
    if (status != SHOAL_OK)
        return status;
    status = team_make(&shoal_team_shared, 1, pes, n, SHOAL_TEAM_CTX_ANY);
    free(pes);
    shoal_team_shared.predefined = 1;
    shoal_team_shared.pset.name = "SHMEM_TEAM_SHARED";
    if (status == SHOAL_OK)
        status = shoal_handle_add(&handles, &shoal_team_world, &shoal_team_world.handle);
    if (status == SHOAL_OK)
        status = shoal_handle_add(&handles, &shoal_team_shared, &shoal_team_shared.handle);
    if (status == SHOAL_OK && (shoal_team_world.handle != SHOAL_TEAM_WORLD_HANDLE ||
                               shoal_team_shared.handle != SHOAL_TEAM_SHARED_HANDLE))
        status = SHOAL_ERR_INVALID_ARG; /* the exported constants would name nothing */
    return status;
}

/* A team the program left alive at shmem_finalize, which destroys every team: no
 * drain (no PE runs a collective any more), only its memory. */
static void team_free(void *obj)
{
    shoal_team_t *t = obj;

    shoal_handle_remove(&handles, t->handle);
    team_release(t);
    free(t);
}

void shoal_team_cleanup(void)
{
    shoal_handle_each(&handles, 2, team_free); /* after WORLD and SHARED */
    team_release(&shoal_team_world);
    team_release(&shoal_team_shared);
    shoal_handle_cleanup(&handles);
    slots_free = 0;
}

shoal_team_t *shoal_team_find(uintptr_t handle, shoal_handle_state_t *state_out)
{
    return shoal_handle_find(&handles, handle, state_out);
}

uint64_t shoal_team_and(shoal_team_t *team, uint64_t value, const char *routine)
{
    const shoal_pset_t *ps = &team->pset;
    size_t src = shoal_pset_scratch(ps, 0), dst = shoal_pset_scratch(ps, 1);
    uint64_t *base = (uint64_t *)shoal_core_state.seg[ps->sync_seg].base, all;

    __atomic_store_n(&base[src / 8], value, __ATOMIC_RELEASE);
    shoal_coll_reduce(ps, ps->sync_seg, dst, ps->sync_seg, src, 1, SHOAL_RED_AND, SHOAL_DT_UINT, 8,
                      routine);
    all = base[dst / 8];
    base[src / 8] = base[dst / 8] = 0; /* every read of them ended in the reduction */
    return all;
}

shoal_status_t shoal_team_split(shoal_team_t *parent, int nteams, int *const *want, const int *n,
                                const int *num_contexts, shoal_team_t **out, const char *routine)
{
    /* the slots free on every PE of parent */
    uint64_t mask = shoal_team_and(parent, slots_free, routine);
    int k, i, slot[2], status = SHOAL_OK;

    for (k = 0; k < nteams; k++)
        out[k] = NULL;
    for (k = 0; k < nteams; k++) {
        if (mask == 0)
            return SHOAL_ERR_NO_RESOURCE; /* on every member alike: they all saw one mask */
        slot[k] = __builtin_ctzll(mask);
        mask &= mask - 1;
    }
    for (k = 0; k < nteams; k++) {
        shoal_team_t *t;

        if (n[k] == 0)
            continue;
        for (i = 0; i < n[k]; i++) /* parent indices to world PEs */
            want[k][i] = shoal_pset_pe(&parent->pset, want[k][i]);
        t = malloc(sizeof(*t));
        status =
            t == NULL ? SHOAL_ERR_NO_MEMORY : team_make(t, slot[k], want[k], n[k], num_contexts[k]);
        if (status == SHOAL_OK)
            status = shoal_handle_add(&handles, t, &t->handle);
        if (status != SHOAL_OK)
            shoal_log_fatal("%s: cannot make the new team (%s)", routine,
                            shoal_status_string(status));
        slots_free &= ~((uint64_t)1 << slot[k]);
        out[k] = t;
    }
    return SHOAL_OK;
}

void shoal_team_destroy(shoal_team_t *team)
{
    if (team->pset.me >= 0) {
        shoal_coll_stage_drain(&team->pset, "shmem_team_destroy");
        shoal_coll_region_drain(&team->pset, "shmem_team_destroy");
    }
    shoal_coll_slots_clear(&team->pset);
    slots_free |= (uint64_t)1 << team->slot;
    shoal_handle_remove(&handles, team->handle);
    team_release(team);
    free(team);
}
