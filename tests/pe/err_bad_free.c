/* Must fail: shmem_free of a global, which shmem_malloc never returned. It is
 * collective, so every PE makes the same wrong call. */
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
