/* Must fail: on a context of a one-PE team (each PE's own team), PE number 1 is
 * out of range even though the world has more PEs.
 *
 * err-from: $last 1
 * err-line: shmem_ctx_int_p: argument pe is 1, valid range 0\.\.0 (PEs of the context's team)
 */
#include "pe_test.h"

static int x;

int main(void)
{
    shmem_team_t self = SHMEM_TEAM_INVALID;
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    int last;

    shmem_init();
    pe_test_watchdog();
    last = shmem_n_pes() - 1;
    /* Only the last PE is in the new team: a one-PE split. */
    shmem_team_split_strided(SHMEM_TEAM_WORLD, last, 1, 1, NULL, 0, &self);
    if (shmem_my_pe() == last) {
        if (shmem_team_create_ctx(self, 0, &ctx) != 0)
            return 1; /* no context: run-err.sh finds no error line and fails */
        shmem_ctx_int_p(ctx, &x, 1, 1);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
