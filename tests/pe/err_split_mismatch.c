/* Must fail: the last PE passes another size to shmem_team_split_strided than the
 * others. Each would make a different team and hang in its first collective; the
 * split must name the PE and the argument instead.
 *
 * err-from: $last 1
 * err-line: shmem_team_split_strided: argument size is $last on PE $last but $ERR_PES on PE 0
 *   (index 0 of the team); every PE must pass the same value
 */
#include "pe_test.h"

int main(void)
{
    shmem_team_t t = SHMEM_TEAM_INVALID;
    int npes, size;

    shmem_init();
    pe_test_watchdog();
    npes = shmem_n_pes();
    size = shmem_my_pe() == npes - 1 ? npes - 1 : npes;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, size, NULL, 0, &t);
    shmem_team_sync(t);
    shmem_finalize();
    return 0;
}
