/* amo.c: atomic latency from PE 0 on one word of the target PE, 32-bit (int) and 64-bit (long):
 * fetch_add, add + quiet, compare_swap (always succeeding), swap, fetch; and the rate of the
 * specification's session example, with and without a batch session. Rows are named
 * OP32/OP64 so that -o can run one that crashes a runtime (cswap32) on its own. */
#include "bench.h"

#define XOR_WORDS 1024 /* the table of the specification's session example */

typedef struct amo_arg {
    int *x32; /* symmetric */
    long *x64;
    uint64_t *table; /* symmetric, XOR_WORDS */
    int npes;
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

/* The specification's session example (shmem_ctx_session_start): PE 0 xors a random value into
 * a random word of a 1024-word table on a random PE, n times, then one quiet; xor_session does
 * the same inside a SHMEM_CTX_SESSION_BATCH session, where the runtime has sessions. */
static unsigned long xor_seed = 1;

static unsigned long xor_rand(void)
{
    xor_seed = xor_seed * 6364136223846793005UL + 1442695040888963407UL;
    return xor_seed >> 33;
}

static void xor_updates(const amo_arg_t *a, long n)
{
    for (long i = 0; i < n; i++) {
        uint64_t v = xor_rand();
        size_t w = xor_rand() % XOR_WORDS;

        shmem_uint64_atomic_xor(&a->table[w], v, (int)(xor_rand() % (unsigned long)a->npes));
    }
    shmem_quiet();
}

static void xor_random(void *arg, long n)
{
    if (((amo_arg_t *)arg)->me == 0) {
        xor_updates(arg, n);
    }
}

#ifdef SHMEM_CTX_SESSION_BATCH
static void xor_session(void *arg, long n)
{
    if (((amo_arg_t *)arg)->me == 0) {
        shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, NULL, 0);
        xor_updates(arg, n);
        shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
    }
}
#endif

static const char *const notes[] = {
    "fetch_add, compare_swap, swap, fetch: one blocking AMO per iteration",
    "add = shmem_*_atomic_add + shmem_quiet; compare_swap always succeeds",
    "32 = int, 64 = long; PE 0 on one word of the target PE",
    "xor_random: uint64 xor into a random word of 1024 on a random PE, one quiet per batch;",
    "xor_session: the same in a SHMEM_CTX_SESSION_BATCH session (the spec's session example;",
    "-n 20000 or more gives a batch the example's scale, where updates to one word combine)",
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
        {"fetch_add32", 4, fadd32},
        {"fetch_add64", 8, fadd64},
        {"add32", 4, add32},
        {"add64", 8, add64},
        {"cswap32", 4, cswap32},
        {"cswap64", 8, cswap64},
        {"swap32", 4, swap32},
        {"swap64", 8, swap64},
        {"fetch32", 4, fetch32},
        {"fetch64", 8, fetch64},
        {"xor_random", 8, xor_random},
#ifdef SHMEM_CTX_SESSION_BATCH
        {"xor_session", 8, xor_session},
#endif
    };

    shmem_init();
    bench_opts_parse(&o, argc, argv, "4,8", "Atomic memory operation latency, 32 and 64 bits.");
    amo_arg_t a = {0};
    a.me = shmem_my_pe();
    a.pe = o.pe >= 0 ? o.pe : (shmem_n_pes() > 1 ? 1 : 0);
    a.x32 = shmem_malloc(sizeof(int));
    a.x64 = shmem_malloc(sizeof(long));
    a.table = shmem_calloc(XOR_WORDS, sizeof(uint64_t));
    a.npes = shmem_n_pes();
    if (a.x32 == NULL || a.x64 == NULL || a.table == NULL) {
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
    shmem_free(a.table);
    shmem_finalize();
    return 0;
}
