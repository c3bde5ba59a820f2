/* Must fail: the last PE calls shmem_finalize while the others call a broadcast
 * from it (a collective it never joins). They must end the job naming it, not
 * match its finalize and hang.
 *
 * err-from: any
 * err-line: shmem_long_broadcast: PE $last called shmem_finalize, so it cannot join this
 *   collective, which waits for it; every PE must call the same collectives before shmem_finalize
 */
#include "pe_test.h"

static long src, dst;

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() != shmem_n_pes() - 1)
        shmem_long_broadcast(SHMEM_TEAM_WORLD, &dst, &src, 1, shmem_n_pes() - 1);
    shmem_finalize();
    return 0;
}
