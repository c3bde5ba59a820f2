/* The deprecated start_pes(0) initialises the library like shmem_init. */
#include "pe_test.h"

static long cell = -1;

int main(void)
{
    int me, npes;

    start_pes(0);
    pe_test_watchdog();
    me = _my_pe();
    npes = _num_pes();
    PE_CHECK_EQ("_my_pe vs shmem_my_pe", shmem_my_pe(), me);
    PE_CHECK_EQ("_num_pes vs shmem_n_pes", shmem_n_pes(), npes);
    PE_CHECK(me >= 0 && me < npes, "PE %d of %d", me, npes);
    shmem_long_p(&cell, 10L * me + 3, (me + 1) % npes);
    shmem_barrier_all();
    PE_CHECK_EQ("cell from the left neighbour", 10L * ((me + npes - 1) % npes) + 3, cell);
    return pe_test_finish("pe_start_pes");
}
