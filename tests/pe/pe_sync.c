/* Ordering and synchronisation: barrier_all completes puts (200 rounds), sync_all
 * after an explicit quiet, fence orders data before a flag, quiet completes nbi
 * puts. Flags only grow, so no round needs resetting them. */
#include "pe_test.h"

#define ROUNDS 200
#define FENCE_ROUNDS 40
#define FENCE_N 16384        /* longs of data before each flag */
#define QUIET_BYTES (1 << 20)

static int me, npes, left, right;

/* Each PE writes the round into its slot on every PE, then barrier_all: every
 * slot must hold the round. Two buffers by parity, since a fast PE may start the
 * next round while a slow one still checks this one. Puts alternate between p,
 * put and put_nbi, which barrier_all alone must complete. */
static void check_barrier_rounds(void)
{
    long *slots = shmem_calloc(2 * (size_t)npes, sizeof(long)), val;
    int round, pe, bad = 0;

    PE_CHECK(slots != NULL, "shmem_calloc(%d longs) is NULL", 2 * npes);
    if (slots == NULL)
        return;
    for (round = 1; round <= ROUNDS; round++) {
        long *buf = slots + (round % 2) * npes;

        val = round;
        for (pe = 0; pe < npes; pe++) {
            int to = (me + pe) % npes; /* staggered, so PEs do not all hit PE 0 first */

            switch (round % 3) {
            case 0: shmem_long_p(&buf[me], val, to); break;
            case 1: shmem_long_put(&buf[me], &val, 1, to); break;
            default: shmem_long_put_nbi(&buf[me], &val, 1, to); break;
            }
        }
        shmem_barrier_all();
        for (pe = 0; pe < npes; pe++) {
            if (buf[pe] != round && bad++ < 5)
                PE_CHECK_EQ("barrier_all round: slot of PE", round, buf[pe]);
        }
    }
    PE_CHECK(bad == 0, "%d slots wrong over %d barrier_all rounds", bad, ROUNDS);
    shmem_free(slots);
}

/* sync_all only synchronises; with shmem_quiet before it, puts are complete. */
static void check_sync_all(void)
{
    long *slots = shmem_calloc(2 * (size_t)npes, sizeof(long)), val;
    int round, pe, bad = 0;

    PE_CHECK(slots != NULL, "shmem_calloc(%d longs) is NULL", 2 * npes);
    if (slots == NULL)
        return;
    for (round = 1; round <= ROUNDS / 2; round++) {
        long *buf = slots + (round % 2) * npes;

        val = 1000 + round;
        for (pe = 0; pe < npes; pe++) {
            if (round % 2)
                shmem_long_put_nbi(&buf[me], &val, 1, (me + pe) % npes);
            else
                shmem_long_p(&buf[me], val, (me + pe) % npes);
        }
        shmem_quiet();
        shmem_sync_all();
        for (pe = 0; pe < npes; pe++) {
            if (buf[pe] != 1000 + round && bad++ < 5)
                PE_CHECK_EQ("sync_all round: slot of PE", 1000 + round, buf[pe]);
        }
    }
    PE_CHECK(bad == 0, "%d slots wrong over %d sync_all rounds", bad, ROUNDS / 2);
    shmem_free(slots);
}

/* Data by put_nbi, shmem_fence, then the flag: whoever sees the flag sees the
 * data. Each PE sends to every PE (itself included) into its own slot. */
static void check_fence(void)
{
    long *data = shmem_malloc((size_t)npes * FENCE_N * sizeof(long));
    long *flags = shmem_calloc((size_t)npes, sizeof(long));
    long *src = malloc(FENCE_N * sizeof(long));
    long flag_val;
    int round, pe, i, bad = 0;

    PE_CHECK(data != NULL && flags != NULL && src != NULL, "buffers %p %p %p", (void *)data,
             (void *)flags, (void *)src);
    if (data == NULL || flags == NULL || src == NULL)
        return;
    for (round = 1; round <= FENCE_ROUNDS; round++) {
        flag_val = round;
        for (i = 0; i < FENCE_N; i++)
            src[i] = round * 100000L + me * 1000L + i % 1000;
        for (pe = 0; pe < npes; pe++) {
            int to = (me + pe) % npes;

            shmem_long_put_nbi(&data[(size_t)me * FENCE_N], src, FENCE_N, to);
            shmem_fence();
            if (round % 2)
                shmem_long_p(&flags[me], round, to);
            else
                shmem_long_put_nbi(&flags[me], &flag_val, 1, to);
        }
        /* The nbi source buffer may be reused only after quiet; the flags stay
         * unordered with respect to it. */
        shmem_quiet();
        for (pe = 0; pe < npes; pe++) {
            const long *d = &data[(size_t)pe * FENCE_N];

            pe_test_wait_long_ge(&flags[pe], round, pe);
            for (i = 0; i < FENCE_N; i++) {
                long want = round * 100000L + pe * 1000L + i % 1000;

                if (d[i] != want) {
                    if (bad++ < 5)
                        PE_CHECK(0, "round %d: flag from PE %d set but data[%d] is %ld, "
                                 "expected %ld", round, pe, i, d[i], want);
                    break;
                }
            }
        }
        shmem_barrier_all(); /* nobody overwrites data a PE still checks */
    }
    free(src);
    shmem_free(flags);
    shmem_free(data);
}

/* A big put_nbi, shmem_quiet, then a flag by p: the data is there when the flag is. */
static void check_quiet(void)
{
    unsigned char *buf = shmem_malloc(QUIET_BYTES), *src = malloc(QUIET_BYTES);
    long *flag = shmem_calloc(1, sizeof(long));
    size_t i, bad = 0;
    int round;

    PE_CHECK(buf != NULL && src != NULL && flag != NULL, "buffers %p %p %p", (void *)buf,
             (void *)src, (void *)flag);
    if (buf == NULL || src == NULL || flag == NULL)
        return;
    for (round = 1; round <= 10; round++) {
        for (i = 0; i < QUIET_BYTES; i++)
            src[i] = (unsigned char)(me * 17 + round * 5 + i % 251);
        shmem_putmem_nbi(buf, src, QUIET_BYTES, right);
        shmem_quiet();
        memset(src, 0, QUIET_BYTES); /* after quiet the source is free to reuse */
        shmem_long_p(flag, round, right);
        pe_test_wait_long_ge(flag, round, left);
        for (i = 0; i < QUIET_BYTES; i++)
            if (buf[i] != (unsigned char)(left * 17 + round * 5 + i % 251) && bad++ == 0)
                PE_CHECK(0, "round %d: byte %zu from PE %d is %u, expected %u", round, i,
                         left, buf[i], (unsigned char)(left * 17 + round * 5 + i % 251));
        shmem_barrier_all();
    }
    PE_CHECK(bad == 0, "%zu bytes wrong after quiet", bad);
    free(src);
    shmem_free(flag);
    shmem_free(buf);
}

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    check_barrier_rounds();
    check_sync_all();
    check_fence();
    check_quiet();
    return pe_test_finish("pe_sync");
}
