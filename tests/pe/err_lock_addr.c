/* Must fail: the last PE takes a lock on its stack, which is not symmetric.
 *
 * err-from: $last 1
 * err-line: shmem_set_lock: argument lock is $hex, which is not symmetric memory (symmetric heap
 *   $hex\.\.$hex, global/static data $hex\.\.$hex); allocate it with shmem_malloc or make it a
 *   global or static variable
 */
#include "pe_test.h"

int main(void)
{
    long lock = 0;

    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_set_lock(&lock);
    shmem_barrier_all();
    shmem_finalize();
    return (int)lock; /* reaching here is the failure run-err.sh reports */
}
