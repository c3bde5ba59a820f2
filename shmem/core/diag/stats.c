/* Run statistics (SHOAL_STATS): each thread counts into a block of its own, which
 * only it writes; shmem_finalize sums the blocks, publishes the sums through the
 * launcher before its fence, and after it PE 0 fetches every PE's and prints the
 * job's (and, at 2, each PE's) to stderr. Never touches the direct path, and never
 * uses a team collective at finalize: a PE still in one would take the other PEs'
 * arrivals as its own (see init.c). */
#include "shoal_log.h"
#include "shoal_rt.h"
#include "shoal_stats.h"
#include "shoal_status.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STATS_KEY "shoal.stats"
#define STATS_VERSION 1
#define NESTED 1 /* shoal_stats_coll_start inside a collective: no clock */

enum { PATH_LOAD_STORE, PATH_UCX, PATHS };

static const char *const op_names[SHOAL_STATS_OPS] = {"puts", "gets", "AMOs", "puts with signal"};
static const char *const coll_names[SHOAL_STATS_COLLS] = {
    "barrier", "broadcast", "collect", "alltoall", "reduce", "argument check"};

typedef struct counts {
    uint64_t ops[SHOAL_STATS_OPS][PATHS];
    uint64_t bytes[SHOAL_STATS_OPS][PATHS];
    uint64_t waits, wait_ns, tests;
    uint64_t coll_calls[SHOAL_STATS_COLLS], coll_ns[SHOAL_STATS_COLLS];
} counts_t;

#define COUNT_WORDS (sizeof(counts_t) / sizeof(uint64_t))

/* A thread's counters. Its thread updates them with relaxed loads and stores
 * (plain moves: no locked instruction), finalize reads them with relaxed loads.
 * Blocks outlive their threads, so that finalize counts what a thread did before
 * it ended. */
typedef struct block {
    counts_t c;
    struct block *next;
} block_t;

/* What each PE publishes at finalize. */
typedef struct blob {
    uint32_t version;
    uint32_t pe;
    uint64_t run_ns, heap_high, heap_own, heap_size;
    uint64_t lost; /* some of its counts went to lost_block */
    counts_t c;
} blob_t;

int shoal_stats_level;

static block_t *blocks; /* every thread's, under blocks_lock */
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
/* Where a thread whose block could not be allocated counts: read by nobody. */
static block_t lost_block;
static int lost; /* some thread counts into lost_block: the report says so */
/* One thread-local look-up per hook: the thread's block (NULL until its first
 * count), and how deep it is in spans (collectives, a put with signal) whose own
 * operations are counted as part of them. */
static __thread struct {
    block_t *block;
    int held;
} me;
static uint64_t start_ns, heap_own;
static int reported_level; /* SHOAL_STATS, kept after counting stops */
static blob_t own;

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static block_t *block_create(void)
{
    block_t *b = calloc(1, sizeof(*b));

    if (b == NULL) {
        __atomic_store_n(&lost, 1, __ATOMIC_RELAXED);
        return &lost_block;
    }
    pthread_mutex_lock(&blocks_lock);
    b->next = blocks;
    blocks = b;
    pthread_mutex_unlock(&blocks_lock);
    return b;
}

static inline block_t *my_block(void)
{
    if (__builtin_expect(me.block == NULL, 0))
        me.block = block_create();
    return me.block;
}

/* Only this thread writes word (lost_block aside, whose value nobody reads). */
static inline void add(uint64_t *word, uint64_t v)
{
    __atomic_store_n(word, __atomic_load_n(word, __ATOMIC_RELAXED) + v, __ATOMIC_RELAXED);
}

/* Cost: a thread-local look-up and two adds without a lock prefix (about 50
 * instructions with the call). */
void shoal_stats_op_count(int kind, const shoal_transport_ops_t *ops, size_t bytes)
{
    /* By capability, never by comparing tables: a transport whose operations are
     * messages is UCX; the other one loads and stores in a mapping. */
    int path = (ops->caps & SHOAL_CAP_MESSAGES) ? PATH_UCX : PATH_LOAD_STORE;
    block_t *b;

    if (me.held > 0)
        return;
    b = my_block();
    add(&b->c.ops[kind][path], 1);
    add(&b->c.bytes[kind][path], bytes);
}

void shoal_stats_signal_count(const shoal_transport_ops_t *ops, size_t bytes)
{
    shoal_stats_op_count(SHOAL_STATS_SIGNAL, ops, bytes);
    me.held++;
}

void shoal_stats_release(void)
{
    me.held--;
}

uint64_t shoal_stats_coll_start(void)
{
    return me.held++ == 0 ? now_ns() : NESTED;
}

void shoal_stats_coll_count(int coll, uint64_t start)
{
    block_t *b;

    me.held--;
    if (start == NESTED)
        return;
    b = my_block();
    add(&b->c.coll_calls[coll], 1);
    add(&b->c.coll_ns[coll], now_ns() - start);
}

uint64_t shoal_stats_wait_start(int block)
{
    block_t *b = my_block();

    add(block ? &b->c.waits : &b->c.tests, 1);
    return block ? now_ns() : 0;
}

