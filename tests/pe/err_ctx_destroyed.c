/* Must fail: a put on a context after shmem_ctx_destroy, on the last PE only (it
 * used to crash on the freed context).
 *
 * err-from: $last 1
 * err-line: shmem_ctx_int_p: argument ctx is $hex, a context that was destroyed (by
 *   shmem_ctx_destroy, or with its team by shmem_team_destroy); a handle is valid only until it is
 *   destroyed
 */
#include "pe_test.h"

static int target;

int main(void)
{
    shmem_ctx_t ctx;

    shmem_init();
    pe_test_watchdog();
    if (shmem_ctx_create(0, &ctx) != 0)
        return 77;
    shmem_ctx_destroy(ctx);
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_ctx_int_p(ctx, &target, 1, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
