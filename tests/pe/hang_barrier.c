/* Hangs on purpose (hang-report.sh runs it): the upper half of the PEs never
 * joins shmem_barrier_all; they wait in shmem_int_wait_until on a global int
 * that nobody sets, while the lower half waits in the barrier. */
#include "hang_test.h"

static int never;

int main(void)
{
    int me, npes;

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (me >= npes / 2) {
        printf("hang_barrier: PE %d skips the barrier\n", me);
        fflush(stdout);
        shmem_int_wait_until(&never, SHMEM_CMP_NE, 0);
    } else {
        shmem_barrier_all();
    }
    shmem_finalize();
    return 99;
}
