/* Must fail with SHOAL_CHECK_COLL=1: the last PE passes another symmetric array
 * as a reduction's dest than the others (OpenSHMEM 1.6: every PE passes the same
 * dest and source objects).
 *
 * err-env: SHOAL_CHECK_COLL=1
 * err-from: $last 1
 * err-line: shmem_int_sum_reduce: argument dest is at offset [0-9]* of the symmetric heap on PE
 *   $last but at offset [0-9]* of the symmetric heap on PE 0 (index 0 of the team); every PE
 *   must pass the same symmetric object
 */
#include "pe_test.h"

int main(void)
{
    int *src, *dest, *other;

    shmem_init();
    pe_test_watchdog();
    src = shmem_calloc(4, sizeof(int));
    dest = shmem_calloc(4, sizeof(int));
    other = shmem_calloc(4, sizeof(int));
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, shmem_my_pe() == shmem_n_pes() - 1 ? other : dest, src,
                         4);
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-err.sh reports */
}
