/* Hierarchical collectives for a team that spans nodes: a node's members meet
 * at one of them (the head: the node's leader, or a broadcast's root) by
 * load/store, and only the heads go between nodes. Where a team has four PEs on
 * each of two nodes, a barrier is one one-way trip between the leaders instead
 * of three rounds of eight, and a small reduction one push between leaders
 * instead of 56 (shoal_coll_regions_fit's, member to member).
 *
 * A member that is not the head sends an arrival to the head on HIER_UP and
 * waits for the head's release on FLAT_RELEASE; the head takes an arrival from
 * every other member of its node, does its part, writes the members' dests if
 * it has data for them, and releases them. A member is released before it can
 * arrive again, so the arrivals a head takes are all of this call. HIER_UP is
 * the barrier's last counter, beyond any dissemination round among leaders (a
 * team with a hierarchy has no other barrier), and FLAT_RELEASE keeps the rule
 * it shares with RD_RESULT: sent only to a PE inside the collective that takes
 * it. */
#include "shoal_coll_impl.h"

#include <stdlib.h>

#define HIER_UP (SHOAL_SYNC_ALGO - 1)
#define FLAT_RELEASE (SHOAL_SYNC_ALGO + ALGO_FLAT_RELEASE)
_Static_assert(SHOAL_SYNC_ALGO - 1 >= ALGO_ROUNDS, "HIER_UP overlaps a dissemination round");

/* Groups the members by shoal_peer_node: the same on every member, since each
 * compares the same numbers and orders by set index. */
static void hier_make(const shoal_pset_t *ps, shoal_hier_t *h, const char *routine)
{
    uint64_t *node = malloc((size_t)ps->size * sizeof(uint64_t));
    int i, j, mine;

    h->local = malloc((size_t)ps->size * sizeof(int));
    h->leaders = malloc((size_t)ps->size * sizeof(int));
    if (node == NULL || h->local == NULL || h->leaders == NULL)
        shoal_log_fatal("%s: out of memory grouping a team of %d PEs by node", routine, ps->size);
    for (i = 0; i < ps->size; i++)
        node[i] = shoal_peer_node(shoal_pset_pe(ps, i), routine);
    mine = ps->me;
    for (i = 0; i < ps->size; i++) {
        for (j = 0; j < i && node[j] != node[i]; j++)
            ;
        if (j == i) { /* the first member on its node leads it */
            if (node[i] == node[mine])
                h->rank = h->nleaders;
            h->leaders[h->nleaders++] = i;
        }
        if (node[i] == node[mine])
            h->local[h->nlocal++] = i;
    }
    free(node);
    h->used = h->nleaders > 1 && h->nleaders < ps->size;
    h->known = 1;
}

const shoal_hier_t *shoal_coll_hier(const shoal_pset_t *ps, const char *routine)
{
    shoal_hier_t *h = ps->hier;

    if (h == NULL || shoal_core_state.one_node || ps->me < 0)
        return NULL;
    if (!h->known)
        hier_make(ps, h, routine);
    return h->used ? h : NULL;
}

int shoal_coll_hier_on_node(const shoal_hier_t *h, int i)
{
    int k;

    for (k = 0; k < h->nlocal; k++)
        if (h->local[k] == i)
            return 1;
    return 0;
}

/* The other nodes' leaders into to[]; how many. */
static int other_leaders(const shoal_hier_t *h, int to[SHOAL_STAGE_ROOTS])
{
    int k, n = 0;

    for (k = 0; k < h->nleaders; k++)
        if (k != h->rank)
            to[n++] = h->leaders[k];
    return n;
}

void shoal_coll_hier_push(const shoal_pset_t *ps, const shoal_hier_t *h, const void *src,
                          size_t bytes, const char *routine)
{
    int to[SHOAL_STAGE_ROOTS], n = other_leaders(h, to);

    shoal_coll_region_push(ps, src, bytes, to, n, routine);
}

unsigned shoal_coll_hier_exchange(const shoal_pset_t *ps, const shoal_hier_t *h, const void *src,
                                  size_t bytes, const char *routine)
{
    int to[SHOAL_STAGE_ROOTS], n = other_leaders(h, to);

    return shoal_coll_xchg_push(ps, src, 0, bytes, to, n, routine);
}

void shoal_coll_hier_arrive(const shoal_pset_t *ps, int head, const char *routine)
{
    shoal_coll_token_send(ps, head, HIER_UP, routine);
    shoal_coll_token_take(ps, head, FLAT_RELEASE, routine);
}

void shoal_coll_hier_gather(const shoal_pset_t *ps, const shoal_hier_t *h, const char *routine)
{
    int k;

    for (k = 1; k < h->nlocal; k++)
        shoal_coll_token_take(ps, -1, HIER_UP, routine);
}

void shoal_coll_hier_release(const shoal_pset_t *ps, const shoal_hier_t *h, int dseg, size_t doff,
                             const void *data, size_t bytes, const char *routine)
{
    int k, by_net = 0;

    for (k = 0; k < h->nlocal && bytes > 0; k++) {
        int i = h->local[k], pe = shoal_pset_pe(ps, i);

        if (i == ps->me)
            continue;
        by_net |= shoal_core_direct(shoal_coll_local(dseg, doff), bytes, pe) == NULL;
        shoal_coll_put(ps, i, dseg, doff, data, bytes, routine);
    }
    if (by_net) /* what went by UCX lands before the release, which may not */
        shoal_core_quiet(&shoal_ctx_default);
    for (k = 0; k < h->nlocal; k++)
        if (h->local[k] != ps->me)
            shoal_coll_token_send(ps, h->local[k], FLAT_RELEASE, routine);
}

/* The barrier: the node's members at its leader, dissemination among the
 * leaders (in round k, leader r signals r + 2^k and waits for r - 2^k), then
 * each leader releases its node. */
void shoal_coll_hier_barrier(const shoal_pset_t *ps, const shoal_hier_t *h, const char *routine)
{
    int n = h->nleaders, r = h->rank, k, d;

    if (ps->me != h->local[0]) {
        shoal_coll_hier_arrive(ps, h->local[0], routine);
        return;
    }
    shoal_coll_hier_gather(ps, h, routine);
    for (k = 0, d = 1; d < n; k++, d <<= 1) {
        shoal_coll_token_send(ps, h->leaders[(r + d) % n], k, routine);
        shoal_coll_token_take(ps, h->leaders[(r - d + n) % n], k, routine);
    }
    shoal_coll_hier_release(ps, h, 0, 0, NULL, 0, routine);
}
