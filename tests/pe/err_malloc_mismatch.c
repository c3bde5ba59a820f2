/* Must fail with SHOAL_CHECK_COLL=1 (run-err.sh sets it): shmem_malloc is
 * collective, and the last PE asks for another size than the others.
 *
 * err-env: SHOAL_CHECK_COLL=1
 * err-from: $last 1
 * err-line: shmem_malloc: argument size is 72 on PE $last but 64 on PE 0 (index 0 of the team);
 *   every PE must pass the same value
 */
#include "pe_test.h"

int main(void)
{
    void *p;

    shmem_init();
    pe_test_watchdog();
    p = shmem_malloc(shmem_my_pe() == shmem_n_pes() - 1 ? 72 : 64);
    shmem_free(p);
    shmem_finalize();
    return 0;
}
