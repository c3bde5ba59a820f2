/* Must fail: the last PE puts with a signal on its stack, which is not symmetric.
 *
 * err-from: $last 1
 * err-line: shmem_putmem_signal: argument sig_addr is $hex, which is not symmetric memory
 *   (symmetric heap $hex\.\.$hex, global/static data $hex\.\.$hex); allocate it with shmem_malloc
 *   or make it a global or static variable
 */
#include "pe_test.h"

static char dest[8];

int main(void)
{
    char src[8] = "signal";
    uint64_t sig = 0;

    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_putmem_signal(dest, src, sizeof(src), &sig, 1, SHMEM_SIGNAL_SET, 0);
    shmem_barrier_all();
    shmem_finalize();
    return (int)sig; /* reaching here is the failure run-err.sh reports */
}
