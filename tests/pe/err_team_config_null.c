/* Must fail: the last PE asks shmem_team_get_config for num_contexts with a NULL
 * config (OpenSHMEM 1.6: undefined unless config_mask is 0).
 *
 * err-from: $last 1
 * err-line: shmem_team_get_config: argument config is NULL and config_mask is 0x1; pass the address
 *   of a shmem_team_config_t, or a config_mask of 0
 */
#include "pe_test.h"

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, NULL);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
