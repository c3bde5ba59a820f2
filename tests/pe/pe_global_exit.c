/* shmem_global_exit(STATUS) from the last PE while the others wait in a barrier
 * (run by global-exit.sh): the job must end with exactly STATUS, 0 included. */
#include "pe_test.h"

int main(int argc, char **argv)
{
    int status = argc > 1 ? atoi(argv[1]) : 0;

    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_global_exit(status);
    shmem_barrier_all();
    shmem_finalize();
    return 42; /* never: the job ended at the global exit */
}
