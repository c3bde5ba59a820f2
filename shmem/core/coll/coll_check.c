/* SHOAL_CHECK_COLL's argument matching: a mismatch ends the job with one line
 * naming the argument and both PEs, instead of a hang or wrong data. It costs two
 * barriers: call it only when the setting is on, or where a mismatch would hang
 * (team splits). */
#include "shoal_coll_impl.h"
#include "shoal_stats.h"

/* The line for a symmetric object that differs (shoal_coll_check_object). */
__attribute__((noreturn)) static void object_differs(const shoal_pset_t *ps, const char *routine,
                                                     const char *name, uint64_t mine,
                                                     uint64_t first)
{
    uint64_t low = ((uint64_t)1 << SHOAL_CHECK_SEG_SHIFT) - 1;
    int mseg = (int)(mine >> SHOAL_CHECK_SEG_SHIFT), fseg = (int)(first >> SHOAL_CHECK_SEG_SHIFT);

    shoal_log_fatal("%s: argument %s is at offset %llu of the %s on PE %d but at offset %llu of "
                    "the %s on PE %d (index 0 of the team); every PE must pass the same symmetric "
                    "object",
                    routine, name, (unsigned long long)(mine & low),
                    shoal_segment_names[mseg < SHOAL_SEG_COUNT ? mseg : 0], shoal_core_state.my_pe,
                    (unsigned long long)(first & low),
                    shoal_segment_names[fseg < SHOAL_SEG_COUNT ? fseg : 0], shoal_pset_pe(ps, 0));
}

/* SHOAL_CHECK_COLL: each PE leaves a hash of the routine's name and its
 * arguments in its scratch words 2..; every PE compares with index 0's. */
void shoal_coll_check(const shoal_pset_t *ps, const char *routine, const uint64_t *vals,
                      const char *const *names, int n, unsigned objects)
{
    uint64_t begun = shoal_stats_coll_begin();
    uint64_t mine[SHOAL_CHECK_VALS + 1], first[SHOAL_CHECK_VALS + 1], h = 1469598103934665603u;
    uint64_t *scratch = shoal_coll_local(ps->sync_seg, shoal_pset_scratch(ps, 2));
    const char *c;
    int i;

    for (c = routine; *c != '\0'; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211u;
    mine[0] = h;
    for (i = 0; i < n; i++)
        mine[i + 1] = vals[i];
    memcpy(scratch, mine, (size_t)(n + 1) * sizeof(uint64_t));
    shoal_coll_barrier(ps, 0, routine);
    memcpy(first, mine, sizeof(mine));
    if (ps->me != 0)
        shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, 0), ps->sync_seg,
                       shoal_pset_scratch(ps, 2), first, (size_t)(n + 1) * sizeof(uint64_t), 0,
                       routine);
    shoal_coll_barrier(ps, 0, routine);
    memset(scratch, 0, (size_t)(n + 1) * sizeof(uint64_t));
    if (first[0] != mine[0])
        shoal_log_fatal("%s: PE %d called it while PE %d (index 0 of the team) called another "
                        "collective routine (or the same one for another type); every PE must call "
                        "the same collectives in the same order",
                        routine, shoal_core_state.my_pe, shoal_pset_pe(ps, 0));
    for (i = 0; i < n; i++) {
        if (first[i + 1] == mine[i + 1])
            continue;
        if ((objects >> i & 1u) != 0)
            object_differs(ps, routine, names[i], mine[i + 1], first[i + 1]);
        shoal_log_fatal("%s: argument %s is %lld on PE %d but %lld on PE %d (index 0 of the "
                        "team); every PE must pass the same value",
                        routine, names[i], (long long)mine[i + 1], shoal_core_state.my_pe,
                        (long long)first[i + 1], shoal_pset_pe(ps, 0));
    }
    shoal_stats_coll_end(SHOAL_STATS_CHECK, begun);
}
