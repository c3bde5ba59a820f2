/* Not a test by itself: every PE says it is up, then waits for a flag nobody sets.
 * launcher-death.sh kills the launcher under it and checks that no PE lives on. */
#include <shmem.h>
#include <stdio.h>
#include <unistd.h>

static long flag;

int main(void)
{
    shmem_init();
    printf("hold_forever: PE %d up (pid %d)\n", shmem_my_pe(), (int)getpid());
    fflush(stdout);
    shmem_long_wait_until(&flag, SHMEM_CMP_NE, 0);
    shmem_finalize();
    return 0;
}
