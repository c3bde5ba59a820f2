/* Must fail: the last PE puts blocks of 3 ints with a destination stride of 2,
 * so that its blocks would overlap.
 *
 * err-from: $last 1
 * err-line: shmem_int_ibput: argument dst is 2, expected a stride of at least 3 elements (bsize)
 */
#include "pe_test.h"

#include <shmem.h>

static int dest[16];

int main(void)
{
    int src[16] = {0};

    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_int_ibput(dest, src, 2, 3, 3, 4, 0);
    shmem_barrier_all();
    shmem_finalize();
    return dest[0]; /* reaching here is the failure run-err.sh reports */
}
