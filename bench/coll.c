/* coll.c: collective latency on all PEs, timed on PE 0: barrier_all, broadcast (moving root),
 * fcollect, alltoall (size = bytes per PE), int sum reduction (size = bytes reduced). 1.5 team
 * routines on SHMEM_TEAM_WORLD where the runtime has them; 1.4 active-set forms otherwise or -a. */
#include "bench.h"

#define NPSYNC 2 /* pSync arrays used in turn by the active-set forms */
#define PSYNC_LEN 128
_Static_assert(PSYNC_LEN >= SHMEM_BCAST_SYNC_SIZE && PSYNC_LEN >= SHMEM_COLLECT_SYNC_SIZE &&
                   PSYNC_LEN >= SHMEM_REDUCE_SYNC_SIZE && PSYNC_LEN >= SHMEM_ALLTOALL_SYNC_SIZE,
               "PSYNC_LEN is shorter than this runtime's pSync");

typedef struct coll_arg {
    char *src;   /* symmetric, npes * max size */
    char *dest;  /* symmetric, npes * max size */
    int *wrk;    /* symmetric pWrk for the 1.4 reduction */
    long *psync; /* symmetric, NPSYNC * PSYNC_LEN */
    size_t size;
    int npes;
    int active_set;
    int fixed; /* -F (1) or -C (2): root 0 and a barrier after every call */
    int root0; /* broadcast_root0: root 0 on every call, no barrier between calls */
    double t0; /* -C: when the call began */
} coll_arg_t;

/* -C: the call is timed alone. */
static void before_call(coll_arg_t *a)
{
    if (a->fixed == 2) {
        a->t0 = bench_now_us();
    }
}

/* -F and -C: the barrier that public micro-benchmarks put after every collective call,
 * timed under -F, not under -C. */
static void after_call(coll_arg_t *a)
{
    if (a->fixed == 2) {
        bench_inner_add(bench_now_us() - a->t0);
    }
    if (a->fixed) {
        shmem_barrier_all();
    }
}

static long *next_psync(coll_arg_t *a)
{
    static int turn;

    turn = (turn + 1) % NPSYNC;
    return a->psync + turn * PSYNC_LEN;
}

static void do_barrier(void *arg, long n)
{
    (void)arg;
    for (long i = 0; i < n; i++) {
        shmem_barrier_all();
    }
}

/* The root moves on each call (all PEs step the same counter), so that PE 0's clock sees
 * every role instead of only the root's, which may return before the data arrives. */
static void do_broadcast(void *arg, long n)
{
    coll_arg_t *a = arg;
    static long turn;

    for (long i = 0; i < n; i++) {
        int root = a->fixed || a->root0 ? 0 : (int)(turn++ % a->npes);
#if BENCH_SHMEM_15
        if (!a->active_set) {
            before_call(a);
            shmem_broadcastmem(SHMEM_TEAM_WORLD, a->dest, a->src, a->size, root);
            after_call(a);
            continue;
        }
#endif
        before_call(a);
        shmem_broadcast64(a->dest, a->src, a->size / 8, root, 0, 0, a->npes, next_psync(a));
        after_call(a);
    }
}

/* Back to back from root 0, timed on PE 0, the root: how many broadcasts a root can
 * start one after another, which is how soon it may reuse what carries the last one. */
static void do_broadcast_root0(void *arg, long n)
{
    coll_arg_t *a = arg;

    a->root0 = 1;
    do_broadcast(arg, n);
    a->root0 = 0;
}

static void do_fcollect(void *arg, long n)
{
    coll_arg_t *a = arg;

    for (long i = 0; i < n; i++) {
#if BENCH_SHMEM_15
        if (!a->active_set) {
            before_call(a);
            shmem_fcollectmem(SHMEM_TEAM_WORLD, a->dest, a->src, a->size);
            after_call(a);
            continue;
        }
#endif
        before_call(a);
        shmem_fcollect64(a->dest, a->src, a->size / 8, 0, 0, a->npes, next_psync(a));
        after_call(a);
    }
}

static void do_alltoall(void *arg, long n)
{
    coll_arg_t *a = arg;

    for (long i = 0; i < n; i++) {
#if BENCH_SHMEM_15
        if (!a->active_set) {
            before_call(a);
            shmem_alltoallmem(SHMEM_TEAM_WORLD, a->dest, a->src, a->size);
            after_call(a);
            continue;
        }
#endif
        before_call(a);
        shmem_alltoall64(a->dest, a->src, a->size / 8, 0, 0, a->npes, next_psync(a));
        after_call(a);
    }
}

