/* Must fail: a collective on a team after shmem_team_destroy (it used to read freed
 * memory and crash).
 *
 * err-from: any
 * err-line: shmem_team_sync: argument team is $hex, a team that was destroyed (by
 *   shmem_team_destroy); a handle is valid only until it is destroyed
 */
#include "pe_test.h"

int main(void)
{
    shmem_team_t half;

    shmem_init();
    pe_test_watchdog();
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &half);
    shmem_team_destroy(half);
    shmem_team_sync(half);
    shmem_finalize();
    return 0;
}
