/* Must fail with SHOAL_CHECK_COLL=1 (run-err.sh sets it): the last PE passes a
 * different nelems to a broadcast than the others.
 *
 * err-env: SHOAL_CHECK_COLL=1
 * err-from: $last 1
 * err-line: shmem_int_broadcast: argument nelems is 5 on PE $last but 4 on PE 0 (index 0 of the
 *   team); every PE must pass the same value
 */
#include "pe_test.h"

static int src[8], dest[8];

int main(void)
{
    int last;

    shmem_init();
    pe_test_watchdog();
    last = shmem_my_pe() == shmem_n_pes() - 1;
    shmem_int_broadcast(SHMEM_TEAM_WORLD, dest, src, last ? 5 : 4, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-err.sh reports */
}
