/* Must fail with SHOAL_CHECK_COLL=1 and SHOAL_CHECK_COLL_TIMEOUT=2 (run-err.sh
 * sets them): the last PE skips a barrier, so PE 0 waits in it and must name the
 * missing PE instead of hanging. The last PE sleeps meanwhile (exiting early would
 * end the job another way).
 *
 * err-env: SHOAL_CHECK_COLL=1 SHOAL_CHECK_COLL_TIMEOUT=2
 * err-from: 0 1
 * err-line: shmem_barrier_all: waited 2 s for PE $last (index $last of this team or active set of
 *   $ERR_PES PEs) to join; every PE of the team must call the same collectives in the same order
 */
#include <unistd.h>
#include "pe_test.h"

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        sleep(30);
    else
        shmem_barrier_all();
    shmem_finalize();
    return 0;
}
