/* Must fail: shmem_free of a global, which shmem_malloc never returned. It is
 * collective, so every PE makes the same wrong call.
 *
 * err-from: any
 * err-line: shmem_free: argument ptr is $hex, which is not a block from shmem_malloc (or it was
 *   freed already)
 */
#include "pe_test.h"

static int not_heap[4];

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    shmem_free(not_heap);
    shmem_finalize();
    return 0;
}
