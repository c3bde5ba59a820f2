/* The host's team routines for kernels: nvshmem_team_split_strided, _split_2d and
 * nvshmem_team_destroy make and end host teams (shmem_team_*) and give each a
 * slot of the device state's team table (team_table.cu), whose index is the
 * nvshmem_team_t; plus the host halves of nvshmem_team_translate_pe,
 * nvshmem_barrier and nvshmem_team_sync. Never called from a kernel. */
#include "shoal_gpu.h"
#include "nvshmem.h"
#include "shmem.h"
#include "shoal_log.h" /* SHOAL_LOG_* levels only */

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* team's entry, or the end of the job with a line naming routine and arg. */
static const shoal_dev_team_t *team_entry(nvshmem_team_t team, const char *arg, const char *routine)
{
    const shoal_dev_team_t *t = shoal_dev_team_at(shoal_gpu.state.teams, team);

    if (t == NULL)
        shoal_gpu.env->fatal("%s: argument %s is %d, which names no team here (expected a "
                             "predefined team, or one that nvshmem_team_split_strided or "
                             "nvshmem_team_split_2d made on this PE and nvshmem_team_destroy "
                             "has not ended)",
                             routine, arg, team);
    return t;
}

/* team's host team; team is valid (team_entry) and has more than one member. */
static shmem_team_t team_handle(nvshmem_team_t team, const char *arg, const char *routine)
{
    shmem_team_t h = shoal_gpu.team_handle[team];

    if (h == NULL)
        shoal_gpu.env->fatal("%s: argument %s is NVSHMEM_TEAM_SHARED, which has no host team "
                             "here: its PEs (those whose heaps this GPU maps) are not "
                             "SHMEM_TEAM_SHARED's; split NVSHMEMX_TEAM_NODE instead",
                             routine, arg);
    return h;
}

void shoal_gpu_bad_team(const char *routine, int team)
{
    team_entry(team, "team", routine);
    abort(); /* team_entry returned: the team is valid, and the caller is wrong */
}

/* Host team h as *out: its slot, NVSHMEM_TEAM_INVALID where this PE is not in
 * it. Returns 0, or -1 (h destroyed) when every slot is taken. */
static int team_adopt(shmem_team_t h, nvshmem_team_t *out, const char *routine)
{
    int slot;

    *out = NVSHMEM_TEAM_INVALID;
    if (h == SHMEM_TEAM_INVALID)
        return 0;
    slot = shoal_gpu_team_register(h);
    if (slot < 0) {
        shmem_team_destroy(h);
        shoal_gpu.env->log(SHOAL_LOG_WARN,
                           "%s: every one of the %d device team slots is in "
                           "use on some member of the new team; returning "
                           "NVSHMEM_TEAM_INVALID (destroy teams no longer needed)",
                           routine, SHOAL_DEV_TEAMS_MAX);
        return -1;
    }
    *out = slot;
    return 0;
}

/* NVSHMEM's config as shmem's: only the number of contexts. */
static const shmem_team_config_t *team_config(const nvshmem_team_config_t *config, long mask,
                                              shmem_team_config_t *out)
{
    if (config == NULL)
        return NULL;
    memset(out, 0, sizeof(*out));
    if (mask & NVSHMEM_TEAM_NUM_CONTEXTS)
        out->num_contexts = config->num_contexts;
    return out;
}

static void need_out(const void *p, const char *arg, const char *routine)
{
    if (p == NULL)
        shoal_gpu.env->fatal("%s: argument %s is NULL, expected the address of an "
                             "nvshmem_team_t",
                             routine, arg);
}

/* The state the host team routines read, after the checks every one makes. */
static void team_enter(const char *routine)
{
    shoal_gpu_need_init(routine);
    shoal_gpu_check();
}

int shoal_gpu_team_translate(nvshmem_team_t src_team, int src_pe, nvshmem_team_t dest_team)
{
    static const char routine[] = "nvshmem_team_translate_pe";
    const shoal_dev_team_t *src, *dest;

    team_enter(routine);
    if (src_team == NVSHMEM_TEAM_INVALID || dest_team == NVSHMEM_TEAM_INVALID)
        return -1;
    src = team_entry(src_team, "src_team", routine);
    dest = team_entry(dest_team, "dest_team", routine);
    if (src->stride != 0 && dest->stride != 0)
        return shoal_dev_team_translate(src, src_pe, dest);
    return shmem_team_translate_pe(team_handle(src_team, "src_team", routine), src_pe,
                                   team_handle(dest_team, "dest_team", routine));
}