static void do_sum_reduce(void *arg, long n)
{
    coll_arg_t *a = arg;
    int nreduce = (int)(a->size / sizeof(int));

    for (long i = 0; i < n; i++) {
#if BENCH_SHMEM_15
        if (!a->active_set) {
            before_call(a);
            shmem_int_sum_reduce(SHMEM_TEAM_WORLD, (int *)a->dest, (int *)a->src, (size_t)nreduce);
            after_call(a);
            continue;
        }
#endif
        before_call(a);
        shmem_int_sum_to_all((int *)a->dest, (int *)a->src, nreduce, 0, 0, a->npes, a->wrk,
                             next_psync(a));
        after_call(a);
    }
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    char api[32];
    static const struct {
        const char *name;
        const char *fixed_name; /* the row under -F (NULL: none) */
        const char *call_name;  /* the row under -C (NULL: none) */
        size_t align;           /* sizes must be multiples of this; 0: a row without a size */
        bench_fn_t fn;
    } rows[] = {
        {"barrier_all", NULL, NULL, 0, do_barrier},
        {"broadcast", "broadcast_fixed", "broadcast_call", 8, do_broadcast},
        {"broadcast_root0", NULL, NULL, 8, do_broadcast_root0},
        {"fcollect", "fcollect_fixed", "fcollect_call", 8, do_fcollect},
        {"alltoall", "alltoall_fixed", "alltoall_call", 8, do_alltoall},
        {"sum_reduce", "sum_reduce_fixed", "sum_reduce_call", 4, do_sum_reduce},
    };

    shmem_init();
    bench_opts_parse(&o, argc, argv, "4,8,1K,64K,1M,4M",
                     "Collective latency: barrier_all, broadcast, fcollect, alltoall, sum_reduce.");
    coll_arg_t a = {0};
    a.npes = shmem_n_pes();
    a.active_set = o.active_set || !BENCH_SHMEM_15;
    a.fixed = o.fixed;
    size_t max = bench_max_size(&o);
    max = max < 8 ? 8 : max;
    a.src = bench_shmalloc(max * (size_t)a.npes);
    a.dest = bench_shmalloc(max * (size_t)a.npes);
    size_t nwrk = max / sizeof(int) / 2 + 1;
    nwrk = nwrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE ? SHMEM_REDUCE_MIN_WRKDATA_SIZE : nwrk;
    a.wrk = bench_shmalloc(nwrk * sizeof(int));
    a.psync = bench_shmalloc(NPSYNC * PSYNC_LEN * sizeof(long));
    for (int i = 0; i < NPSYNC * PSYNC_LEN; i++) {
        a.psync[i] = SHMEM_SYNC_VALUE;
    }
    shmem_barrier_all();
    snprintf(api, sizeof(api), "api=%s", a.active_set ? "active_set" : "team");
    const char *notes[] = {
        a.active_set ? "routines: 1.4 active-set forms (broadcast64, fcollect64, alltoall64, "
                       "int_sum_to_all), pSync arrays used in turn"
                     : "routines: 1.5 team forms on SHMEM_TEAM_WORLD (broadcastmem, fcollectmem, "
                       "alltoallmem, int_sum_reduce)",
        "size: bytes per PE (broadcast, fcollect, alltoall), bytes reduced (sum_reduce)",
        o.fixed == 2 ? "-C: root PE 0 and a barrier after every call (not in the time: only the "
                       "call is timed), the time averaged over all PEs; sum_reduce's MB/s is "
                       "bytes reduced per second"
        : o.fixed    ? "-F: root PE 0 and a barrier after every call (included in the time), the "
                       "time averaged over all PEs; sum_reduce's MB/s is bytes reduced per second"
                  : "time per call on PE 0; the broadcast root moves to the next PE on every call "
                    "(broadcast_root0: root PE 0 on every call, back to back); "
                    "sum_reduce's MB/s is bytes reduced per second",
        NULL,
    };
    bench_header(&o, "coll", notes);

    for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
        for (int i = 0; i < (rows[k].align ? o.nsizes : 1); i++) {
            size_t s = rows[k].align ? o.sizes[i] : 0;
            const char *name = o.fixed == 2 ? rows[k].call_name
                               : o.fixed    ? rows[k].fixed_name
                                            : rows[k].name;
            bench_row_t row = {name, s, 1, rows[k].fn == do_sum_reduce, api};
            if (name == NULL || (rows[k].align && (s == 0 || s % rows[k].align)) ||
                !bench_want(&o, row.name, s)) {
                continue;
            }
            a.size = s;
            bench_run(&o, &row, rows[k].fn, &a);
        }
    }

    bench_end(&o);
    shmem_barrier_all();
    shmem_free(a.psync);
    shmem_free(a.wrk);
    shmem_free(a.dest);
    shmem_free(a.src);
    shmem_finalize();
    return 0;
}
