/* Must fail: shmem_signal_wait_until on a stack variable, which no PE can signal.
 *
 * err-from: any
 * err-line: shmem_signal_wait_until: argument sig_addr is $hex, which is not symmetric memory
 *   (symmetric heap $hex\.\.$hex, global/static data $hex\.\.$hex); allocate it with shmem_malloc
 *   or make it a global or static variable
 */
#include "pe_test.h"

int main(void)
{
    uint64_t sig = 0;

    shmem_init();
    pe_test_watchdog();
    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 0);
    shmem_finalize();
    return 0;
}
