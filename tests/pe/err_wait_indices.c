/* Must fail: shmem_int_wait_until_some with a NULL indices array.
 *
 * err-from: any
 * err-line: shmem_int_wait_until_some: argument indices is NULL, expected an array of nelems
 *   (4) size_t
 */
#include "pe_test.h"

int main(void)
{
    int *ivars;

    shmem_init();
    pe_test_watchdog();
    ivars = shmem_calloc(4, sizeof(int));
    shmem_int_wait_until_some(ivars, 4, NULL, NULL, SHMEM_CMP_EQ, 0);
    shmem_finalize();
    return 0;
}
