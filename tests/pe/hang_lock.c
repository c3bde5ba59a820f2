/* Hangs on purpose (hang-report.sh runs it): the last PE takes a lock and never
 * clears it (it waits in shmem_int_wait_until on a heap int that nobody sets);
 * every other PE waits for the lock in shmem_set_lock. */
#include "hang_test.h"

int main(void)
{
    long *lock;
    int *never, me, last;

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    last = shmem_n_pes() - 1;
    lock = shmem_calloc(1, sizeof(long));
    never = shmem_calloc(1, sizeof(int));
    if (me == last)
        shmem_set_lock(lock);
    shmem_barrier_all();
    if (me == last)
        hang_forever("hang_lock", never);
    printf("hang_lock: PE %d takes the lock at heap+0x%zx\n", me, hang_heap_off(lock));
    fflush(stdout);
    shmem_set_lock(lock);
    shmem_finalize();
    return 99;
}
