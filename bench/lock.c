/* lock.c: distributed lock hand-off. Every PE repeatedly takes one lock, adds 1 to a counter on
 * PE 0 with a get and a put (safe only under the lock), and clears it; a row's time is the
 * round's time divided by every PE's acquisitions, so it is the time from one holder's clear to
 * the next holder's critical section at full contention. lock_alone: the last PE alone, the
 * cost of an uncontended set + clear from a PE that is not PE 0. The counter is checked. */
#include "bench.h"

static long go; /* symmetric: the round PE 0 last started */

typedef struct lock_arg {
    long *lock;    /* symmetric, 0 before first use */
    long *counter; /* symmetric; PE 0's copy counts the critical sections */
    long expect;   /* PE 0: what the counter must reach */
    long round;    /* the rounds this PE has started */
    int me;
    int npes;
} lock_arg_t;

/* Every PE starts once PE 0's clock runs. bench_run's barrier alone is not enough: with more
 * PEs than cores, PE 0 may read its clock after the others have done much of the round. */
static void start(lock_arg_t *a)
{
    a->round++;
    if (a->me == 0) {
        for (int pe = 1; pe < a->npes; pe++) {
            shmem_long_p(&go, a->round, pe);
        }
        shmem_quiet();
    } else {
        shmem_long_wait_until(&go, SHMEM_CMP_GE, a->round);
    }
}

static void take_and_add(const lock_arg_t *a)
{
    shmem_set_lock(a->lock);
    shmem_long_p(a->counter, shmem_long_g(a->counter, 0) + 1, 0);
    shmem_clear_lock(a->lock); /* completes the put before the next holder's get */
}

/* The barrier at the end: PE 0's clock covers every PE's acquisitions, even under a lock that
 * lets PE 0 finish first. */
static void handoff(void *arg, long n)
{
    lock_arg_t *a = arg;

    start(a);
    for (long i = 0; i < n; i++) {
        take_and_add(a);
    }
    a->expect += n * a->npes;
    shmem_barrier_all();
}

static void alone(void *arg, long n)
{
    lock_arg_t *a = arg;

    start(a);
    if (a->me == a->npes - 1) {
        for (long i = 0; i < n; i++) {
            take_and_add(a);
        }
    }
    a->expect += n;
    shmem_barrier_all();
}

static const char *const notes[] = {
    "lock_handoff: every PE loops set_lock, g + p of a counter on PE 0, clear_lock; us per "
    "acquisition (round time / all PEs' acquisitions)",
    "lock_alone: the last PE alone does the same; us per acquisition",
    NULL,
};

int main(int argc, char **argv)
{
    bench_opts_t o;
    static const struct {
        const char *name;
        bench_fn_t fn;
        int all; /* every PE takes the lock each iteration */
    } rows[] = {{"lock_handoff", handoff, 1}, {"lock_alone", alone, 0}};
    lock_arg_t a = {0};

    shmem_init();
    bench_opts_parse(&o, argc, argv, "8", "Distributed lock hand-off and uncontended cost.");
    a.me = shmem_my_pe();
    a.npes = shmem_n_pes();
    a.lock = bench_shmalloc(sizeof(long));
    a.counter = bench_shmalloc(sizeof(long));
    *a.lock = 0;
    *a.counter = 0;
    shmem_barrier_all();
    bench_header(&o, "lock", notes);

    for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
        bench_row_t row = {rows[k].name, 0, rows[k].all ? a.npes : 1, 0, NULL};

        if (bench_want(&o, row.name, row.size)) {
            bench_run(&o, &row, rows[k].fn, &a);
        }
    }
    shmem_barrier_all();
    if (a.me == 0 && *a.counter != a.expect) {
        fprintf(stderr, "lock: the counter is %ld after %ld critical sections: the lock let two "
                "PEs in at once\n", *a.counter, a.expect);
        shmem_global_exit(1);
    }

    bench_end(&o);
    shmem_barrier_all();
    shmem_free(a.counter);
    shmem_free(a.lock);
    shmem_finalize();
    return 0;
}
