/* amo.c: atomic latency from PE 0 on one word of the target PE, 32-bit (int) and 64-bit (long):
 * fetch_add, add + quiet, compare_swap (always succeeding), swap, fetch. Rows are named
 * OP32/OP64 so that -o can run one that crashes a runtime (cswap32) on its own. */
#include "bench.h"

typedef struct amo_arg {
    int *x32; /* symmetric */
    long *x64;
    int pe;
    int me;
} amo_arg_t;

static volatile long sink;
static int next32; /* the value the target holds, for compare_swap to succeed */
static long next64;

static void fadd32(void *arg, long n)
{
    const amo_arg_t a = *(amo_arg_t *)arg; /* locals: the loop reloads nothing */
    long s = 0;

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        s += shmem_int_atomic_fetch_add(a.x32, 1, a.pe);
    }
    sink = s;
}

static void fadd64(void *arg, long n)
{
    const amo_arg_t a = *(amo_arg_t *)arg; /* locals: the loop reloads nothing */
    long s = 0;

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        s += shmem_long_atomic_fetch_add(a.x64, 1, a.pe);
    }
    sink = s;
}

static void add32(void *arg, long n)
{
    const amo_arg_t a = *(amo_arg_t *)arg; /* locals: the loop reloads nothing */

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        shmem_int_atomic_add(a.x32, 1, a.pe);
        shmem_quiet();
    }
}

static void add64(void *arg, long n)
{
    const amo_arg_t a = *(amo_arg_t *)arg; /* locals: the loop reloads nothing */

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        shmem_long_atomic_add(a.x64, 1, a.pe);
        shmem_quiet();
    }
}

static void cswap32(void *arg, long n)
{
    const amo_arg_t a = *(amo_arg_t *)arg; /* locals: the loop reloads nothing */
    int v = next32;

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        int old = shmem_int_atomic_compare_swap(a.x32, v, v + 1, a.pe);
        v = old == v ? v + 1 : old;
    }
    next32 = v;
}

static void cswap64(void *arg, long n)
{
    const amo_arg_t a = *(amo_arg_t *)arg; /* locals: the loop reloads nothing */
    long v = next64;

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        long old = shmem_long_atomic_compare_swap(a.x64, v, v + 1, a.pe);
        v = old == v ? v + 1 : old;
    }
    next64 = v;
}

static void swap32(void *arg, long n)
{
    const amo_arg_t a = *(amo_arg_t *)arg; /* locals: the loop reloads nothing */
    long s = 0;

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        s += shmem_int_atomic_swap(a.x32, (int)i, a.pe);
    }
    sink = s;
}

static void swap64(void *arg, long n)
{
    const amo_arg_t a = *(amo_arg_t *)arg; /* locals: the loop reloads nothing */
    long s = 0;

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        s += shmem_long_atomic_swap(a.x64, i, a.pe);
    }
    sink = s;
}

static void fetch32(void *arg, long n)
{
    const amo_arg_t a = *(amo_arg_t *)arg; /* locals: the loop reloads nothing */
    long s = 0;

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        s += shmem_int_atomic_fetch(a.x32, a.pe);
    }
    sink = s;
}

static void fetch64(void *arg, long n)
{
    const amo_arg_t a = *(amo_arg_t *)arg; /* locals: the loop reloads nothing */
    long s = 0;

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        s += shmem_long_atomic_fetch(a.x64, a.pe);
    }
    sink = s;
}

static const char *const notes[] = {
    "fetch_add, compare_swap, swap, fetch: one blocking AMO per iteration",
    "add = shmem_*_atomic_add + shmem_quiet; compare_swap always succeeds",
    "32 = int, 64 = long; PE 0 on one word of the target PE",
    NULL,
};

int main(int argc, char **argv)
{
    bench_opts_t o;
    static const struct {
        const char *name;
        size_t size;
        bench_fn_t fn;
    } rows[] = {
        {"fetch_add32", 4, fadd32}, {"fetch_add64", 8, fadd64}, {"add32", 4, add32},
        {"add64", 8, add64},        {"cswap32", 4, cswap32},    {"cswap64", 8, cswap64},
        {"swap32", 4, swap32},      {"swap64", 8, swap64},      {"fetch32", 4, fetch32},
        {"fetch64", 8, fetch64},
    };

    shmem_init();
    bench_opts_parse(&o, argc, argv, "4,8", "Atomic memory operation latency, 32 and 64 bits.");
    amo_arg_t a = {0};
    a.me = shmem_my_pe();
    a.pe = o.pe >= 0 ? o.pe : (shmem_n_pes() > 1 ? 1 : 0);
    a.x32 = shmem_malloc(sizeof(int));
    a.x64 = shmem_malloc(sizeof(long));
    if (a.x32 == NULL || a.x64 == NULL) {
        fprintf(stderr, "amo: shmem_malloc failed\n");
        shmem_global_exit(1);
    }
    *a.x32 = 0;
    *a.x64 = 0;
    shmem_barrier_all();
    bench_header(&o, "amo", notes);

    for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
        bench_row_t row = {rows[k].name, rows[k].size, 1, 0, NULL};
        if (bench_want(&o, row.name, row.size)) {
            /* compare_swap starts from the value the target holds */
            if (a.me == 0 && rows[k].fn == cswap32) {
                next32 = shmem_int_atomic_fetch(a.x32, a.pe);
            } else if (a.me == 0 && rows[k].fn == cswap64) {
                next64 = shmem_long_atomic_fetch(a.x64, a.pe);
            }
            bench_run(&o, &row, rows[k].fn, &a);
        }
    }

    bench_end(&o);
    shmem_barrier_all();
    shmem_free(a.x32);
    shmem_free(a.x64);
    shmem_finalize();
    return 0;
}
