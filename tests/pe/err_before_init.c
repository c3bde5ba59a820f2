/* Must fail: shmem_int_p before shmem_init (on every PE: none knows its number).
 *
 * err-from: - any
 * err-line: shmem_int_p: called before shmem_init; call shmem_init first
 */
#include "pe_test.h"

static int dest;

int main(void)
{
    pe_test_watchdog();
    shmem_int_p(&dest, 1, 0);
    shmem_init();
    shmem_finalize();
    return 0;
}
