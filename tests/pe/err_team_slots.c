/* Must fail: with SHOAL_CHECK=1 (set here, before shmem_init reads it), a put
 * 8 KiB below the first shmem_malloc block lands in the team slots that Shoal
 * carves from the heap at init, which no program allocated.
 *
 * err-from: $last 1
 * err-line: shmem_int_put: argument dest is $hex, inside the symmetric heap but not inside any live
 *   allocation (it is Shoal's own: the teams' counters, carved from the heap at shmem_init)
 */
#include "pe_test.h"

int main(void)
{
    int src = 1;
    char *h;

    setenv("SHOAL_CHECK", "1", 1);
    shmem_init();
    pe_test_watchdog();
    h = shmem_malloc(64);
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_int_put((int *)(h - 8192), &src, 1, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-err.sh reports */
}