void shoal_gpu_team_barrier(nvshmem_team_t team, int fence, const char *routine)
{
    const shoal_dev_team_t *t;

    team_enter(routine);
    t = team_entry(team, "team", routine);
    if (fence) {
        shoal_gpu_check_and_drain(); /* what kernels handed the host proxy */
        shmem_quiet();
    }
    if (t->size > 1)
        shmem_team_sync(team_handle(team, "team", routine));
}

extern "C" {

int nvshmem_team_split_strided(nvshmem_team_t parent_team, int PE_start, int PE_stride, int PE_size,
                               const nvshmem_team_config_t *config, long config_mask,
                               nvshmem_team_t *new_team)
{
    static const char routine[] = "nvshmem_team_split_strided";
    shmem_team_config_t c;
    shmem_team_t parent, h = SHMEM_TEAM_INVALID;
    int rc;

    team_enter(routine);
    need_out(new_team, "new_team", routine);
    team_entry(parent_team, "parent_team", routine);
    parent = team_handle(parent_team, "parent_team", routine);
    rc = shmem_team_split_strided(parent, PE_start, PE_stride, PE_size,
                                  team_config(config, config_mask, &c),
                                  config_mask & SHMEM_TEAM_NUM_CONTEXTS, &h);
    *new_team = NVSHMEM_TEAM_INVALID;
    if (rc != 0)
        return rc;
    return team_adopt(h, new_team, routine);
}

int nvshmem_team_split_2d(nvshmem_team_t parent_team, int xrange,
                          const nvshmem_team_config_t *xaxis_config, long xaxis_mask,
                          nvshmem_team_t *xaxis_team, const nvshmem_team_config_t *yaxis_config,
                          long yaxis_mask, nvshmem_team_t *yaxis_team)
{
    static const char routine[] = "nvshmem_team_split_2d";
    shmem_team_config_t cx, cy;
    shmem_team_t parent, hx = SHMEM_TEAM_INVALID, hy = SHMEM_TEAM_INVALID;
    int rc;

    team_enter(routine);
    need_out(xaxis_team, "xaxis_team", routine);
    need_out(yaxis_team, "yaxis_team", routine);
    team_entry(parent_team, "parent_team", routine);
    parent = team_handle(parent_team, "parent_team", routine);
    rc = shmem_team_split_2d(parent, xrange, team_config(xaxis_config, xaxis_mask, &cx),
                             xaxis_mask & SHMEM_TEAM_NUM_CONTEXTS, &hx,
                             team_config(yaxis_config, yaxis_mask, &cy),
                             yaxis_mask & SHMEM_TEAM_NUM_CONTEXTS, &hy);
    *xaxis_team = NVSHMEM_TEAM_INVALID;
    *yaxis_team = NVSHMEM_TEAM_INVALID;
    if (rc != 0)
        return rc;
    /* Every member adopts its x team, then its y team: each adoption is
     * collective on its own team only, and fails on all its members alike (the
     * team that got no slot is NVSHMEM_TEAM_INVALID; the other stays). */
    rc = team_adopt(hx, xaxis_team, routine);
    return team_adopt(hy, yaxis_team, routine) != 0 ? -1 : rc;
}

/* Collective on team's members, like shmem_team_destroy. No kernel may use team
 * after it: its slot can go to the next team a split makes. */
void nvshmem_team_destroy(nvshmem_team_t team)
{
    static const char routine[] = "nvshmem_team_destroy";

    team_enter(routine);
    if (team == NVSHMEM_TEAM_INVALID)
        return;
    team_entry(team, "team", routine);
    if (team < SHOAL_DEV_TEAMS_PREDEFINED)
        shoal_gpu.env->fatal("%s: argument team is %d, a predefined team, expected a team "
                             "that nvshmem_team_split_strided or nvshmem_team_split_2d made",
                             routine, team);
    shmem_team_destroy(shoal_gpu.team_handle[team]);
    shoal_gpu_team_forget(team);
}

} /* extern "C" */
