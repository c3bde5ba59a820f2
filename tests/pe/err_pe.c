/* Must fail: the last PE puts to PE n_pes; the others wait in a barrier, and the
 * job must still end promptly with the error line.
 *
 * err-from: $last 1
 * err-line: shmem_int_put: argument pe is $ERR_PES, valid range 0\.\.$last
 */
#include "pe_test.h"

static int dest;

int main(void)
{
    int src = 1;

    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_int_put(&dest, &src, 1, shmem_n_pes());
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-err.sh reports */
}
