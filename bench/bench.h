/* bench.h: what every Shoal microbenchmark shares: options, calibrated timing, statistics and
 * output (a table, or one "BENCH key=value ..." line per row with -m). Plain OpenSHMEM 1.4/1.5
 * C so the same sources build against any OpenSHMEM: never use a Shoal-only routine here. */
#ifndef SHOAL_BENCH_H
#define SHOAL_BENCH_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#endif

#ifndef BENCH_NO_SHMEM
#include <shmem.h>
#if defined(SHMEM_MAJOR_VERSION) && SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION >= 105
#define BENCH_SHMEM_15 1 /* teams, put-with-signal */
#else
#define BENCH_SHMEM_15 0
#endif
#endif

#define BENCH_MAX_SIZES 64
#define BENCH_MAX_REPS 1000

typedef struct bench_opts {
    int reps;         /* -r: timed repetitions per row */
    long iters;       /* -n: iterations per repetition; 0: calibrate to target_us */
    long warmup;      /* -w: untimed iterations first; -1: one repetition's worth */
    double target_us; /* -t: length of one calibrated repetition */
    int machine;      /* -m: BENCH lines instead of a table */
    int instr;        /* -i: user instructions per iteration (perf_event_open) */
    int pe;           /* -p: target PE; -1: the program's default */
    long window;      /* -W: outstanding operations per quiet (bandwidth) */
    int active_set;   /* -a: 1.4 active-set collectives even where teams exist */
    int fixed;        /* -F (1): collectives with a fixed root and a barrier after each call,
                       * time averaged over every PE; -C (2): the same, but only the call
                       * itself timed, the barrier not (OSU's OpenSHMEM benchmarks' way) */
    const char *only; /* -o: comma-separated row names */
    size_t sizes[BENCH_MAX_SIZES];
    int nsizes;
} bench_opts_t;

/* One row of results; size 0 means the row has no message size. ops_per_iter divides an
 * iteration's time (a window of nbi operations, or 2 for a ping-pong's half round trip). */
typedef struct bench_row {
    const char *name;
    size_t size;
    long ops_per_iter;
    int bw;           /* print bandwidth (size / time) and rate */
    const char *note; /* extra "key=value" text for the BENCH line, or NULL */
} bench_row_t;

typedef void (*bench_fn_t)(void *arg, long n);

/* The measured call, kept out of line so that callgrind --toggle-collect=bench_timed counts
 * exactly the benchmark's loop and perf counts nothing else. */
void bench_timed(bench_fn_t fn, void *arg, long n);
__attribute__((noinline)) void bench_timed(bench_fn_t fn, void *arg, long n)
{
    fn(arg, n);
    __asm__ __volatile__("" ::: "memory");
}

static inline double bench_now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

/* ---- the SHMEM side: who measures, and how PE 0 tells the others what it decided ---- */
#ifndef BENCH_NO_SHMEM
static long bench_ctl; /* static data is symmetric */

static inline int bench_me(void)
{
    return shmem_my_pe();
}

static inline void bench_sync(void)
{
    shmem_barrier_all();
}

/* Collective: PE 0's value reaches every PE. Callers start each round with a barrier, so no
 * PE can still be reading the previous value when PE 0 writes the next one. */
static inline long bench_share(long v)
{
    if (shmem_my_pe() == 0) {
        for (int pe = 1; pe < shmem_n_pes(); pe++) {
            shmem_long_p(&bench_ctl, v, pe);
        }
        bench_ctl = v;
    }
    shmem_barrier_all();
    return bench_ctl;
}

static inline int bench_npes(void)
{
    return shmem_n_pes();
}
#else
static inline int bench_me(void)
{
    return 0;
}

static inline void bench_sync(void)
{
}

static inline long bench_share(long v)
{
    return v;
}

static inline int bench_npes(void)
{
    return 1;
}
#endif

/* ---- options ---- */
static inline size_t bench_parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);

    switch (*end) {
    case 'k':
    case 'K':
        v *= 1024;
        end++;
        break;
    case 'm':
    case 'M':
        v *= 1024 * 1024;
        end++;
        break;
    case 'g':
    case 'G':
        v *= 1024.0 * 1024 * 1024;
        end++;
        break;
    default:
        break;
    }
    if (*end == 'B' || *end == 'b') {
        end++;
    }
    if (end == s || *end != '\0' || v < 0) {
        fprintf(stderr, "bench: bad size '%s' (a number with an optional K, M or G)\n", s);
        exit(2);
    }
    return (size_t)v;
}

