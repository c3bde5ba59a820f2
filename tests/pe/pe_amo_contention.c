/* AMOs under contention: every PE hammers one counter on every PE (its own
 * included) and the totals must be exact. fetch_add(1) N times per target (each
 * PE's fetched values from one counter strictly increase, and over all PEs they
 * sum to 0 + 1 + ... + (npes*N - 1), so none was handed out twice); inc and add;
 * or/and/xor patterns with a known end; and the spec's race_winner example 100
 * times. N is AMO_ITERS; by default 100000, and 40000 through UCX, where each
 * blocking AMO is a round trip (at 8 PEs on 2 cores: about 0.6 s with CPU
 * atomics, about 9 s through UCX at 40000). */
#include "pe_test.h"

#include <stdint.h>

#define DEFAULT_ITERS 100000
#define DEFAULT_ITERS_UCX 40000
#define RACES 100

static int me, npes;
static long iters;

static uint64_t bit_of(int pe)
{
    return (uint64_t)1 << (pe % 64);
}

static uint64_t xor_pattern(int pe)
{
    return 0x9E3779B97F4A7C15ull * (uint64_t)(pe + 1) ^ ((uint64_t)pe << 32);
}

/* fetch_add(1) on a uint64_t counter at every PE; inc on an int counter and
 * add(3) on a long one alongside, so both widths take contention. */
static void counters(void)
{
    uint64_t *fa = shmem_calloc(1, sizeof(uint64_t));
    int *in = shmem_calloc(1, sizeof(int));
    long *ad = shmem_calloc(1, sizeof(long));
    uint64_t *sums = shmem_calloc((size_t)npes, sizeof(uint64_t)); /* by source PE */
    uint64_t *sum = calloc((size_t)npes, sizeof(uint64_t));
    int64_t *last = malloc((size_t)npes * sizeof(int64_t));
    uint64_t total = (uint64_t)npes * (uint64_t)iters, want_sum = 0;
    long i, bad = 0;
    int t, p;

    PE_CHECK(fa && in && ad && sums && sum && last, "buffers %p %p %p %p", (void *)fa, (void *)in,
             (void *)ad, (void *)sums);
    if (!(fa && in && ad && sums && sum && last))
        return;
    for (p = 0; p < npes; p++)
        last[p] = -1;
    shmem_barrier_all();
    for (i = 0; i < iters; i++)
        for (t = 0; t < npes; t++) {
            int pe = (int)((me + t + i) % npes); /* staggered: not all at one PE */
            uint64_t old = shmem_uint64_atomic_fetch_add(fa, 1, pe);

            if ((int64_t)old <= last[pe] && bad++ < 5)
                PE_CHECK(0, "fetch_add at PE %d returned %llu after %lld: not increasing", pe,
                         (unsigned long long)old, (long long)last[pe]);
            last[pe] = (int64_t)old;
            sum[pe] += old;
            shmem_int_atomic_inc(in, pe);
            shmem_long_atomic_add(ad, 3, pe);
        }
    for (t = 0; t < npes; t++)
        shmem_uint64_p(&sums[me], sum[t], t);
    shmem_barrier_all();
    PE_CHECK(*fa == total, "fetch_add counter: expected %llu, found %llu",
             (unsigned long long)total, (unsigned long long)*fa);
    PE_CHECK(*in == (int)total, "inc counter: expected %llu, found %d", (unsigned long long)total,
             *in);
    PE_CHECK(*ad == 3 * (long)total, "add counter: expected %ld, found %ld", 3 * (long)total, *ad);
    for (p = 0; p < npes; p++)
        want_sum += sums[p];
    PE_CHECK(want_sum == total * (total - 1) / 2,
             "the fetched values sum to %llu, expected %llu (a value handed out twice?)",
             (unsigned long long)want_sum, (unsigned long long)(total * (total - 1) / 2));
    free(last);
    free(sum);
    shmem_free(sums);
    shmem_free(ad);
    shmem_free(in);
    shmem_free(fa);
}

/* Each PE ORs its own bit and ANDs it away from an all-ones word, again and again,
 * and XORs its own pattern an odd number of times: the ends are known. The
 * fetching forms also check that a PE's own earlier update is never lost. */
