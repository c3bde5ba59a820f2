/* Must fail: a team handle that no split made (here, the address of a variable)
 * passed to a query, on the last PE only.
 *
 * err-from: $last 1
 * err-line: shmem_team_my_pe: argument team is $hex, which is not a team that this PE made;
 *   expected SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED or a team from shmem_team_split_strided or
 *   shmem_team_split_2d
 */
#include "pe_test.h"

static long not_a_team;

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_team_my_pe((shmem_team_t)&not_a_team);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
