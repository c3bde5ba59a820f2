/* Must fail: PE 1 is given a smaller symmetric heap (SHMEM_SYMMETRIC_SIZE set from
 * its PMIx rank before shmem_init), then PE 0 puts at an offset that fits its own
 * heap but not PE 1's. The job must end with the one line about the sizes (from
 * whichever PE connects first: shmem_malloc's barrier may), not a segfault in
 * memcpy or a write into another mapping.
 *
 * err-from: any
 * err-line: PE [01] has a symmetric heap of \(67108864\|268435456\) bytes, this PE
 *   \(67108864\|268435456\): every PE must be given the same SHMEM_SYMMETRIC_SIZE
 */
#include "pe_test.h"

int main(void)
{
    const char *rank = getenv("PMIX_RANK");
    char *heap;
    int x = 1;

    if (rank != NULL && atoi(rank) == 1)
        setenv("SHMEM_SYMMETRIC_SIZE", "64M", 1);
    shmem_init();
    pe_test_watchdog();
    heap = shmem_malloc(1);
    if (shmem_my_pe() == 0)
        shmem_putmem(heap + (100 << 20), &x, sizeof(x), 1);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
