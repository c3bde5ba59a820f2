/* Hangs on purpose (hang-report.sh runs it): every PE waits in
 * shmem_int_wait_until on a heap int that nobody sets; with the argument
 * "vector", in shmem_int_wait_until_all_vector on four ints of which entry 1
 * never matches and entry 3 is masked out by status. */
#include "hang_test.h"

#include <string.h>

int main(int argc, char **argv)
{
    static const int want[4] = {1, 2, 3, 4}, status[4] = {0, 0, 0, 1};
    int *x;

    shmem_init();
    pe_test_watchdog();
    x = shmem_calloc(4, sizeof(int));
    if (argc > 1 && strcmp(argv[1], "vector") == 0) {
        x[0] = 1;
        x[2] = 3;
        printf("hang_wait: PE %d waits on heap+0x%zx, entry 1 at heap+0x%zx\n", shmem_my_pe(),
               hang_heap_off(x), hang_heap_off(&x[1]));
        fflush(stdout);
        shmem_int_wait_until_all_vector(x, 4, status, SHMEM_CMP_EQ, want);
    } else {
        hang_forever("hang_wait", &x[1]);
    }
    shmem_finalize();
    return 99; /* nobody sets them: never here */
}
