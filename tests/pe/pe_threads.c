/* SHMEM_THREAD_MULTIPLE: several threads per PE issue puts, gets, fetch_adds,
 * put_nbi + quiet and lazy first connections at once; then half the threads
 * only issue large put_nbi while the other half only call shmem_quiet (quiets
 * racing each other over the same outstanding requests). Every count and every
 * slot is checked afterwards; a library that is not thread safe loses updates,
 * mixes up data, or crashes here. Last, every thread of every PE takes one
 * distributed lock in turn (a thread waits while a sibling holds it, the PE's
 * claim) and adds 1 to a plain counter on PE 0 with a get and a put: the total
 * must be exact, and no two threads of a PE may be inside at once. */
#include "pe_test.h"

#include <pthread.h>

#define THREADS 4
#define ITERS 2000
#define MAX_PES 64

static long counters[THREADS];              /* fetch_add targets, one per thread */
static long slots[MAX_PES][THREADS][ITERS]; /* put targets: [from pe][thread][iter] */
/* Put sources: a put_nbi source must not change before the quiet that completes it. */
static long values[THREADS][ITERS];
static int me, npes;
static int failures[THREADS];

static void *worker(void *arg)
{
    int t = (int)(long)arg, i;

    for (i = 0; i < ITERS; i++) {
        int pe = (me + t + i) % npes; /* threads reach peers in different orders */
        long *value = &values[t][i], back = -1, old;

        *value = ((long)me << 40) | ((long)t << 32) | i;
        old = shmem_long_atomic_fetch_add(&counters[t], 1, pe);
        if (old < 0)
            failures[t]++;
        if (i % 2)
            shmem_long_put(&slots[me][t][i], value, 1, pe);
        else
            shmem_long_put_nbi(&slots[me][t][i], value, 1, pe);
        if (i % 64 == 0) {
            shmem_quiet();
            shmem_long_get(&back, &slots[me][t][i], 1, pe);
            if (back != *value)
                failures[t]++;
        }
    }
    shmem_quiet();
    return NULL;
}

/* The quiet storm: big enough that UCX keeps the requests outstanding. */
#define BIG (64 * 1024)
#define BIG_ROUNDS 48
static char big_src[THREADS / 2][BIG], big_dst[MAX_PES][THREADS / 2][BIG];
/* get_nbi targets (UCX must wait for replies): one per round between quiets */
static char big_got[THREADS / 2][8][BIG];
static int storm_done;

static void *storm(void *arg)
{
    int t = (int)(long)arg, r, quiets = 0;

    if (t % 2) { /* a quieter: until every putter is done, then once more */
        while (!__atomic_load_n(&storm_done, __ATOMIC_ACQUIRE)) {
            shmem_quiet();
            quiets++;
        }
        shmem_quiet();
        return (void *)(long)quiets;
    }
    for (r = 0; r < BIG_ROUNDS; r++) {
        int pe = (me + 1 + r) % npes;

        shmem_putmem_nbi(big_dst[me][t / 2], big_src[t / 2], BIG, pe);
        /* small blocking puts: UCX sends them from copies that quiet frees */
        shmem_putmem(big_dst[me][t / 2] + BIG - 1024, big_src[t / 2], 1024, pe);
        shmem_getmem_nbi(big_got[t / 2][r % 8], big_src[t / 2], BIG, pe);
        if (r % 8 == 7)
            shmem_quiet();
    }
    shmem_quiet();
    return NULL;
}