/* -s MIN:MAX (powers of two from MIN) or -s A,B,C (exactly those) */
static inline void bench_parse_sizes(bench_opts_t *o, const char *arg)
{
    char buf[512];
    const char *colon = strchr(arg, ':');

    o->nsizes = 0;
    if (colon != NULL) {
        snprintf(buf, sizeof(buf), "%.*s", (int)(colon - arg), arg);
        size_t lo = bench_parse_size(buf), hi = bench_parse_size(colon + 1);
        for (size_t s = lo ? lo : 1; s <= hi && o->nsizes < BENCH_MAX_SIZES; s *= 2) {
            o->sizes[o->nsizes++] = s;
        }
        return;
    }
    snprintf(buf, sizeof(buf), "%s", arg);
    for (char *tok = strtok(buf, ","); tok && o->nsizes < BENCH_MAX_SIZES;
         tok = strtok(NULL, ",")) {
        o->sizes[o->nsizes++] = bench_parse_size(tok);
    }
}

static inline void bench_usage(const char *prog, const char *what)
{
    printf("Usage: %s [options]\n%s\n"
           "  -r REPS        timed repetitions per row (default 11); median, min, max over them\n"
           "  -n ITERS       iterations per repetition (default: calibrated to -t)\n"
           "  -t US          length of a calibrated repetition in microseconds (default 1000)\n"
           "  -w ITERS       untimed warm-up iterations (default: one repetition)\n"
           "  -s MIN:MAX     sizes, powers of two from MIN to MAX; or -s A,B,C (K, M, G suffixes)\n"
           "  -o NAME,...    only these rows\n"
           "  -p PE          target PE (default 1)\n"
           "  -W N           outstanding operations per quiet (bandwidth; default 64)\n"
           "  -a             1.4 active-set collectives even where 1.5 teams exist\n"
           "  -F             collectives: root PE 0, a barrier after every call, the time\n"
           "                 averaged over all PEs (as public OpenSHMEM micro-benchmarks)\n"
           "  -C             as -F, but only the call is timed, not the barrier after it\n"
           "                 (as OSU's OpenSHMEM benchmarks time collectives)\n"
           "  -i             user-space instructions per iteration (perf_event_open)\n"
           "  -m             machine-readable lines: BENCH name=... size=... median_us=...\n",
           prog, what);
}

/* defaults: the program's size list, then the command line */
static inline void bench_opts_parse(bench_opts_t *o, int argc, char **argv, const char *def_sizes,
                                    const char *what)
{
    int c;

    memset(o, 0, sizeof(*o));
    o->reps = 11;
    o->warmup = -1;
    o->target_us = 1000;
    o->pe = -1;
    o->window = 64;
    bench_parse_sizes(o, def_sizes);
    while ((c = getopt(argc, argv, "r:n:t:w:s:o:p:W:aFCimh")) != -1) {
        switch (c) {
        case 'r':
            o->reps = atoi(optarg);
            break;
        case 'n':
            o->iters = atol(optarg);
            break;
        case 't':
            o->target_us = atof(optarg);
            break;
        case 'w':
            o->warmup = atol(optarg);
            break;
        case 's':
            bench_parse_sizes(o, optarg);
            break;
        case 'o':
            o->only = optarg;
            break;
        case 'p':
            o->pe = atoi(optarg);
            break;
        case 'W':
            o->window = atol(optarg);
            break;
        case 'a':
            o->active_set = 1;
            break;
        case 'F':
            o->fixed = 1;
            break;
        case 'C':
            o->fixed = 2;
            break;
        case 'i':
            o->instr = 1;
            break;
        case 'm':
            o->machine = 1;
            break;
        case 'h':
            bench_usage(argv[0], what);
            exit(0);
        default:
            bench_usage(argv[0], what);
            exit(2);
        }
    }
    if (o->reps < 1 || o->reps > BENCH_MAX_REPS || o->iters < 0 || o->window < 1 ||
        o->target_us <= 0 || o->nsizes == 0) {
        fprintf(stderr, "%s: bad option value (-r 1..%d, -n >= 0, -W >= 1, -t > 0, -s)\n", argv[0],
                BENCH_MAX_REPS);
        exit(2);
    }
}

/* Is row NAME wanted, at SIZE (0: a row without a size, never filtered by -s)? */
static inline int bench_want(const bench_opts_t *o, const char *name, size_t size)
{
    int size_ok = (size == 0);

    for (int i = 0; i < o->nsizes && !size_ok; i++) {
        size_ok = (o->sizes[i] == size);
    }
    if (o->only == NULL) {
        return size_ok;
    }
    size_t len = strlen(name);
    for (const char *p = o->only; (p = strstr(p, name)) != NULL; p += len) {
        if ((p == o->only || p[-1] == ',') && (p[len] == ',' || p[len] == '\0')) {
            return size_ok;
        }
    }
    return 0;
}

