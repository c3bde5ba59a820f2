/* Zero-length calls with null buffers, which the spec's annex supports: every
 * collective, reduction, RMA, signal and wait routine given (NULL, 0) does no
 * transfer and returns, on every PE (collectives still synchronise). A routine
 * that checks the null address before the length ends the job here instead. */
#include "pe_test.h"

#include <stdint.h>

static long psync[SHMEM_COLLECT_SYNC_SIZE];
static uint64_t sig; /* a valid signal word: only the data may be empty */

static void zero_collectives(void)
{
    shmem_team_t w = SHMEM_TEAM_WORLD;
    int rc = 0;

    rc |= shmem_broadcastmem(w, NULL, NULL, 0, 0);
    rc |= shmem_collectmem(w, NULL, NULL, 0);
    rc |= shmem_fcollectmem(w, NULL, NULL, 0);
    rc |= shmem_alltoallmem(w, NULL, NULL, 0);
    rc |= shmem_alltoallsmem(w, NULL, NULL, 1, 1, 0);
    rc |= shmem_int_broadcast(w, NULL, NULL, 0, 0);
    rc |= shmem_int_collect(w, NULL, NULL, 0);
    rc |= shmem_long_fcollect(w, NULL, NULL, 0);
    rc |= shmem_double_alltoall(w, NULL, NULL, 0);
    rc |= shmem_float_alltoalls(w, NULL, NULL, 1, 1, 0);
    rc |= shmem_int_sum_reduce(w, NULL, NULL, 0);
    rc |= shmem_long_max_reduce(w, NULL, NULL, 0);
    rc |= shmem_uint_and_reduce(w, NULL, NULL, 0);
    rc |= shmem_double_prod_reduce(w, NULL, NULL, 0);
    PE_CHECK(rc == 0, "a zero-length team collective returned %d", rc);
    /* The deprecated active-set forms, with their pSync. */
    shmem_collect32(NULL, NULL, 0, 0, 0, shmem_n_pes(), psync);
    shmem_barrier_all();
    shmem_fcollect64(NULL, NULL, 0, 0, 0, shmem_n_pes(), psync);
    shmem_barrier_all();
    shmem_broadcast64(NULL, NULL, 0, 0, 0, 0, shmem_n_pes(), psync);
    shmem_barrier_all();
}

static void zero_rma(void)
{
    int pe = (shmem_my_pe() + 1) % shmem_n_pes();

    shmem_putmem(NULL, NULL, 0, pe);
    shmem_getmem(NULL, NULL, 0, pe);
    shmem_putmem_nbi(NULL, NULL, 0, pe);
    shmem_getmem_nbi(NULL, NULL, 0, pe);
    shmem_int_put(NULL, NULL, 0, pe);
    shmem_long_get(NULL, NULL, 0, pe);
    shmem_double_iput(NULL, NULL, 1, 1, 0, pe);
    shmem_short_iget(NULL, NULL, 1, 1, 0, pe);
    shmem_ctx_putmem(SHMEM_CTX_DEFAULT, NULL, NULL, 0, pe);
    shmem_quiet();
    /* A put-with-signal of no data still delivers its signal. */
    shmem_barrier_all();
    shmem_putmem_signal(NULL, NULL, 0, &sig, 7, SHMEM_SIGNAL_SET, pe);
    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 7);
    PE_CHECK_EQ("signal after a zero-length put_signal", 7, (long)sig);
    shmem_barrier_all();
}

static void zero_waits(void)
{
    size_t idx[1];

    shmem_int_wait_until_all(NULL, 0, NULL, SHMEM_CMP_EQ, 0);
    PE_CHECK(shmem_int_test_all(NULL, 0, NULL, SHMEM_CMP_EQ, 0) == 1, "%s",
             "test_all over no ivars is not true");
    PE_CHECK(shmem_long_wait_until_any(NULL, 0, NULL, SHMEM_CMP_EQ, 0) == SIZE_MAX, "%s",
             "wait_until_any over no ivars is not SIZE_MAX");
    PE_CHECK(shmem_long_test_any(NULL, 0, NULL, SHMEM_CMP_EQ, 0) == SIZE_MAX, "%s",
             "test_any over no ivars is not SIZE_MAX");
    PE_CHECK(shmem_int_wait_until_some(NULL, 0, idx, NULL, SHMEM_CMP_EQ, 0) == 0, "%s",
             "wait_until_some over no ivars is not 0");
    PE_CHECK(shmem_int_test_some(NULL, 0, idx, NULL, SHMEM_CMP_EQ, 0) == 0, "%s",
             "test_some over no ivars is not 0");
}

int main(void)
{
    int i;

    for (i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    pe_test_watchdog();
    zero_collectives();
    zero_rma();
    zero_waits();
    return pe_test_finish("pe_zero");
}
