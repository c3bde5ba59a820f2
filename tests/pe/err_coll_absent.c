/* Must fail with SHOAL_CHECK_COLL=1 and SHOAL_CHECK_COLL_TIMEOUT=2 (run-err.sh
 * sets them): the last PE skips a barrier, so PE 0 waits in it and must name the
 * missing PE instead of hanging. The last PE sleeps meanwhile (exiting early would
 * end the job another way). */
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