/* ---- output ---- */
static inline void bench_size_str(size_t s, char *buf, size_t len)
{
    if (s >= (1u << 20) && s % (1u << 20) == 0) {
        snprintf(buf, len, "%zuM", s >> 20);
    } else if (s >= 1024 && s % 1024 == 0) {
        snprintf(buf, len, "%zuK", s >> 10);
    } else {
        snprintf(buf, len, "%zu", s);
    }
}

/* Human mode: a header; both modes: the lines that say what a row measures. */
static inline void bench_header(const bench_opts_t *o, const char *title, const char *const *notes)
{
    if (bench_me() != 0) {
        return;
    }
    printf("# %s, %d PE%s, pid=%ld\n", title, bench_npes(), bench_npes() == 1 ? "" : "s",
           (long)getpid());
    for (int i = 0; notes != NULL && notes[i] != NULL; i++) {
        printf("# %s\n", notes[i]);
    }
    if (!o->machine) {
        printf("%-18s %8s %12s %12s %12s %12s %12s\n", "name", "size", "median_us", "min_us",
               "max_us", "MB/s", "Mops/s");
    }
    fflush(stdout);
}

/* Machine mode: the last line a run prints before finalize, so a crash after it is told
 * apart from a crash during the measurements. */
static inline void bench_end(const bench_opts_t *o)
{
    if (bench_me() == 0 && o->machine) {
        printf("BENCH_END\n");
        fflush(stdout);
    }
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static inline void bench_print(const bench_opts_t *o, const bench_row_t *row, double *t, long n,
                               double instr)
{
    char sz[32], extra[160] = "";
    int r = o->reps;

    qsort(t, (size_t)r, sizeof(*t), bench_cmp_double);
    double med = (r % 2) ? t[r / 2] : (t[r / 2 - 1] + t[r / 2]) / 2;
    if (o->machine) {
        int k = 0;
        if (row->bw && med > 0) {
            k += snprintf(extra + k, sizeof(extra) - (size_t)k, " bw_MBps=%.1f rate_Mops=%.4f",
                          (double)row->size / med, 1.0 / med);
        }
        if (o->instr && instr >= 0) {
            k += snprintf(extra + k, sizeof(extra) - (size_t)k, " instr=%.1f", instr);
        } else if (o->instr) {
            k += snprintf(extra + k, sizeof(extra) - (size_t)k, " instr=unavailable");
        }
        printf("BENCH name=%s size=%zu median_us=%.4f min_us=%.4f max_us=%.4f pes=%d iters=%ld "
               "reps=%d%s%s%s\n",
               row->name, row->size, med, t[0], t[r - 1], bench_npes(), n, r, extra,
               row->note ? " " : "", row->note ? row->note : "");
    } else {
        bench_size_str(row->size, sz, sizeof(sz));
        printf("%-18s %8s %12.4f %12.4f %12.4f", row->name, row->size ? sz : "-", med, t[0],
               t[r - 1]);
        if (row->bw && med > 0) {
            printf(" %12.1f %12.3f", (double)row->size / med, 1.0 / med);
        }
        if (o->instr) {
            printf(instr >= 0 ? "  instr=%.1f" : "  instr=unavailable", instr);
        }
        printf("%s%s\n", row->note ? "  " : "", row->note ? row->note : "");
    }
    fflush(stdout);
}

/* ---- instruction counting: the counter perf stat -e instructions:u reads, around the loop ---- */
static inline int bench_icount_open(void)
{
#ifdef __linux__
    struct perf_event_attr pa;

    memset(&pa, 0, sizeof(pa));
    pa.type = PERF_TYPE_HARDWARE;
    pa.size = sizeof(pa);
    pa.config = PERF_COUNT_HW_INSTRUCTIONS;
    pa.disabled = 1;
    pa.exclude_kernel = 1;
    pa.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0);
#else
    return -1;
#endif
}

/* ---- the driver ---- */

/* Time a loop adds up itself (-C: each call, not the barrier after it); -1 while none. */
static double bench_inner_us = -1;

static inline void bench_inner_add(double us)
{
    bench_inner_us = (bench_inner_us < 0 ? 0 : bench_inner_us) + us;
}

static inline double bench_round(bench_fn_t fn, void *arg, long n, int fd, long long *count)
{
    double t0, t1;

    bench_sync();
    bench_inner_us = -1;
    t0 = bench_now_us();
#ifdef __linux__
    if (fd >= 0) {
        ioctl(fd, PERF_EVENT_IOC_RESET, 0);
        ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    }
#endif
    bench_timed(fn, arg, n);
#ifdef __linux__
    if (fd >= 0) {
        long long c = 0;
        ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
        if (read(fd, &c, sizeof(c)) == (ssize_t)sizeof(c)) {
            *count += c;
        }
    }
#endif
    t1 = bench_now_us();
    return bench_inner_us >= 0 ? bench_inner_us : t1 - t0;
}