void shoal_stats_wait_count(uint64_t *since)
{
    uint64_t now = now_ns();

    add(&my_block()->c.wait_ns, now - *since);
    *since = now;
}

void shoal_stats_setup(int level, size_t heap_in_use)
{
    if (level == 0)
        return;
    start_ns = now_ns();
    heap_own = heap_in_use; /* the team slots */
    reported_level = level;
    __atomic_store_n(&shoal_stats_level, reported_level, __ATOMIC_RELAXED);
}

void shoal_stats_publish(int my_pe, size_t heap_high, size_t heap_size)
{
    const block_t *b;
    size_t i;

    if (reported_level == 0)
        return;
    __atomic_store_n(&shoal_stats_level, 0, __ATOMIC_RELAXED);
    own.version = STATS_VERSION;
    own.pe = (uint32_t)my_pe;
    own.run_ns = now_ns() - start_ns;
    own.heap_high = heap_high;
    own.heap_own = heap_own;
    own.heap_size = heap_size;
    own.lost = (uint64_t)__atomic_load_n(&lost, __ATOMIC_RELAXED);
    pthread_mutex_lock(&blocks_lock);
    for (b = blocks; b != NULL; b = b->next)
        for (i = 0; i < COUNT_WORDS; i++)
            ((uint64_t *)&own.c)[i] +=
                __atomic_load_n(&((const uint64_t *)&b->c)[i], __ATOMIC_RELAXED);
    pthread_mutex_unlock(&blocks_lock);
    /* Committed only: a fence of its own here would hang where a PE has
     * SHOAL_STATS unset. The finalize fence, which every PE makes and which
     * collects data (shoal_rt_barrier), carries it; PE 0 fetches each after it.
     * On failure (said why), PE 0 reports this PE as missing. */
    if (shoal_rt_publish(STATS_KEY, &own, sizeof(own)) == SHOAL_OK)
        shoal_rt_commit();
}

/* ---------------------------------------------------------------- the printout */

static const char *bytes_text(char *buf, size_t len, uint64_t b)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
    double v = (double)b / 1024;
    int u = 0;

    if (b < 10000) {
        snprintf(buf, len, "%llu B", (unsigned long long)b);
        return buf;
    }
    while (v >= 1024 && u < 3) {
        v /= 1024;
        u++;
    }
    snprintf(buf, len, "%.1f %s = %llu B", v, units[u], (unsigned long long)b);
    return buf;
}

static const char *time_text(char *buf, size_t len, uint64_t ns)
{
    if (ns < 10000000000u)
        snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
    else
        snprintf(buf, len, "%.3f s", (double)ns / 1e9);
    return buf;
}

/* "20 (2000 B) load/store", "0 UCX" */
static void path_text(FILE *f, const counts_t *c, int kind, int path)
{
    static const char *const names[PATHS] = {"load/store", "UCX"};
    char b[48];

    if (c->ops[kind][path] == 0)
        fprintf(f, "0 %s", names[path]);
    else
        fprintf(f, "%llu (%s) %s", (unsigned long long)c->ops[kind][path],
                bytes_text(b, sizeof(b), c->bytes[kind][path]), names[path]);
}

/* "puts 20 (2000 B) load/store, 0 UCX" */
static void ops_text(FILE *f, const counts_t *c, int kind)
{
    fprintf(f, "%s ", op_names[kind]);
    path_text(f, c, kind, PATH_LOAD_STORE);
    fprintf(f, ", ");
    path_text(f, c, kind, PATH_UCX);
}

static void waits_text(FILE *f, const counts_t *c)
{
    char t[48];

    fprintf(f, "wait_until %llu call%s, %s waiting; test %llu call%s", (unsigned long long)c->waits,
            c->waits == 1 ? "" : "s", time_text(t, sizeof(t), c->wait_ns),
            (unsigned long long)c->tests, c->tests == 1 ? "" : "s");
}

/* The slowest PE of a collective is the one the others waited for: the one that
 * spent the least time in it (a PE that arrives last waits least, and the others'
 * time there is spent waiting for it). -1 when fewer than two PEs called it. */
static int slowest(const blob_t *all, const int *have, int n, int coll)
{
    int pe, best = -1, callers = 0;

    for (pe = 0; pe < n; pe++) {
        if (!have[pe] || all[pe].c.coll_calls[coll] == 0)
            continue;
        callers++;
        if (best < 0 || all[pe].c.coll_ns[coll] < all[best].c.coll_ns[coll])
            best = pe;
    }
    return callers >= 2 ? best : -1;
}

