/* startup.c: the trivial program whose run time under a launcher is the start-up cost that
 * bench/compare reports: init, one barrier, finalize. It prints nothing and measures nothing. */
#include <shmem.h>

int main(void)
{
    shmem_init();
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
