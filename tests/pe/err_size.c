/* Must fail: a putmem of SIZE_MAX / 2 bytes cannot fit in any segment.
 *
 * err-from: $last 1
 * err-line: shmem_putmem: argument dest is $hex and 9223372036854775807 bytes long, which runs past
 *   the end of the [a-z/ ]* ([0-9]* bytes at $hex) by [0-9]* bytes
 */
#include "pe_test.h"

#include <stdint.h>

static char dest[64], src[64];

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_putmem(dest, src, SIZE_MAX / 2, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