static void bit_patterns(void)
{
    uint64_t *w = shmem_calloc(3, sizeof(uint64_t)); /* or, and, xor */
    uint64_t all = 0, xall = 0x0123456789ABCDEFull, f;
    long rounds = iters / 10 > 0 ? iters / 10 : 1, r, bad = 0;
    int t, p;

    PE_CHECK(w != NULL, "shmem_calloc(3 words) is %p", (void *)w);
    if (w == NULL)
        return;
    w[1] = ~(uint64_t)0;
    w[2] = 0x0123456789ABCDEFull;
    shmem_barrier_all();
    for (r = 0; r < rounds; r++)
        for (t = 0; t < npes; t++) {
            int pe = (int)((me + t + r) % npes);

            if (r % 2 == 0) {
                shmem_uint64_atomic_or(&w[0], bit_of(me), pe);
                shmem_uint64_atomic_and(&w[1], ~bit_of(me), pe);
                shmem_uint64_atomic_xor(&w[2], xor_pattern(me), pe);
                continue;
            }
            f = shmem_uint64_atomic_fetch_or(&w[0], bit_of(me), pe);
            if (!(f & bit_of(me)) && bad++ < 5)
                PE_CHECK(0,
                         "fetch_or at PE %d returned %#llx: this PE's bit, set before, is "
                         "lost",
                         pe, (unsigned long long)f);
            f = shmem_uint64_atomic_fetch_and(&w[1], ~bit_of(me), pe);
            if ((f & bit_of(me)) && bad++ < 5)
                PE_CHECK(0,
                         "fetch_and at PE %d returned %#llx: this PE's bit, cleared before, "
                         "is back",
                         pe, (unsigned long long)f);
            (void)shmem_uint64_atomic_fetch_xor(&w[2], xor_pattern(me), pe);
        }
    /* rounds XORs so far; make the count odd. */
    for (t = 0; t < npes && rounds % 2 == 0; t++)
        shmem_uint64_atomic_xor(&w[2], xor_pattern(me), t);
    shmem_barrier_all();
    for (p = 0; p < npes; p++) {
        all |= bit_of(p);
        xall ^= xor_pattern(p);
    }
    PE_CHECK(w[0] == all, "or word: expected %#llx, found %#llx", (unsigned long long)all,
             (unsigned long long)w[0]);
    PE_CHECK(w[1] == ~all, "and word: expected %#llx, found %#llx", (unsigned long long)~all,
             (unsigned long long)w[1]);
    PE_CHECK(w[2] == xall, "xor word: expected %#llx, found %#llx", (unsigned long long)xall,
             (unsigned long long)w[2]);
    shmem_free(w);
}

/* The race_winner example of the specification: exactly one PE sees -1, PE 0's
 * variable names it, and every loser saw the winner's number. */
static int race_winner = -1;

static void races(void)
{
    int *olds = shmem_malloc((size_t)npes * sizeof(int));
    int round, p, winners, winner, now;

    PE_CHECK(olds != NULL, "shmem_malloc(%d ints) is NULL", npes);
    if (olds == NULL)
        return;
    for (round = 0; round < RACES; round++) {
        int old = shmem_int_atomic_compare_swap(&race_winner, -1, me, 0);

        shmem_int_p(&olds[me], old, 0);
        shmem_barrier_all();
        if (me == 0) {
            now = shmem_int_atomic_fetch(&race_winner, 0);
            for (p = 0, winners = 0, winner = -1; p < npes; p++)
                if (olds[p] == -1) {
                    winners++;
                    winner = p;
                }
            PE_CHECK(winners == 1, "round %d: %d PEs saw -1, expected exactly one", round, winners);
            PE_CHECK(now == winner, "round %d: race_winner is %d, the PE that saw -1 is %d", round,
                     now, winner);
            for (p = 0; p < npes; p++)
                PE_CHECK(olds[p] == -1 || olds[p] == now,
                         "round %d: PE %d saw %d, expected -1 or the winner %d", round, p, olds[p],
                         now);
            shmem_int_atomic_set(&race_winner, -1, 0);
        }
        shmem_barrier_all();
    }
    shmem_free(olds);
}

int main(void)
{
    const char *env;

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    env = getenv("AMO_ITERS");
    if (env != NULL && env[0] != '\0')
        iters = atol(env);
    else
        iters = pe_test_transport_auto() ? DEFAULT_ITERS : DEFAULT_ITERS_UCX;
    if (iters < 1)
        iters = 1;
    if (me == 0)
        printf("pe_amo_contention: N = %ld\n", iters);
    counters();
    bit_patterns();
    races();
    return pe_test_finish("pe_amo_contention");
}
