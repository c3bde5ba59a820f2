/* Must fail: the last PE asks shmem_query_initialized to store into NULL.
 *
 * err-from: $last 1
 * err-line: shmem_query_initialized: argument initialized is NULL; pass the address of an int
 */
#include "pe_test.h"

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_query_initialized(NULL);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
