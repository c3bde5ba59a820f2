/* Must fail: a team handle that no split made (here, the address of a variable)
 * passed to a query, on the last PE only. */
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
