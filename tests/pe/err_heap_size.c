/* Must fail: SHMEM_SYMMETRIC_SIZE is not a size (set here, before shmem_init).
 *
 * err-from: - any
 * err-line: shmem_init: environment variable SHMEM_SYMMETRIC_SIZE is 'lots'; expected a number of
 *   bytes with an optional K, M, G or T suffix, e\.g\. 512M
 */
#include "pe_test.h"

int main(void)
{
    setenv("SHMEM_SYMMETRIC_SIZE", "lots", 1);
    shmem_init();
    shmem_finalize();
    return 0;
}
