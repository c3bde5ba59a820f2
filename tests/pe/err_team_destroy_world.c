/* Must fail: SHMEM_TEAM_WORLD is predefined and cannot be destroyed.
 *
 * err-from: any
 * err-line: shmem_team_destroy: argument team is SHMEM_TEAM_WORLD, a predefined team, which cannot
 *   be destroyed
 */
#include "pe_test.h"

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    shmem_team_destroy(SHMEM_TEAM_WORLD);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
