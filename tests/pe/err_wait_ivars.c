/* Must fail: the last PE waits on ivars on its stack, which are not symmetric.
 * They already satisfy the comparison, so a missing check returns at once.
 *
 * err-from: $last 1
 * err-line: shmem_int_wait_until_all: argument ivars is $hex, which is not symmetric memory
 *   (symmetric heap $hex\.\.$hex, global/static data $hex\.\.$hex); allocate it with shmem_malloc
 *   or make it a global or static variable
 */
#include "pe_test.h"

int main(void)
{
    int ivars[2] = {0, 0};

    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_int_wait_until_all(ivars, 2, NULL, SHMEM_CMP_EQ, 0);
    shmem_barrier_all();
    shmem_finalize();
    return ivars[0]; /* reaching here is the failure run-err.sh reports */
}
