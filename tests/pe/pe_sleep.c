/* Sleeping waits under oversubscription (run by pe_sleep-agree.sh): with
 * PE_SLEEP_OFF_RANK=R in the environment, PE R alone sets SHOAL_SLEEP=0 before
 * shmem_init; the job must then agree not to sleep. Either way, 300 barriers and
 * broadcasts must give the right values. */
#include "pe_test.h"

static long src, dst;

int main(void)
{
    const char *rank = getenv("PMIX_RANK"), *off = getenv("PE_SLEEP_OFF_RANK");
    int i, me;

    if (rank != NULL && off != NULL && atoi(rank) == atoi(off))
        setenv("SHOAL_SLEEP", "0", 1);
    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    for (i = 0; i < 300; i++) {
        int root = i % shmem_n_pes();

        src = me == root ? 1000 + i : -1;
        shmem_barrier_all();
        shmem_long_broadcast(SHMEM_TEAM_WORLD, &dst, &src, 1, root);
        PE_CHECK_EQ("broadcast value", 1000 + i, dst);
    }
    return pe_test_finish("pe_sleep");
}
