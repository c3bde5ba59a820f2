/* Must fail: every PE names PE_root n_pes, one past the last PE of the team (a
 * check that is always on).
 *
 * err-from: any
 * err-line: shmem_int_broadcast: argument PE_root is $ERR_PES, valid range 0\.\.$last
 */
#include "pe_test.h"

static int src[8], dest[8];

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    shmem_int_broadcast(SHMEM_TEAM_WORLD, dest, src, 8, shmem_n_pes());
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
