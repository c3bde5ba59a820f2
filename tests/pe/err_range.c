/* Must fail: with SHOAL_CHECK=1 (set here, before shmem_init reads it), a put of
 * 2 ints to the last int of a 4-int block runs 4 bytes past its allocation.
 *
 * err-from: $last 1
 * err-line: shmem_int_put: argument dest is $hex and 8 bytes long, which runs past the end of its
 *   allocation (16 bytes at $hex) by 4 bytes
 */
#include "pe_test.h"

int main(void)
{
    int src[2] = {1, 2}, *block;

    setenv("SHOAL_CHECK", "1", 1);
    shmem_init();
    pe_test_watchdog();
    block = shmem_malloc(4 * sizeof(int));
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_int_put(block + 3, src, 2, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
