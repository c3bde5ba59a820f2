/* Must fail: SHMEM_SYMMETRIC_SIZE is not a size (set here, before shmem_init). */
#include "pe_test.h"

int main(void)
{
    setenv("SHMEM_SYMMETRIC_SIZE", "lots", 1);
    shmem_init();
    shmem_finalize();
    return 0;
}
