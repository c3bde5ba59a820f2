/* Must fail: the last PE returns from main (status 0) without shmem_finalize while
 * the others wait in a barrier. Its implicit finalize must not pass for their
 * barrier (they returned from it, then hung in the next one): they end the job,
 * naming it, within seconds.
 *
 * err-from: any
 * err-line: shmem_barrier_all: PE $last exited without calling shmem_finalize, so it cannot join
 *   this collective, which waits for it; every PE must call the same collectives before
 *   shmem_finalize
 */
#include "pe_test.h"

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        return 0;
    shmem_barrier_all();
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
