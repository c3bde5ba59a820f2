/* Must fail with SHOAL_CHECK_COLL=1 (run-err.sh sets it): shmem_malloc is
 * collective, and the last PE asks for another size than the others. */
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