static void check_storm(void)
{
    pthread_t threads[THREADS];
    int t, pe, ok;

    /* Filled before the barrier: other PEs' get_nbi read these sources
     * while this PE's threads run (a fill inside storm() raced them). */
    for (t = 0; t < THREADS; t += 2)
        memset(big_src[t / 2], 'a' + t, BIG);
    shmem_barrier_all();
    for (t = 0; t < THREADS; t++)
        pthread_create(&threads[t], NULL, storm, (void *)(long)t);
    for (t = 0; t < THREADS; t += 2)
        pthread_join(threads[t], NULL);
    __atomic_store_n(&storm_done, 1, __ATOMIC_RELEASE);
    for (t = 1; t < THREADS; t += 2)
        pthread_join(threads[t], NULL);
    shmem_barrier_all();
    /* Every PE that reached this one in some round wrote its whole buffer. */
    for (pe = 0; pe < npes; pe++) {
        for (t = 0; t < THREADS / 2; t++) {
            int reached = 0, r;

            for (r = 0; r < BIG_ROUNDS; r++)
                reached |= (pe + 1 + r) % npes == me;
            ok = big_dst[pe][t][0] == (reached ? 'a' + 2 * t : 0) &&
                 memcmp(big_dst[pe][t], big_dst[pe][t] + 1, BIG - 1) == 0;
            PE_CHECK(ok, "quiet storm: buffer from PE %d thread %d holds '%c'..'%c'", pe,
                     2 * t, big_dst[pe][t][0], big_dst[pe][t][BIG - 1]);
        }
    }
}

/* The lock storm: threads of one PE queue on the claim its first holder made. */
#define LOCK_ROUNDS 100
static long storm_lock, storm_count; /* the count is used on PE 0 */
static int inside;                   /* this PE's threads inside the lock; atomic */

static void *lock_storm(void *arg)
{
    int t = (int)(long)arg, r, bad = 0;

    for (r = 0; r < LOCK_ROUNDS; r++) {
        long v;

        shmem_set_lock(&storm_lock);
        bad += __atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST) != 1;
        v = shmem_long_g(&storm_count, 0);
        sched_yield(); /* without the lock, a sibling's update now gets lost */
        shmem_long_p(&storm_count, v + 1, 0);
        shmem_quiet();
        __atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
        shmem_clear_lock(&storm_lock);
    }
    failures[t] += bad;
    return NULL;
}

static void check_lock_storm(void)
{
    pthread_t threads[THREADS];
    int t;

    shmem_barrier_all();
    for (t = 0; t < THREADS; t++)
        pthread_create(&threads[t], NULL, lock_storm, (void *)(long)t);
    for (t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        PE_CHECK(failures[t] == 0, "lock storm: thread %d found a sibling inside %d times", t,
                 failures[t]);
    }
    shmem_barrier_all();
    if (me == 0)
        PE_CHECK(storm_count == (long)npes * THREADS * LOCK_ROUNDS,
                 "lock storm: the count is %ld, expected %ld", storm_count,
                 (long)npes * THREADS * LOCK_ROUNDS);
}

int main(void)
{
    pthread_t threads[THREADS];
    int provided, t, i, pe;

    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (provided != SHMEM_THREAD_MULTIPLE || npes > MAX_PES) {
        if (me == 0)
            printf("pe_threads: provided %d, %d PEs: skipped\n", provided, npes);
        shmem_finalize();
        return 77;
    }
    shmem_barrier_all();
    for (t = 0; t < THREADS; t++)
        pthread_create(&threads[t], NULL, worker, (void *)(long)t);
    for (t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        PE_CHECK_EQ("checks failed inside thread", 0, failures[t]);
    }
    shmem_barrier_all();

    /* Each thread t of every PE hit counters[t] on this PE once for each i with
     * (pe + t + i) % npes == me, and wrote exactly those slots. */
    for (t = 0; t < THREADS; t++) {
        long expected = 0;

        for (pe = 0; pe < npes; pe++)
            for (i = 0; i < ITERS; i++)
                if ((pe + t + i) % npes == me) {
                    long value = ((long)pe << 40) | ((long)t << 32) | i;

                    expected++;
                    PE_CHECK(slots[pe][t][i] == value,
                             "slot [%d][%d][%d] is %ld, expected %ld", pe, t, i,
                             slots[pe][t][i], value);
                }
        PE_CHECK(counters[t] == expected, "counter %d is %ld, expected %ld", t, counters[t],
                 expected);
    }
    check_storm();
    check_lock_storm();
    return pe_test_finish("pe_threads");
}
