/* Must fail: shmem_align needs a power-of-two alignment.
 *
 * err-from: any
 * err-line: shmem_align: argument alignment is 48, expected a power of two
 */
#include "pe_test.h"

int main(void)
{
    void *p;

    shmem_init();
    pe_test_watchdog();
    p = shmem_align(48, 64);
    shmem_free(p);
    shmem_finalize();
    return 0;
}
