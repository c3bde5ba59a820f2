/* Must fail: the last PE puts into a stack variable, which is not symmetric.
 *
 * err-from: $last 1
 * err-line: shmem_int_put: argument dest is $hex, which is not symmetric memory (symmetric heap
 *   $hex\.\.$hex, global/static data $hex\.\.$hex); allocate it with shmem_malloc or make it a
 *   global or static variable
 */
#include "pe_test.h"

int main(void)
{
    int dest = 0, src = 1;

    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_int_put(&dest, &src, 1, 0);
    shmem_barrier_all();
    shmem_finalize();
    return dest;
}
