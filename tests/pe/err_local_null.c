/* Must fail: the last PE puts 4 ints from a null source (it crashed in memcpy).
 *
 * err-from: $last 1
 * err-line: shmem_int_put: argument source is NULL, but the call moves 16 bytes; expected a local
 *   buffer of that size
 */
#include "pe_test.h"

static int dest[4];

int main(void)
{
    int *source = NULL;

    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_int_put(dest, source, 4, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
