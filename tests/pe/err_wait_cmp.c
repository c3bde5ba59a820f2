/* Must fail: the last PE waits with comparison operator 99, which is none of the
 * SHMEM_CMP_* constants; the others wait in a barrier.
 *
 * err-from: $last 1
 * err-line: shmem_int_wait_until: argument cmp is 99, expected one of SHMEM_CMP_EQ, SHMEM_CMP_NE,
 *   SHMEM_CMP_GT, SHMEM_CMP_LE, SHMEM_CMP_LT, SHMEM_CMP_GE
 */
#include "pe_test.h"

static int ivar;

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_int_wait_until(&ivar, 99, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-err.sh reports */
}
