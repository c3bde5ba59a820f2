/* Must fail with SHOAL_CHECK_COLL=1 (run-err.sh sets it): a strided split whose
 * triplet (start 1, stride 1, size n_pes) runs one PE past the parent team. */
#include "pe_test.h"

int main(void)
{
    shmem_team_t t = SHMEM_TEAM_INVALID;

    shmem_init();
    pe_test_watchdog();
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, shmem_n_pes(), NULL, 0, &t);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
