/* Must fail: a symmetric heap of 1000 TiB cannot be mapped on any machine today. */
#include "pe_test.h"

int main(void)
{
    setenv("SHMEM_SYMMETRIC_SIZE", "1000T", 1);
    shmem_init();
    shmem_finalize();
    return 0;
}
