/* Must fail: an atomic on a long that straddles its natural alignment. */
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
