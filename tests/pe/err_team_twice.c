/* Must fail: destroying a team twice (it used to abort in free()).
 *
 * err-from: any
 * err-line: shmem_team_destroy: argument team is $hex, a team that was destroyed (by
 *   shmem_team_destroy); a handle is valid only until it is destroyed
 */
#include "pe_test.h"

int main(void)
{
    shmem_team_t all;

    shmem_init();
    pe_test_watchdog();
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &all);
    shmem_team_destroy(all);
    shmem_team_destroy(all);
    shmem_finalize();
    return 0;
}
