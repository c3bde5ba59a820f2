/* The host's blocking side of the wait/test core (shoal_wait.h holds the tests
 * themselves): loops that drive progress and back off between tests. */
#include "shoal_core.h"
#include "shoal_hang.h"
#include "shoal_stats.h"
#include "shoal_wait.h"

size_t shoal_core_sync(const shoal_wait_set_t *set, int sel, int block, size_t *indices,
                       const char *routine)
{
    /* Where the next _any scan starts, per thread: rotating it is what keeps a
     * series of calls from always reporting the lowest satisfied entry. */
    static __thread size_t any_cursor;
    unsigned spins = 0;
    size_t next = 0, found;
    uint64_t waited = shoal_stats_wait_begin(block); /* 0 unless SHOAL_STATS and block */

    switch (sel) {
    case SHOAL_SEL_ONE:
    case SHOAL_SEL_ALL:
        while (!shoal_wait_test_all(set, &next)) {
            if (!block)
                return 0;
            shoal_core_backoff(&spins);
            shoal_stats_wait_turn(&waited);
            shoal_hang_wait_turn(spins, set, sel, routine);
        }
        return block ? 0 : 1;
    case SHOAL_SEL_ANY:
        if (shoal_wait_empty(set))
            return SIZE_MAX;
        while ((found = shoal_wait_test_any(set, &any_cursor)) == SIZE_MAX && block) {
            shoal_core_backoff(&spins);
            shoal_stats_wait_turn(&waited);
            shoal_hang_wait_turn(spins, set, sel, routine);
        }
        return found;
    default:
        if (shoal_wait_empty(set))
            return 0;
        while ((found = shoal_wait_test_some(set, indices)) == 0 && block) {
            shoal_core_backoff(&spins);
            shoal_stats_wait_turn(&waited);
            shoal_hang_wait_turn(spins, set, sel, routine);
        }
        return found;
    }
}
