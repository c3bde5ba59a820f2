/* Must fail: a symmetric heap of 1000 TiB cannot be mapped on any machine today.
 *
 * err-from: any
 * err-line: shmem_init: cannot create a symmetric heap of 1099511627776000 bytes ([^)]*); set
 *   SHMEM_SYMMETRIC_SIZE to a size this machine can map
 */
#include "pe_test.h"

int main(void)
{
    setenv("SHMEM_SYMMETRIC_SIZE", "1000T", 1);
    shmem_init();
    shmem_finalize();
    return 0;
}
