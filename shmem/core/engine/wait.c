/* The host's blocking side of the wait/test core (shoal_wait.h holds the tests and
 * the one loop, shoal_wait_run): its turn drives progress, backs off, counts for
 * SHOAL_STATS and reports hangs. */
#include "shoal_core.h"
#include "shoal_hang.h"
#include "shoal_stats.h"
#include "shoal_wait.h"

/* What the host's turn needs. */
typedef struct host_turn {
    const shoal_wait_set_t *set;
    int sel;
    const char *routine;
    unsigned spins;
    uint64_t waited; /* 0 unless SHOAL_STATS and a blocking call */
} host_turn_t;

static void host_turn(void *arg)
{
    host_turn_t *t = arg;

    shoal_core_backoff(&t->spins);
    shoal_stats_wait_turn(&t->waited);
    shoal_hang_wait_turn(t->spins, t->set, t->sel, t->routine);
}

size_t shoal_core_sync(const shoal_wait_set_t *set, int sel, int block, size_t *indices,
                       const char *routine)
{
    /* Where the next _any scan starts, per thread: rotating it is what keeps a
     * series of calls from always reporting the lowest satisfied entry. */
    static __thread size_t any_cursor;
    host_turn_t t = {set, sel, routine, 0, shoal_stats_wait_begin(block)};

    return shoal_wait_run(set, (shoal_sel_t)sel, block, indices, &any_cursor, host_turn, &t);
}
