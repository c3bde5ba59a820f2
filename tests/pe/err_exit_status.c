/* Must fail: the last PE calls exit(3) while the others wait in a barrier. It
 * must end the job at once with its status and one line, not join their barrier
 * through an implicit finalize and leave them waiting (the job hung before).
 *
 * err-from: $last 1
 * err-line: exit status 3 before shmem_finalize; ending the job
 */
#include "pe_test.h"

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        exit(3);
    shmem_barrier_all();
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
