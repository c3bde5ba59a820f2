/* Not a test by itself: the multi-node network scenarios (tests/multinode/scenarios.sh)
 * run it while they take a node's link down. Every PE says it is up, then all run
 * shmem_barrier_all with a put to the next PE between barriers, checked after each,
 * until PE 0 has run BARRIER_SECONDS (default 20) seconds and tells every PE after which
 * round to stop (a put before that round's barrier, which completes it; a PE still
 * checking the round before sees a later round number and goes on). With BARRIER_DIE_PE=N, PE N kills
 * itself (SIGKILL) a second in: a PE that dies under the launcher. Exit 0 when every
 * round checked, 1 on a wrong value. */
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long round_seen;
static long stop_round; /* the round after which every PE stops; 0: none yet */

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
int main(void)
{
    const char *env = getenv("BARRIER_SECONDS"), *die = getenv("BARRIER_DIE_PE");
    double seconds = env != NULL ? atof(env) : 20, start;
    long round, seen;
    int me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    printf("barrier_loop: PE %d up (pid %d)\n", me, (int)getpid());
    fflush(stdout);
    shmem_barrier_all();
    start = now_s();
    for (round = 1;; round++) {
        shmem_long_p(&round_seen, round, (me + 1) % npes);
        if (me == 0 && stop_round == 0 && now_s() - start > seconds)
            for (int pe = 0; pe < npes; pe++)
                shmem_long_p(&stop_round, round, pe);
        shmem_barrier_all();
        seen = round_seen; /* the previous PE may have put the next round already */
        if (seen != round && seen != round + 1) {
            printf("barrier_loop: PE %d: round %ld, the previous PE's put says %ld\n", me, round,
                   seen);
            return 1;
        }
        if (stop_round == round)
            break;
        if (die != NULL && atoi(die) == me && now_s() - start > 1)
            raise(SIGKILL);
    }
    printf("barrier_loop: PE %d: %ld rounds checked\n", me, round);
    shmem_finalize();
    return 0;
}
