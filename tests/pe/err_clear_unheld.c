/* Must fail: the last PE clears a lock nobody holds. That would hand the lock to a
 * PE that never asked for it (or to nobody, with the queue's tail left naming the
 * clearer), and later set_locks could wait forever; the job must end with the one
 * line instead.
 *
 * err-from: $last 1
 * err-line: shmem_clear_lock: argument lock is $hex, which this PE does not hold; clear a lock only
 *   after shmem_set_lock, or a shmem_test_lock that returned 0, took it
 */
#include "pe_test.h"

static long lock;

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_clear_lock(&lock);
    shmem_barrier_all();
    shmem_set_lock(&lock);
    shmem_clear_lock(&lock);
    shmem_finalize();
    return 0;
}
