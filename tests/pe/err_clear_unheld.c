/* Must fail: the last PE clears a lock nobody holds. That would advance the
 * ticket being served past the next one given out, and every later set_lock would
 * wait forever; the job must end with the one line instead. */
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
