/* Must fail: an atomic on a long that straddles its natural alignment.
 *
 * err-from: $last 1
 * err-line: shmem_long_atomic_add: argument dest is $hex, not aligned to its 8-byte type
 */
#include "pe_test.h"

static long words[2];

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_long_atomic_add((long *)((char *)words + 4), 1, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
