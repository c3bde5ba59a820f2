/* The body of the err_psync_* programs, each of which defines PSYNC_ROUTINE and
 * includes this. They must fail: an active-set collective whose pSync holds
 * garbage (0x5a in every byte, as after a memset) instead of SHMEM_SYNC_VALUE.
 * 1 shmem_barrier, 2 shmem_broadcast32, 3 shmem_int_sum_to_all, each at the
 * pSync's first use (the entry check); 4 shmem_barrier on a pSync that a
 * barrier used correctly before the memset (the token wait's check). Before the
 * checks, the barrier returned at once and the broadcast left the non-root
 * destinations untouched, with status 0. */
#include "pe_test.h"

static long psync[SHMEM_SYNC_SIZE];
#if PSYNC_ROUTINE == 2 || PSYNC_ROUTINE == 3
static int src[4] = {1, 2, 3, 4}, dest[4];
#endif
#if PSYNC_ROUTINE == 3
static int wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
#endif

int main(void)
{
    int npes;

    shmem_init();
    pe_test_watchdog();
    npes = shmem_n_pes();
#if PSYNC_ROUTINE == 4
    shmem_barrier(0, 0, npes, psync); /* its first use, with SHMEM_SYNC_VALUE */
#endif
    memset(psync, 0x5a, sizeof(psync));
    shmem_barrier_all();
#if PSYNC_ROUTINE == 1 || PSYNC_ROUTINE == 4
    shmem_barrier(0, 0, npes, psync);
#elif PSYNC_ROUTINE == 2
    shmem_broadcast32(dest, src, 4, 0, 0, 0, npes, psync);
#else
    shmem_int_sum_to_all(dest, src, 4, 0, 0, npes, wrk, psync);
#endif
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-err.sh reports */
}
