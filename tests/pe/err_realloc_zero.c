/* Must fail: shmem_realloc(ptr, 0) of a pointer that is no heap block; the line must
 * name shmem_realloc (it named shmem_free, which the program never called).
 *
 * err-from: any
 * err-line: shmem_realloc: argument ptr is $hex, which is not a block from shmem_malloc (or it was
 *   freed already)
 */
#include "pe_test.h"

int main(void)
{
    long not_a_block[2];

    shmem_init();
    pe_test_watchdog();
    shmem_realloc(not_a_block, 0);
    shmem_finalize();
    return 0;
}
