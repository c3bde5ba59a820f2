/* The barrier, and the flat gather and release that the other flat collectives
 * wrap around their part. The root releases only after it has taken every
 * arrival: a PE must never leave a token behind on a counter. */
#include "shoal_coll_impl.h"
#include "shoal_stats.h"

#include <sched.h>

/* Flat collectives, for sets of up to FLAT_MAX PEs all on this node: every index
 * but the root signals the root on counter (its index) and waits on its release
 * counter; the root takes every arrival, does its part (nothing, for a barrier),
 * then releases each. A PE runs twice per collective, where dissemination needs
 * log2(n) rounds in step: on a node with more PEs than cores, each round may wait
 * for a PE to get a core back. Every token is taken before the root releases, so
 * nothing is left on any counter when a PE moves on. */
#define FLAT_RELEASE (SHOAL_SYNC_ALGO + ALGO_FLAT_RELEASE)

/* Non-root: arrive, wait for the release. Returns whether this PE is the root,
 * which then holds every arrival and must call shoal_coll_flat_release. */
int shoal_coll_flat_gather(const shoal_pset_t *ps, int root, const char *routine)
{
    int i;

    if (ps->me != root) {
        shoal_coll_token_send(ps, root, ps->me, routine);
        shoal_coll_token_take(ps, root, FLAT_RELEASE, routine);
        return 0;
    }
    for (i = 0; i < ps->size; i++)
        if (i != root)
            shoal_coll_token_take(ps, i, i, routine);
    return 1;
}

void shoal_coll_flat_release(const shoal_pset_t *ps, const char *routine)
{
    int i;

    /* What the root wrote through UCX (a dest it does not map) lands before the
     * release, which may go by a CPU atomic: nothing orders the two paths else. */
    shoal_core_quiet(&shoal_ctx_default);

    for (i = 0; i < ps->size; i++)
        if (i != ps->me)
            shoal_coll_token_send(ps, i, FLAT_RELEASE, routine);
}

static const uint64_t one = 1;

/* Counting serves a flat set of more than 2 PEs without SHOAL_CHECK_COLL (whose
 * gather at a root can name a PE that never comes). */
static int count_fits(const shoal_pset_t *ps)
{
    return ps->size > 2 && shoal_coll_flat_fits(ps->size) && !shoal_core_state.settings.check_coll;
}

/* Every PE adds one to index 0's counter 0. The PE that brings it to n returns 1
 * holding every other PE, and must call count_release; the others return 0 once
 * it has. No PE waits for one particular PE to get a core back, as a gather at a
 * root would. */
static int count_arrive(const shoal_pset_t *ps, const char *routine)
{
    size_t off = shoal_pset_flag(ps, 0);
    int pe0 = shoal_pset_pe(ps, 0);
    uint64_t old;

    shoal_coll_flag_amo(ps, pe0, off, SHOAL_AMO_ADD, &one, &old, routine);
    if (__builtin_expect(old >= (uint64_t)ps->size, 0)) /* at most size - 1 arrived before */
        shoal_coll_counter_bad(ps, pe0, off, old, routine);
    if (old + 1 < (uint64_t)ps->size) {
        shoal_coll_token_take(ps, -1, FLAT_RELEASE, routine); /* from the last to arrive */
        return 0;
    }
    return 1;
}

/* The last to arrive resets the count, then releases every other PE. */
static void count_release(const shoal_pset_t *ps, const char *routine)
{
    uint64_t zero = 0;

    shoal_coll_flag_amo(ps, shoal_pset_pe(ps, 0), shoal_pset_flag(ps, 0), SHOAL_AMO_SET, &zero,
                        NULL, routine);
    shoal_coll_flat_release(ps, routine);
}

int shoal_coll_flat_enter(const shoal_pset_t *ps, int root, const char *routine)
{
    return count_fits(ps) ? count_arrive(ps, routine) : shoal_coll_flat_gather(ps, root, routine);
}

void shoal_coll_flat_leave(const shoal_pset_t *ps, const char *routine)
{
    if (count_fits(ps))
        count_release(ps, routine);
    else
        shoal_coll_flat_release(ps, routine);
}

/* The barrier: on one node, by count (or, with SHOAL_CHECK_COLL, by a gather that
 * can name a PE that never comes); across nodes, by node where a node has two
 * members or more (coll_hier.c); else dissemination (in round k, signal index
 * me+2^k and wait for me-2^k). Returns whether this PE released the others by
 * count. */
static int barrier(const shoal_pset_t *ps, int complete_puts, const char *routine)
{
    int n = ps->size, me = ps->me, k, d;
    const shoal_hier_t *h;

    if (complete_puts)
        shoal_core_quiet_all();
    if (n > 2 && shoal_coll_flat_fits(n)) {
        if (!shoal_coll_flat_enter(ps, 0, routine))
            return 0;
        shoal_coll_flat_leave(ps, routine);
        return count_fits(ps); /* released by count: the last to arrive */
    }
    h = shoal_coll_hier(ps, routine);
    if (h != NULL) {
        shoal_coll_hier_barrier(ps, h, routine);
        return 0;
    }
    for (k = 0, d = 1; d < n; k++, d <<= 1) {
        shoal_coll_token_send(ps, (me + d) % n, k, routine);
        shoal_coll_token_take(ps, (me - d + n) % n, k, routine);
    }
    return 0;
}

static int counted_barrier(const shoal_pset_t *ps, int complete_puts, const char *routine)
{
    uint64_t begun = shoal_stats_coll_begin();
    int released;

    shoal_coll_enter(ps);
    released = barrier(ps, complete_puts, routine);
    shoal_stats_coll_end(SHOAL_STATS_BARRIER, begun);
    return released;
}

void shoal_coll_barrier(const shoal_pset_t *ps, int complete_puts, const char *routine)
{
    counted_barrier(ps, complete_puts, routine);
}

/* A barrier the program called. On a node with more PEs than cores, the PE that
 * released the others by count (the last to arrive, so one that has a core)
 * yields it to them: they were waiting, some without a core, and what the
 * program does next needs them. With root 0 and a barrier between broadcasts
 * (4 PEs on 2 cores), the readers then find the root's data there: the
 * broadcast's own time averaged over the PEs went from 0.9-1.1 us to 0.2-0.6
 * at 4 PEs and 1.1-1.4 to 0.35-0.6 at 8. The yield's context switch is not
 * free: fcollect 8 B followed by a barrier went from 5.0 to 5.7 us at 4 PEs
 * and 12.6-14.4 to 16-16.6 at 8 (both still ahead of Open MPI's OSHMEM, at
 * 9.1 and 32.6). A barrier inside another collective does not yield: there
 * it cost the collective itself (fcollect 8 B at 4 PEs: 6.2-7.5 us to 7.6-10.2). */
void shoal_coll_barrier_program(const shoal_pset_t *ps, int complete_puts, const char *routine)
{
    if (counted_barrier(ps, complete_puts, routine) && shoal_core_state.spins_before_yield == 0)
        sched_yield();
}