/* Collectives with calls, "; "-separated; with all set, each with its slowest PE. */
static void colls_text(FILE *f, const counts_t *c, const blob_t *all, const int *have, int n)
{
    char t[48];
    int k, any = 0;

    for (k = 0; k < SHOAL_STATS_COLLS; k++) {
        int slow = all != NULL ? slowest(all, have, n, k) : -1;

        if (c->coll_calls[k] == 0)
            continue;
        fprintf(f, "%s%s %llu call%s, %s", any ? "; " : "", coll_names[k],
                (unsigned long long)c->coll_calls[k], c->coll_calls[k] == 1 ? "" : "s",
                time_text(t, sizeof(t), c->coll_ns[k]));
        if (slow >= 0)
            fprintf(f, " (slowest PE %d)", slow);
        any = 1;
    }
    if (!any)
        fprintf(f, "no collectives");
}

static void pe_line(FILE *f, int pe, const blob_t *b)
{
    char h[48];
    int k;

    fprintf(f, "shoal stats: PE %d: ", pe);
    for (k = 0; k < SHOAL_STATS_OPS; k++) {
        ops_text(f, &b->c, k);
        fprintf(f, "; ");
    }
    waits_text(f, &b->c);
    fprintf(f, "; ");
    colls_text(f, &b->c, NULL, NULL, 0);
    fprintf(f, "; heap high-water %s\n", bytes_text(h, sizeof(h), b->heap_high));
}

static void print_report(FILE *f, const blob_t *all, const int *have, int n)
{
    counts_t sum = {0};
    uint64_t run_ns = 0;
    int pe, got = 0, high = -1, lost_on = -1;
    char t[48], h[48], s[48], o[48];
    size_t i;

    for (pe = 0; pe < n; pe++) {
        if (!have[pe])
            continue;
        got++;
        for (i = 0; i < COUNT_WORDS; i++)
            ((uint64_t *)&sum)[i] += ((const uint64_t *)&all[pe].c)[i];
        if (all[pe].run_ns > run_ns)
            run_ns = all[pe].run_ns;
        if (high < 0 || all[pe].heap_high > all[high].heap_high)
            high = pe;
        if (all[pe].lost && lost_on < 0)
            lost_on = pe;
    }
    fprintf(f, "shoal stats: %d PE%s, %s from shmem_init to shmem_finalize", n, n == 1 ? "" : "s",
            time_text(t, sizeof(t), run_ns));
    if (got < n)
        fprintf(f, "; %d published none (SHOAL_STATS unset there?); sums over the others\n",
                n - got);
    else
        fprintf(f, n > 1 ? "; sums over the PEs\n" : "\n");
    fprintf(f, "shoal stats: ");
    ops_text(f, &sum, SHOAL_STATS_PUT);
    fprintf(f, "; ");
    ops_text(f, &sum, SHOAL_STATS_GET);
    fprintf(f, "\nshoal stats: ");
    ops_text(f, &sum, SHOAL_STATS_AMO);
    fprintf(f, "; ");
    ops_text(f, &sum, SHOAL_STATS_SIGNAL);
    fprintf(f, "\nshoal stats: ");
    waits_text(f, &sum);
    fprintf(f, "\nshoal stats: ");
    colls_text(f, &sum, all, have, n);
    fprintf(f, "\nshoal stats: heap high-water %s of %s (PE %d; Shoal's own %s)\n",
            bytes_text(h, sizeof(h), all[high].heap_high),
            bytes_text(s, sizeof(s), all[high].heap_size), high,
            bytes_text(o, sizeof(o), all[high].heap_own));
    if (lost_on >= 0)
        fprintf(f, "shoal stats: counts missing: a thread of PE %d had no memory for them\n",
                lost_on);
    if (reported_level < 2)
        return;
    for (pe = 0; pe < n; pe++)
        if (have[pe])
            pe_line(f, pe, &all[pe]);
        else
            fprintf(f, "shoal stats: PE %d: none published\n", pe);
}

/* PE 0, after the fence that collected every PE's sums: read them, print. The
 * report is written whole, in one go, so that no other line splits it. */
void shoal_stats_report(int my_pe, int n_pes)
{
    int n = n_pes, pe;
    blob_t *all;
    int *have;
    char *text = NULL;
    size_t len = 0;
    FILE *f;

    if (reported_level == 0 || my_pe != 0)
        return;
    all = calloc((size_t)n, sizeof(*all));
    have = calloc((size_t)n, sizeof(*have));
    if (all == NULL || have == NULL)
        goto err_free;
    all[0] = own;
    have[0] = 1;
    shoal_log_mute(1); /* a PE that published none is said in the report */
    for (pe = 1; pe < n; pe++) {
        void *data;
        size_t size;

        if (shoal_rt_lookup(pe, STATS_KEY, &data, &size) != SHOAL_OK)
            continue;
        if (size == sizeof(blob_t) && ((blob_t *)data)->version == STATS_VERSION &&
            ((blob_t *)data)->pe == (uint32_t)pe) {
            memcpy(&all[pe], data, sizeof(blob_t));
            have[pe] = 1;
        }
        free(data);
    }
    shoal_log_mute(0);
    f = open_memstream(&text, &len);
    if (f == NULL)
        goto err_free;
    print_report(f, all, have, n);
    if (fclose(f) == 0) {
        fwrite(text, 1, len, stderr);
        fflush(stderr);
    }
    free(text);
err_free:
    free(have);
    free(all);
}
