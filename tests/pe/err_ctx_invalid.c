/* Must fail: the last PE puts through SHMEM_CTX_INVALID (what a failed
 * shmem_ctx_create leaves behind) instead of a context.
 *
 * err-from: $last 1
 * err-line: shmem_ctx_int_p: argument ctx is SHMEM_CTX_INVALID; pass SHMEM_CTX_DEFAULT or a context
 *   that shmem_ctx_create or shmem_team_create_ctx made
 */
#include "pe_test.h"

static int x;

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_ctx_int_p(SHMEM_CTX_INVALID, &x, 1, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-err.sh reports */
}
