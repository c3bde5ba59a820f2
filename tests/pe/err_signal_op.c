/* Must fail: the last PE puts with signal operator 7, which is neither
 * SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD.
 *
 * err-from: $last 1
 * err-line: shmem_putmem_signal: argument sig_op is 7, expected SHMEM_SIGNAL_SET or
 *   SHMEM_SIGNAL_ADD
 */
#include "pe_test.h"

static char dest[8];
static uint64_t sig;

int main(void)
{
    char src[8] = "signal";

    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_putmem_signal(dest, src, sizeof(src), &sig, 1, 7, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-err.sh reports */
}
