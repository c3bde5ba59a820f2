/* Must fail: a _to_all reduction with a negative nreduce.
 *
 * err-from: any
 * err-line: shmem_int_sum_to_all: argument nreduce is -3, expected 0 or more
 */
#include "pe_test.h"

static int src[4], dest[4], wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long psync[SHMEM_REDUCE_SYNC_SIZE];

int main(void)
{
    int i;

    for (i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    pe_test_watchdog();
    shmem_barrier_all();
    shmem_int_sum_to_all(dest, src, -3, 0, 0, shmem_n_pes(), wrk, psync);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
