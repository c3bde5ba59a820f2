/* What a PE printed before it failed must reach the job's output when stdout is a
 * file or a pipe (fully buffered): the last PE prints a line, then calls exit(STATUS)
 * before shmem_finalize, or shmem_global_exit(STATUS) with "global", while the others
 * wait in a barrier. Run by exit-flush.sh, which checks the status and the line. */
#include "pe_test.h"

int main(int argc, char **argv)
{
    int status = argc > 1 ? atoi(argv[1]) : 3;
    int global = argc > 2 && strcmp(argv[2], "global") == 0;

    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        printf("pe_exit_flush: PE %d printed this before %s(%d)\n", shmem_my_pe(),
               global ? "shmem_global_exit" : "exit", status);
        if (global)
            shmem_global_exit(status);
        exit(status);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 42; /* never: the job ended at the last PE's exit */
}
