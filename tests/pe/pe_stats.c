/* A known mix of operations for SHOAL_STATS (pe_stats.sh runs it and checks the
 * printed counts). Per PE, at least 2 PEs: a 1 MiB shmem_malloc and its free (a
 * barrier each), 10 puts of 100 bytes to each neighbour, 4 gets of 50 bytes, 5
 * fetch-adds and 2 puts with signal of 64 bytes to the right neighbour, a
 * signal_wait_until and a wait_until, 3 tests, 3 barrier_all, and one broadcast,
 * sum reduction, fcollect and alltoall. Every value moved is checked too; no
 * other library call is made, so that the counts are exactly these. */
#include "pe_test.h"

#include <stdint.h>

#define PUTS 10
#define PUT_BYTES 100
#define GETS 4
#define GET_BYTES 50
#define AMOS 5
#define SIGNALS 2
#define SIGNAL_BYTES 64
#define TESTS 3
#define BIG ((size_t)1 << 20)
#define MAX_PES 64

static char from_left[PUTS * PUT_BYTES], from_right[PUTS * PUT_BYTES];
static char mine[PUTS * PUT_BYTES], got[GET_BYTES];
static char signal_data[SIGNAL_BYTES], signal_src[SIGNAL_BYTES];
static uint64_t sig;
static long counter;
static long bcast_src, bcast_dst, red_src, red_dst, coll_src, coll_dst[MAX_PES];
static long a2a_src[MAX_PES], a2a_dst[MAX_PES];

static char byte_of(int pe, int i)
{
    return (char)(pe * 31 + i);
}

int main(void)
{
    int me, npes, left, right, i;
    char *big;

    pe_test_watchdog();
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes < 2 || npes > MAX_PES) {
        if (me == 0)
            printf("pe_stats: needs 2 to %d PEs, has %d: skipped\n", MAX_PES, npes);
        shmem_finalize();
        return 77;
    }
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    for (i = 0; i < PUTS * PUT_BYTES; i++)
        mine[i] = byte_of(me, i);
    for (i = 0; i < SIGNAL_BYTES; i++)
        signal_src[i] = byte_of(me, i + 7);
    bcast_src = 1000 + me;
    red_src = me + 1;
    coll_src = 10 * me;
    for (i = 0; i < npes; i++)
        a2a_src[i] = 100 * me + i;

    big = shmem_malloc(BIG); /* barrier 1; the heap's high-water mark grows by BIG */
    PE_CHECK(big != NULL, "shmem_malloc(%zu) returned %p", BIG, (void *)big);
    for (i = 0; i < PUTS; i++) {
        shmem_putmem(from_left + i * PUT_BYTES, mine + i * PUT_BYTES, PUT_BYTES, right);
        shmem_putmem(from_right + i * PUT_BYTES, mine + i * PUT_BYTES, PUT_BYTES, left);
    }
    shmem_barrier_all(); /* 2 */
    for (i = 0; i < PUTS * PUT_BYTES; i++) {
        PE_CHECK_EQ("byte put by the left neighbour", byte_of(left, i), from_left[i]);
        PE_CHECK_EQ("byte put by the right neighbour", byte_of(right, i), from_right[i]);
    }
    for (i = 0; i < GETS; i++) {
        int j;

        shmem_getmem(got, mine + i * GET_BYTES, GET_BYTES, right);
        for (j = 0; j < GET_BYTES; j++)
            PE_CHECK_EQ("byte got from the right neighbour", byte_of(right, i * GET_BYTES + j),
                        got[j]);
    }
    for (i = 0; i < AMOS; i++)
        PE_CHECK_EQ("fetch-add's old value", i, shmem_long_atomic_fetch_add(&counter, 1, right));
    for (i = 0; i < SIGNALS; i++)
        shmem_putmem_signal(signal_data, signal_src, SIGNAL_BYTES, &sig, 1, SHMEM_SIGNAL_ADD,
                            right);
    PE_CHECK_EQ("signal after waiting", SIGNALS,
                shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, SIGNALS));
    shmem_long_wait_until(&counter, SHMEM_CMP_EQ, AMOS);
    for (i = 0; i < TESTS; i++)
        PE_CHECK_EQ("shmem_long_test", 1, shmem_long_test(&counter, SHMEM_CMP_EQ, AMOS));
    for (i = 0; i < SIGNAL_BYTES; i++)
        PE_CHECK_EQ("byte of the signalled put", byte_of(left, i + 7), signal_data[i]);
    shmem_barrier_all(); /* 3 */

    shmem_long_broadcast(SHMEM_TEAM_WORLD, &bcast_dst, &bcast_src, 1, 0);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &red_dst, &red_src, 1);
    shmem_long_fcollect(SHMEM_TEAM_WORLD, coll_dst, &coll_src, 1);
    shmem_long_alltoall(SHMEM_TEAM_WORLD, a2a_dst, a2a_src, 1);
    PE_CHECK_EQ("broadcast from PE 0", 1000, bcast_dst);
    PE_CHECK_EQ("sum reduction", (long)npes * (npes + 1) / 2, red_dst);
    for (i = 0; i < npes; i++) {
        PE_CHECK_EQ("fcollect", 10 * i, coll_dst[i]);
        PE_CHECK_EQ("alltoall", 100 * i + me, a2a_dst[i]);
    }
    shmem_barrier_all(); /* 4 */
    shmem_free(big);     /* 5 */
    if (me == 0 && pe_test_failures == 0)
        printf("pe_stats: PE 0 checked every value\n");
    shmem_finalize();
    return pe_test_failures == 0 ? 0 : 99;
}
