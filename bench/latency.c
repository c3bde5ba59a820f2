/* latency.c: blocking RMA latency from PE 0 to one target PE: shmem_putmem + shmem_quiet,
 * shmem_getmem, shmem_long_p + shmem_quiet, shmem_long_g, and 8-byte put/get on a static
 * (non-heap) variable. The target PE only waits in barriers; nothing here checks data. */
#include "bench.h"

static long global_var; /* static data: symmetric, but not on the heap */

typedef struct lat_arg {
    char *remote; /* symmetric address on the target */
    char *local;  /* private buffer */
    size_t size;
    int pe;
    int me;
} lat_arg_t;

static volatile long sink;

static void do_put(void *arg, long n)
{
    const lat_arg_t a = *(lat_arg_t *)arg; /* locals: the loop reloads nothing */

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        shmem_putmem(a.remote, a.local, a.size, a.pe);
        shmem_quiet();
    }
}

static void do_get(void *arg, long n)
{
    const lat_arg_t a = *(lat_arg_t *)arg; /* locals: the loop reloads nothing */

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        shmem_getmem(a.local, a.remote, a.size, a.pe);
    }
}

static void do_p(void *arg, long n)
{
    const lat_arg_t a = *(lat_arg_t *)arg; /* locals: the loop reloads nothing */

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        shmem_long_p((long *)a.remote, i, a.pe);
        shmem_quiet();
    }
}

static void do_g(void *arg, long n)
{
    const lat_arg_t a = *(lat_arg_t *)arg; /* locals: the loop reloads nothing */
    long s = 0;

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        s += shmem_long_g((long *)a.remote, a.pe);
    }
    sink = s;
}

static const char *const notes[] = {
    "put = shmem_putmem + shmem_quiet per iteration (a completed put: a round trip off-node)",
    "get = shmem_getmem; p = shmem_long_p + shmem_quiet; g = shmem_long_g",
    "put_global/get_global = 8-byte putmem (+ quiet) / getmem on a static, non-heap variable",
    "times are per iteration, issued by PE 0 to the target PE; median/min/max over repetitions",
    NULL,
};

int main(int argc, char **argv)
{
    bench_opts_t o;

    shmem_init();
    bench_opts_parse(&o, argc, argv, "8:4M", "Blocking RMA latency (put, get, p, g, globals).");
    lat_arg_t a = {0};
    a.me = shmem_my_pe();
    a.pe = o.pe >= 0 ? o.pe : (shmem_n_pes() > 1 ? 1 : 0);
    size_t max = bench_max_size(&o);
    a.remote = bench_shmalloc(max < 8 ? 8 : max);
    a.local = bench_alloc(max < 8 ? 8 : max);
    bench_header(&o, "latency", notes);

    static const struct {
        const char *name;
        bench_fn_t fn;
    } sized[] = {{"put", do_put}, {"get", do_get}};
    for (size_t k = 0; k < sizeof(sized) / sizeof(sized[0]); k++) {
        for (int i = 0; i < o.nsizes; i++) {
            bench_row_t row = {sized[k].name, o.sizes[i], 1, 0, NULL};
            if (bench_want(&o, row.name, row.size)) {
                a.size = row.size;
                bench_run(&o, &row, sized[k].fn, &a);
            }
        }
    }
    bench_row_t prow = {"p", sizeof(long), 1, 0, NULL};
    if (bench_want(&o, prow.name, prow.size)) {
        bench_run(&o, &prow, do_p, &a);
    }
    bench_row_t grow = {"g", sizeof(long), 1, 0, NULL};
    if (bench_want(&o, grow.name, grow.size)) {
        bench_run(&o, &grow, do_g, &a);
    }

    lat_arg_t ga = a;
    ga.remote = (char *)&global_var;
    ga.size = sizeof(global_var);
    bench_row_t pg = {"put_global", sizeof(long), 1, 0, NULL};
    if (bench_want(&o, pg.name, pg.size)) {
        bench_run(&o, &pg, do_put, &ga);
    }
    bench_row_t gg = {"get_global", sizeof(long), 1, 0, NULL};
    if (bench_want(&o, gg.name, gg.size)) {
        bench_run(&o, &gg, do_get, &ga);
    }

    bench_end(&o);
    shmem_barrier_all();
    shmem_free(a.remote);
    free(a.local);
    shmem_finalize();
    return 0;
}
