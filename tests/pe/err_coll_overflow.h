/* The body of err_fcollect_nelems and err_alltoallmem_nelems, which define
 * OVERFLOW_ROUTINE and include this. They must fail: a collective whose dest,
 * nelems elements from each PE, would span more than size_t bytes.
 * 1 shmem_int_fcollect with nelems 2^61 (4-byte elements: 2^63 bytes a PE, too
 * many for 2 PEs), 2 shmem_alltoallmem with nelems 2^63 (1-byte elements). The
 * line must name the nelems passed and the element's size, not the bytes and
 * the PE count. 3 shmem_int_alltoalls with nelems 2 and a dst stride of
 * ceil(2^64 / 3): at 2 PEs (4 blocks) the span's product wrapped to 3 elements
 * unchecked, so the call went ahead with a stride far outside the heap. */
#include "pe_test.h"

static int src[4], dest[8];

int main(void)
{
    shmem_init();
    pe_test_watchdog();
#if OVERFLOW_ROUTINE == 1
    shmem_int_fcollect(SHMEM_TEAM_WORLD, dest, src, (size_t)1 << 61);
#elif OVERFLOW_ROUTINE == 2
    shmem_alltoallmem(SHMEM_TEAM_WORLD, dest, src, (size_t)1 << 63);
#else
    shmem_int_alltoalls(SHMEM_TEAM_WORLD, dest, src, (ptrdiff_t)0x5555555555555556, 1, 2);
#endif
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-err.sh reports */
}
