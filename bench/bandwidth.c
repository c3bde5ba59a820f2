/* bandwidth.c: bandwidth and message rate of shmem_putmem_nbi / shmem_getmem_nbi from PE 0 to
 * one target PE: a window of outstanding operations on the same buffers, then shmem_quiet.
 * Time per operation = time per window / window; the target PE only waits in barriers. */
#include "bench.h"

typedef struct bw_arg {
    char *remote;
    char *local;
    size_t size;
    long window;
    int pe;
    int me;
} bw_arg_t;

static void do_put_nbi(void *arg, long n)
{
    const bw_arg_t a = *(bw_arg_t *)arg; /* locals: the loop reloads nothing */

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        for (long w = 0; w < a.window; w++) {
            shmem_putmem_nbi(a.remote, a.local, a.size, a.pe);
        }
        shmem_quiet();
    }
}

static void do_get_nbi(void *arg, long n)
{
    const bw_arg_t a = *(bw_arg_t *)arg; /* locals: the loop reloads nothing */

    if (a.me != 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        for (long w = 0; w < a.window; w++) {
            shmem_getmem_nbi(a.local, a.remote, a.size, a.pe);
        }
        shmem_quiet();
    }
}

static const char *const notes[] = {
    "put_bw = window x shmem_putmem_nbi + shmem_quiet; get_bw = the same with shmem_getmem_nbi",
    "window = -W operations, fewer for large sizes (at most 16 MiB in flight, at least 1)",
    "median_us is per operation (window time / window); MB/s = size / median; Mops/s = 1 / median",
    NULL,
};

int main(int argc, char **argv)
{
    bench_opts_t o;
    char note[64];

    shmem_init();
    bench_opts_parse(&o, argc, argv, "8:4M",
                     "Bandwidth and message rate of putmem_nbi/getmem_nbi.");
    bw_arg_t a = {0};
    a.me = shmem_my_pe();
    a.pe = o.pe >= 0 ? o.pe : (shmem_n_pes() > 1 ? 1 : 0);
    size_t max = bench_max_size(&o);
    a.remote = bench_shmalloc(max);
    a.local = bench_alloc(max);
    bench_header(&o, "bandwidth", notes);

    static const struct {
        const char *name;
        bench_fn_t fn;
    } rows[] = {{"put_bw", do_put_nbi}, {"get_bw", do_get_nbi}};
    for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
        for (int i = 0; i < o.nsizes; i++) {
            size_t s = o.sizes[i];
            long w = (long)((16u << 20) / (s ? s : 1));
            a.size = s;
            a.window = w < 1 ? 1 : w > o.window ? o.window : w;
            snprintf(note, sizeof(note), "window=%ld", a.window);
            bench_row_t row = {rows[k].name, s, a.window, 1, note};
            if (bench_want(&o, row.name, row.size)) {
                bench_run(&o, &row, rows[k].fn, &a);
            }
        }
    }

    bench_end(&o);
    shmem_barrier_all();
    shmem_free(a.remote);
    free(a.local);
    shmem_finalize();
    return 0;
}
