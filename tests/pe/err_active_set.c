/* Must fail: an active set one PE larger than the job.
 *
 * err-from: any
 * err-line: shmem_barrier: the active set PE_start 0, logPE_stride 0, PE_size $((ERR_PES + 1)) does
 *   not fit in PEs 0\.\.$last
 */
#include "pe_test.h"

static long psync[SHMEM_BARRIER_SYNC_SIZE];

int main(void)
{
    int i;

    for (i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    pe_test_watchdog();
    shmem_barrier(0, 0, shmem_n_pes() + 1, psync);
    shmem_finalize();
    return 0;
}