#ifndef BENCH_NO_SHMEM
/* -F: each repetition's time becomes the mean over every PE (on PE 0, which prints),
 * through puts into PE 0's table and a barrier: 1.4 calls only, so the peer runs it too. */
static inline void bench_average_over_pes(double *t, int reps)
{
    static double *all;
    int npes = shmem_n_pes();

    if (all == NULL) {
        all = shmem_malloc((size_t)npes * BENCH_MAX_REPS * sizeof(double));
        if (all == NULL) {
            fprintf(stderr, "bench: shmem_malloc for -F failed on PE %d\n", shmem_my_pe());
            shmem_global_exit(1);
        }
    }
    shmem_putmem(all + (size_t)shmem_my_pe() * BENCH_MAX_REPS, t, (size_t)reps * sizeof(double), 0);
    shmem_barrier_all();
    if (shmem_my_pe() == 0) {
        for (int r = 0; r < reps; r++) {
            double sum = 0;
            for (int pe = 0; pe < npes; pe++) {
                sum += all[(size_t)pe * BENCH_MAX_REPS + r];
            }
            t[r] = sum / npes;
        }
    }
    shmem_barrier_all(); /* PE 0 has read the table before the next row writes it */
}
#endif

/* Collective over all PEs: calibrate (PE 0 decides, the others follow), warm up, time
 * o->reps repetitions of n iterations, print PE 0's median, min and max per operation. */
static inline void bench_run(const bench_opts_t *o, const bench_row_t *row, bench_fn_t fn,
                             void *arg)
{
    double t[BENCH_MAX_REPS];
    double ops = row->ops_per_iter > 0 ? (double)row->ops_per_iter : 1;
    long n = o->iters;
    long long count = 0;
    int fd = -1;

    if (n == 0) {
        /* Grow n until a round takes half the target, then scale to the target. A short n is
         * measured twice before it is trusted: one preempted round must not set n to 1. */
        int confirmed = 0;
        double prev = -1;
        for (long next = 1; next > 0;) {
            long v, was = n;
            n = next;
            double us = bench_round(fn, arg, n, -1, &count);
            if (n == was && prev >= 0 && prev < us) {
                us = prev;
            }
            prev = us;
            if ((us >= o->target_us / 2 && (confirmed || n >= 1000)) || n >= (1L << 30)) {
                v = -(long)((double)n * o->target_us / (us > 0 ? us : 1) + 0.5);
                v = v < -1 ? v : -1;
            } else if (us >= o->target_us / 2) {
                confirmed = 1;
                v = n; /* once more at the same n */
            } else {
                double f = us > 0 ? o->target_us / us : 16;
                v = (long)((double)n * (f < 2 ? 2 : f > 16 ? 16 : f));
            }
            next = bench_share(v);
            n = next > 0 ? n : -next;
        }
    }
    long warm = o->warmup < 0 ? n : o->warmup;
    if (warm > 0) {
        bench_round(fn, arg, warm, -1, &count);
    }
    if (o->instr && bench_me() == 0) {
        fd = bench_icount_open();
    }
    for (int r = 0; r < o->reps; r++) {
        t[r] = bench_round(fn, arg, n, fd, &count) / (double)n / ops;
    }
    bench_sync();
#ifndef BENCH_NO_SHMEM
    if (o->fixed) {
        bench_average_over_pes(t, o->reps);
    }
#endif
    if (fd >= 0) {
        close(fd);
    }
    if (bench_me() == 0) {
        double instr = fd >= 0 ? (double)count / (double)n / o->reps : -1;
        bench_print(o, row, t, n, instr);
    }
}

/* Symmetric heap allocation or a clear message: a benchmark never runs on a NULL buffer. */
#ifndef BENCH_NO_SHMEM
static inline void *bench_shmalloc(size_t size)
{
    void *p = shmem_malloc(size ? size : 1);

    if (p == NULL) {
        fprintf(stderr, "bench: shmem_malloc(%zu) failed on PE %d (raise SHMEM_SYMMETRIC_SIZE)\n",
                size, shmem_my_pe());
        shmem_global_exit(1);
    }
    memset(p, 1, size);
    return p;
}
#endif

static inline void *bench_alloc(size_t size)
{
    void *p = NULL;

    if (posix_memalign(&p, 4096, size ? size : 1) != 0) {
        fprintf(stderr, "bench: cannot allocate %zu bytes\n", size);
        exit(1);
    }
    memset(p, 2, size);
    return p;
}

static inline size_t bench_max_size(const bench_opts_t *o)
{
    size_t m = 0;

    for (int i = 0; i < o->nsizes; i++) {
        m = o->sizes[i] > m ? o->sizes[i] : m;
    }
    return m;
}

#endif
