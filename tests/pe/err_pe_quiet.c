/* Must fail: the last PE asks shmem_pe_quiet for a PE one past the last.
 *
 * err-from: $last 1
 * err-line: shmem_pe_quiet: argument target_pes\[1\] is $ERR_PES, valid range 0\.\.$last
 */
#include "pe_test.h"

#include <shmem.h>

int main(void)
{
    int pes[2];

    shmem_init();
    pe_test_watchdog();
    pes[0] = 0;
    pes[1] = shmem_n_pes();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_pe_quiet(pes, 2);
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-err.sh reports */
}
