/* Must fail: a negative size converted to size_t is a bug, not a large request. */
#include "pe_test.h"

int main(void)
{
    int n = -8;
    void *p;

    shmem_init();
    pe_test_watchdog();
    p = shmem_malloc((size_t)n);
    shmem_free(p);
    shmem_finalize();
    return 0;
}
