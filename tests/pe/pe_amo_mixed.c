/* Mixed-path atomicity: every PE, PE 0 included, hammers counters on PE 0. Under
 * SHOAL_TRANSPORT=ucx the other PEs' AMOs go through UCX while PE 0's own use CPU
 * atomics on its memory; under auto all use CPU atomics. The ends must be exact
 * either way (run-pe.sh runs both): fetch_add and add/inc on 64- and 32-bit
 * counters, compare_swap increment loops, xor/or/and words, and a compare_swap
 * lock guarding a counter updated by plain get and put. N is MIXED_ITERS (50000). */
#include "pe_test.h"

#include <stdint.h>

#define DEFAULT_ITERS 50000

static int me, npes;
static long iters;

/* The counters, all on PE 0: global (data and bss) and heap ones mixed. */
static uint64_t c64;       /* fetch_add(1) and add(2) */
static uint32_t c32 = 0;   /* fetch_inc, inc, add(3) */
static long cas_count = 7; /* compare_swap increments, from 7 */
static uint64_t xor_word = 0x5555AAAA5555AAAAull;
static int lock; /* 0 free, else holder + 1 */

static uint64_t pattern(int pe)
{
    return 0xD1B54A32D192ED03ull * (uint64_t)(pe + 3);
}

int main(void)
{
    uint64_t *sums, sum = 0, total_sum = 0, want, *bits;
    long *plain, i, bad = 0, cas_sum = 0, cas_iters, lock_iters;
    int64_t last = -1;
    const char *env;
    int p;

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    env = getenv("MIXED_ITERS");
    iters = env != NULL && env[0] != '\0' ? atol(env) : DEFAULT_ITERS;
    if (iters < 10)
        iters = 10;
    cas_iters = iters / 10;
    lock_iters = iters / 100;
    sums = shmem_calloc(2 * (size_t)npes, sizeof(uint64_t)); /* on PE 0: by source */
    bits = shmem_calloc(2, sizeof(uint64_t));                /* or word, and word */
    plain = shmem_calloc(1, sizeof(long));                   /* under the lock */
    PE_CHECK(sums && bits && plain, "buffers %p %p %p", (void *)sums, (void *)bits, (void *)plain);
    if (!(sums && bits && plain))
        return pe_test_finish("pe_amo_mixed");
    if (me == 0)
        bits[1] = ~(uint64_t)0;
    shmem_barrier_all();

    for (i = 0; i < iters; i++) {
        uint64_t old = shmem_uint64_atomic_fetch_add(&c64, 1, 0);

        if ((int64_t)old <= last && bad++ < 5)
            PE_CHECK(0, "fetch_add at PE 0 returned %llu after %lld: not increasing",
                     (unsigned long long)old, (long long)last);
        last = (int64_t)old;
        sum += old;
        switch (i % 3) {
        case 0:
            (void)shmem_uint32_atomic_fetch_inc(&c32, 0);
            break;
        case 1:
            shmem_uint32_atomic_inc(&c32, 0);
            break;
        default:
            shmem_uint32_atomic_add(&c32, 3, 0);
            break;
        }
        if (i % 2)
            shmem_uint64_atomic_xor(&xor_word, pattern(me), 0);
        else
            (void)shmem_uint64_atomic_fetch_xor(&xor_word, pattern(me), 0);
        if (i % 4 == 0) {
            shmem_uint64_atomic_or(&bits[0], (uint64_t)1 << ((me + i) % 64), 0);
            (void)shmem_uint64_atomic_fetch_and(&bits[1], ~((uint64_t)1 << ((me + i) % 64)), 0);
        }
    }
    /* Increments by compare_swap: each success saw a distinct old value. */
    for (i = 0; i < cas_iters; i++) {
        long seen = shmem_long_atomic_fetch(&cas_count, 0), got;

        while ((got = shmem_long_atomic_compare_swap(&cas_count, seen, seen + 1, 0)) != seen)
            seen = got;
        cas_sum += seen;
    }
    /* A lock by compare_swap around a get, a put and a quiet; released by an AMO. */
    for (i = 0; i < lock_iters; i++) {
        unsigned spins = 0;
        long v;

        while (shmem_int_atomic_compare_swap(&lock, 0, me + 1, 0) != 0)
            if (++spins % 4 == 0)
                sched_yield();
        v = shmem_long_g(plain, 0);
        shmem_long_p(plain, v + 1, 0);
        shmem_quiet();
        PE_CHECK(shmem_int_atomic_swap(&lock, 0, 0) == me + 1,
                 "the lock was not held by PE %d at release", me);
    }
    shmem_uint64_p(&sums[2 * me], sum, 0);
    shmem_uint64_p(&sums[2 * me + 1], (uint64_t)cas_sum, 0);
    shmem_barrier_all();

    if (me == 0) {
        uint64_t total = (uint64_t)npes * (uint64_t)iters, or_want = 0, xor_want;
        uint64_t ncas = (uint64_t)npes * (uint64_t)cas_iters, cas_total = 0;
        uint64_t adds = (uint64_t)(iters / 3); /* i % 3 == 2 */

        for (p = 0; p < npes; p++) {
            total_sum += sums[2 * p];
            cas_total += sums[2 * p + 1];
        }
        PE_CHECK(c64 == total, "fetch_add counter: expected %llu, found %llu",
                 (unsigned long long)total, (unsigned long long)c64);
        PE_CHECK(total_sum == total * (total - 1) / 2,
                 "fetched values sum to %llu, expected %llu (one handed out twice?)",
                 (unsigned long long)total_sum, (unsigned long long)(total * (total - 1) / 2));
        /* Per PE: iters increments of 1, less the adds of 3 which count 3 each. */
        want = (uint64_t)npes * ((uint64_t)iters - adds + 3 * adds);
        PE_CHECK(c32 == (uint32_t)want, "32-bit counter: expected %llu, found %u",
                 (unsigned long long)want, c32);
        PE_CHECK(cas_count == 7 + (long)ncas, "compare_swap counter: expected %ld, found %ld",
                 7 + (long)ncas, cas_count);
        PE_CHECK(cas_total == ncas * 7 + ncas * (ncas - 1) / 2,
                 "compare_swap old values sum to %llu, expected %llu",
                 (unsigned long long)cas_total,
                 (unsigned long long)(ncas * 7 + ncas * (ncas - 1) / 2));
        xor_want = 0x5555AAAA5555AAAAull;
        for (p = 0; p < npes; p++) {
            if (iters % 2)
                xor_want ^= pattern(p);
            for (i = 0; i < iters; i += 4)
                or_want |= (uint64_t)1 << ((p + i) % 64);
        }
        PE_CHECK(xor_word == xor_want, "xor word: expected %#llx, found %#llx",
                 (unsigned long long)xor_want, (unsigned long long)xor_word);
        PE_CHECK(bits[0] == or_want, "or word: expected %#llx, found %#llx",
                 (unsigned long long)or_want, (unsigned long long)bits[0]);
        PE_CHECK(bits[1] == ~or_want, "and word: expected %#llx, found %#llx",
                 (unsigned long long)~or_want, (unsigned long long)bits[1]);
        PE_CHECK(*plain == (long)npes * lock_iters,
                 "counter under the lock: expected %ld, found %ld", (long)npes * lock_iters,
                 *plain);
        PE_CHECK(lock == 0, "the lock is still held: %d", lock);
    }
    shmem_free(plain);
    shmem_free(bits);
    shmem_free(sums);
    return pe_test_finish("pe_amo_mixed");
}
