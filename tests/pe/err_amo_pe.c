/* Must fail: the last PE does a fetch_add at PE n_pes; the others wait in a
 * barrier, and the job must still end promptly with the error line.
 *
 * err-from: $last 1
 * err-line: shmem_int_atomic_fetch_add: argument pe is $ERR_PES, valid range 0\.\.$last
 */
#include "pe_test.h"

static int counter;

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        (void)shmem_int_atomic_fetch_add(&counter, 1, shmem_n_pes());
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-err.sh reports */
}
