/* Team routines: queries, translation, the two splits, destroy and sync. The
 * splits are collective over the parent; the core agrees on a free slot. */
#include "shoal_api.h"
#include "shoal_check.h"
#include "shoal_profile.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

shmem_team_t SHMEM_TEAM_WORLD = (shmem_team_t)SHOAL_TEAM_WORLD_HANDLE;
shmem_team_t SHMEM_TEAM_SHARED = (shmem_team_t)SHOAL_TEAM_SHARED_HANDLE;

/* The team a query names, or NULL for SHMEM_TEAM_INVALID (the query's -1). */
static shoal_team_t *query_team(shmem_team_t team, const char *routine, const char *arg)
{
    shoal_check_init(routine);
    return shoal_check_team_handle(team, routine, arg);
}

static shmem_team_t handle_of(const shoal_team_t *t)
{
    return t == NULL ? SHMEM_TEAM_INVALID : (shmem_team_t)t->handle;
}

int pshmem_team_my_pe(shmem_team_t team)
{
    shoal_team_t *t = query_team(team, "shmem_team_my_pe", "team");

    return t == NULL ? -1 : t->pset.me;
}
SHOAL_PROFILED(shmem_team_my_pe);

int pshmem_team_n_pes(shmem_team_t team)
{
    shoal_team_t *t = query_team(team, "shmem_team_n_pes", "team");

    return t == NULL ? -1 : t->pset.size;
}
SHOAL_PROFILED(shmem_team_n_pes);

/* The contexts team may have at once now (OpenSHMEM 1.6: get_config reports the
 * values in force, not those the team was made with): its own limit, cut to
 * SHOAL_CTX_MAX, which bounds every team, or SHOAL_CTX_MAX alone for a team made
 * without SHMEM_TEAM_NUM_CONTEXTS and for the predefined teams. */
static int contexts_now(const shoal_team_t *t)
{
    size_t max = shoal_core_settings()->ctx_max;
    int cap = max > INT_MAX ? INT_MAX : (int)max;

    return t->num_contexts == SHOAL_TEAM_CTX_ANY || t->num_contexts > cap ? cap : t->num_contexts;
}

int pshmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
    shoal_team_t *t = query_team(team, "shmem_team_get_config", "team");

    if (t == NULL)
        return -1;
    if (config_mask == 0) /* 1.6: no action, and config may be NULL */
        return 0;
    if (config == NULL)
        shoal_log_fatal("shmem_team_get_config: argument config is NULL and config_mask is %#lx; "
                        "pass the address of a shmem_team_config_t, or a config_mask of 0",
                        (unsigned long)config_mask);
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = contexts_now(t);
    return 0;
}
SHOAL_PROFILED(shmem_team_get_config);

int pshmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
    shoal_team_t *src = query_team(src_team, "shmem_team_translate_pe", "src_team");
    shoal_team_t *dest = query_team(dest_team, "shmem_team_translate_pe", "dest_team");

    if (src == NULL || dest == NULL || src_pe < 0 || src_pe >= src->pset.size)
        return -1;
    return shoal_team_index(dest, shoal_pset_pe(&src->pset, src_pe));
}
SHOAL_PROFILED(shmem_team_translate_pe);

/* The parent team, or NULL when it is SHMEM_TEAM_INVALID. */
static shoal_team_t *split_parent(shmem_team_t parent_team, const char *routine)
{
    shoal_team_t *parent = query_team(parent_team, routine, "parent_team");

    if (parent != NULL && parent->pset.me < 0)
        shoal_log_fatal("%s: PE %d is not a member of argument parent_team (%d PEs)", routine,
                        shoal_core_my_pe(), parent->pset.size);
    return parent;
}

static void check_out(const void *out, const char *routine, const char *arg)
{
    if (out == NULL)
        shoal_log_fatal("%s: argument %s is NULL, expected the address of a shmem_team_t", routine,
                        arg);
}

/* A split that makes no team: every parent member returns -1 alike (they passed
 * the same arguments), as the spec says; SHMEM_DEBUG says why, and so does
 * SHOAL_CHECK_COLL, for which it is likely a bug. */
static int split_refused(const char *routine, const char *why)
{
    if (shoal_core_settings()->check_coll)
        shoal_log_warn("%s: %s; no team made, returning -1", routine, why);
    else
        shoal_log_debug("%s: %s; no team made, returning -1", routine, why);
    return -1;
}

/* The contexts a new team may have at once. With SHMEM_TEAM_NUM_CONTEXTS in the
 * mask, num_contexts (0 or less: none). Without it the spec's default is 0, "no
 * contexts can be created", but programs written for other implementations make
 * contexts on teams split with no configuration, so only SHOAL_CTX_MAX limits those. */
static int contexts_of(const shmem_team_config_t *config, long mask)
{
    if (config == NULL || !(mask & SHMEM_TEAM_NUM_CONTEXTS))
        return SHOAL_TEAM_CTX_ANY;
    return config->num_contexts > 0 ? config->num_contexts : 0;
}

int pshmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                              const shmem_team_config_t *config, long config_mask,
                              shmem_team_t *new_team)
{
    const char *routine = "shmem_team_split_strided";
    shoal_team_t *parent = split_parent(parent_team, routine), *out[1];
    int n[1] = {0}, nctx[1] = {contexts_of(config, config_mask)}, *want[1], i, rc;
    long long last;
    char why[160];

    check_out(new_team, routine, "new_team");
    *new_team = SHMEM_TEAM_INVALID;
    if (parent == NULL)
        return -1;
    /* Always, not only with SHOAL_CHECK_COLL: PEs that pass different triplets
     * would each make another team and hang in its first collective. A split is
     * rare, and this costs two barriers and a get. */
    shoal_coll_check(&parent->pset, routine,
                     (const uint64_t[]){(uint64_t)(int64_t)start, (uint64_t)(int64_t)stride,
                                        (uint64_t)(int64_t)size},
                     (const char *const[]){"start", "stride", "size"}, 3, 0);
    /* An invalid or empty triplet is a failed split, in the spec's words. */
    last = start + (long long)(size - 1) * (size > 1 ? stride : 0);
    if (size < 1 || (stride == 0 && size > 1) || start < 0 || start >= parent->pset.size ||
        last < 0 || last >= parent->pset.size) {
        snprintf(why, sizeof(why),
                 "start %d, stride %d, size %d name no team of the parent's PEs 0..%d", start,
                 stride, size, parent->pset.size - 1);
        return split_refused(routine, why);
    }
    want[0] = malloc((size_t)size * sizeof(int));
    if (want[0] == NULL)
        shoal_log_fatal("%s: out of memory for %d PEs", routine, size);
    for (i = 0; i < size; i++) {
        want[0][i] = start + i * (size > 1 ? stride : 0);
        if (want[0][i] == parent->pset.me)
            n[0] = size;
    }
    rc = shoal_team_split(parent, 1, want, n, nctx, out, routine) == SHOAL_OK ? 0 : -1;
    free(want[0]);
    *new_team = handle_of(out[0]);
    return rc;
}
SHOAL_PROFILED(shmem_team_split_strided);

int pshmem_team_split_2d(shmem_team_t parent_team, int xrange,
                         const shmem_team_config_t *xaxis_config, long xaxis_mask,
                         shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                         long yaxis_mask, shmem_team_t *yaxis_team)
{
    const char *routine = "shmem_team_split_2d";
    shoal_team_t *parent = split_parent(parent_team, routine), *out[2];
    int nctx[2] = {contexts_of(xaxis_config, xaxis_mask), contexts_of(yaxis_config, yaxis_mask)};
    int n[2] = {0, 0}, *want[2], size, me, x, y, i, rc;

    check_out(xaxis_team, routine, "xaxis_team");
    check_out(yaxis_team, routine, "yaxis_team");
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent == NULL)
        return -1;
    shoal_coll_check(&parent->pset, routine, (const uint64_t[]){(uint64_t)(int64_t)xrange},
                     (const char *const[]){"xrange"}, 1, 0);
    if (xrange < 1)
        return split_refused(routine, xrange == 0 ? "argument xrange is 0: no PE has an x"
                                                  : "argument xrange is negative");
    size = parent->pset.size;
    me = parent->pset.me;
    if (xrange > size) /* one row holds every PE */
        xrange = size;
    x = me % xrange;
    y = me / xrange;
    want[0] = malloc((size_t)xrange * sizeof(int));
    want[1] = malloc(((size_t)size / (size_t)xrange + 1) * sizeof(int));
    if (want[0] == NULL || want[1] == NULL)
        shoal_log_fatal("%s: out of memory for %d PEs", routine, size);
    for (i = y * xrange; i < size && i < (y + 1) * xrange; i++)
        want[0][n[0]++] = i;
    for (i = x; i < size; i += xrange)
        want[1][n[1]++] = i;
    rc = shoal_team_split(parent, 2, want, n, nctx, out, routine) == SHOAL_OK ? 0 : -1;
    free(want[0]);
    free(want[1]);
    *xaxis_team = handle_of(out[0]);
    *yaxis_team = handle_of(out[1]);
    return rc;
}
SHOAL_PROFILED(shmem_team_split_2d);

void pshmem_team_destroy(shmem_team_t team)
{
    shoal_team_t *t = query_team(team, "shmem_team_destroy", "team");

    if (t == NULL)
        return;
    if (t->predefined)
        shoal_log_fatal("shmem_team_destroy: argument team is %s, a predefined team, which cannot "
                        "be destroyed",
                        t == &shoal_team_world ? "SHMEM_TEAM_WORLD" : "SHMEM_TEAM_SHARED");
    shoal_ctx_destroy_team(t);
    shoal_team_destroy(t);
}
SHOAL_PROFILED(shmem_team_destroy);

int pshmem_team_sync(shmem_team_t team)
{
    const char *routine = "shmem_team_sync";

    shoal_coll_barrier_program(shoal_check_team(team, routine), 0, routine);
    return 0;
}
SHOAL_PROFILED(shmem_team_sync);

void *pshmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
    size_t off;
    int seg;

    shoal_team_t *t = query_team(team, "shmem_team_ptr", "team");

    if (t == NULL)
        return NULL;
    if (pe < 0 || pe >= t->pset.size) { /* as for what cannot be reached: NULL */
        shoal_log_debug("shmem_team_ptr: argument pe is %d, valid range 0..%d (PEs of the team); "
                        "returning NULL",
                        pe, t->pset.size - 1);
        return NULL;
    }
    seg = shoal_segment_find(dest, &off);
    if (seg < 0)
        return NULL;
    return shoal_core_ptr(shoal_pset_pe(&t->pset, pe), seg, off);
}
SHOAL_PROFILED(shmem_team_ptr);
