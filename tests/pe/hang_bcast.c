/* Hangs on purpose (hang-report.sh runs it): a broadcast whose root never calls
 * it. The root, PE 0 of SHMEM_TEAM_WORLD (with the argument "team": index 0 of a
 * team of world PEs 1..n-1, which is world PE 1), waits in shmem_int_wait_until
 * on a heap int that nobody sets instead. */
#include "hang_test.h"

#include <string.h>

int main(int argc, char **argv)
{
    shmem_team_t team = SHMEM_TEAM_WORLD;
    int *src, *dest, *never, me;

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    src = shmem_calloc(4, sizeof(int));
    dest = shmem_calloc(4, sizeof(int));
    never = shmem_calloc(1, sizeof(int));
    if (argc > 1 && strcmp(argv[1], "team") == 0) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, shmem_n_pes() - 1, NULL, 0, &team);
        if (me == 0)
            hang_forever("hang_bcast", never); /* not in the team */
    }
    if (shmem_team_my_pe(team) == 0)
        hang_forever("hang_bcast", never);
    shmem_int_broadcast(team, dest, src, 4, 0);
    shmem_finalize();
    return 99;
}
