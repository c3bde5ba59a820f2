/* shmem_init_thread: the level it reports is the one shmem_query_thread gives,
 * and the library works after it (a put round the ring). */
#include "pe_test.h"

static int cell = -1;

int main(void)
{
    int provided = -1, queried = -2, rc, me, npes;

    rc = shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    PE_CHECK_EQ("shmem_init_thread return", 0, rc);
    PE_CHECK(provided >= SHMEM_THREAD_SINGLE && provided <= SHMEM_THREAD_MULTIPLE,
             "provided is %d, not a thread level", provided);
    shmem_query_thread(&queried);
    PE_CHECK_EQ("shmem_query_thread vs provided", provided, queried);
    shmem_int_p(&cell, me, (me + 1) % npes);
    shmem_barrier_all();
    PE_CHECK_EQ("cell from the left neighbour", (me + npes - 1) % npes, cell);
    return pe_test_finish("pe_init_thread");
}
