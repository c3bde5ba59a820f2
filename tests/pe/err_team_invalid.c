/* Must fail: a collective on SHMEM_TEAM_INVALID (what a failed split leaves).
 *
 * err-from: any
 * err-line: shmem_team_sync: argument team is SHMEM_TEAM_INVALID; pass a team this PE belongs to
 */
#include "pe_test.h"

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    shmem_team_sync(SHMEM_TEAM_INVALID);
    shmem_finalize();
    return 0;
}
