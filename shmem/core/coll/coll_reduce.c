/* The reduction algorithms (flat, recursive doubling, direct, ring) and the
 * choice among them; the arithmetic is reduce.c's. Operands are combined in index
 * order, never in arrival order, so that every PE gets the same bits. */
#include "shoal_coll_impl.h"
#include "shoal_stats.h"

#include <pthread.h>
#include <stdlib.h>

/* The reductions' and scans' two working arrays, kept by each thread from one
 * call to the next (grown, never shrunk, until shmem_finalize or the thread's
 * end). Allocated per call they came from mmap once past glibc's threshold and
 * were faulted in page by page on every call: a 512 KiB sum_reduce on 2 PEs took
 * 30 us at 256 KiB and 304 us at 512 KiB, with 192 page faults per call. */
typedef struct scratch {
    char *buf;
    size_t size;
} scratch_t;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_free(void *p)
{
    scratch_t *s = p;

    free(s->buf);
    free(s);
}

static void scratch_key_make(void)
{
    pthread_key_create(&scratch_key, scratch_free);
}

/* Two arrays of bytes + 1 each (room for a zero-size call), this thread's. */
static void scratch_get(size_t bytes, char **acc, char **in, const char *routine)
{
    scratch_t *s;
    size_t want = 2 * (bytes + 64);

    pthread_once(&scratch_once, scratch_key_make);
    s = pthread_getspecific(scratch_key);
    if (s == NULL && (s = calloc(1, sizeof(*s))) != NULL)
        pthread_setspecific(scratch_key, s);
    if (s != NULL && s->size < want) {
        free(s->buf);
        s->buf = malloc(want);
        s->size = s->buf != NULL ? want : 0;
    }
    if (s == NULL || s->buf == NULL)
        shoal_log_fatal("%s: out of memory for %zu bytes of reduction buffers", routine, want);
    *acc = s->buf;
    *in = s->buf + bytes + 64; /* its own cache lines */
}

void shoal_coll_scratch_cleanup(void)
{
    scratch_t *s;

    if (pthread_once(&scratch_once, scratch_key_make) != 0 ||
        (s = pthread_getspecific(scratch_key)) == NULL)
        return;
    pthread_setspecific(scratch_key, NULL);
    scratch_free(s);
}

static void combine(void *inout, const void *in, size_t count, shoal_red_op_t op, shoal_dt_t dt,
                    size_t elem_size, const char *routine)
{
    if (shoal_reduce_combine(inout, in, count, op, dt, elem_size) != SHOAL_OK)
        shoal_log_fatal("%s: this operator does not apply to %zu-byte elements of this kind",
                        routine, elem_size);
}

/* acc = the elements [lo, lo+count) of every PE's source combined in index order,
 * so every PE computes the same bits whatever the operator. */
static void reduce_block(const shoal_pset_t *ps, int sseg, size_t soff, size_t lo, size_t count,
                         shoal_red_op_t op, shoal_dt_t dt, size_t elem_size, char *acc, char *in,
                         const char *routine)
{
    size_t bytes = count * elem_size, at = soff + lo * elem_size;
    int i;

    for (i = 0; i < ps->size && bytes > 0; i++) {
        char *into = i == 0 ? acc : in;

        shoal_coll_get(ps, i, sseg, at, into, bytes, routine);
        if (i > 0)
            combine(acc, in, count, op, dt, elem_size, routine);
    }
}

/* Recursive doubling's counters: a "ready" one per round (a later round's partner
 * may signal before this round's has), one "done reading" (a PE only sends it to
 * the partner it has just read, and that partner takes it before exposing again),
 * and two for folding in the PEs beyond the largest power of two. */
#define RD_DONE (SHOAL_SYNC_ALGO + ALGO_RD_DONE)
#define RD_FOLD (SHOAL_SYNC_ALGO + ALGO_RD_FOLD)
#define RD_RESULT (SHOAL_SYNC_ALGO + ALGO_RD_RESULT)

/* The reduction algorithm for bytes per PE on n PEs: the setting, where it can
 * serve n, else the automatic choice. */
static int reduce_algo(size_t bytes, int n)
{
    int algo = shoal_core_state.settings.reduce_algo;
    int doubling_fits = n < 2 || 31 - __builtin_clz((unsigned)n) <= ALGO_ROUNDS;

    if ((algo == SHOAL_ALGO_FLAT && !shoal_coll_flat_fits(n)) ||
        (algo == SHOAL_ALGO_DOUBLING && !doubling_fits))
        algo = SHOAL_ALGO_AUTO;
    if (algo != SHOAL_ALGO_AUTO)
        return algo;
    if (bytes <= shoal_core_state.settings.coll_small && shoal_coll_flat_fits(n))
        return SHOAL_ALGO_FLAT;
    /* Two PEs included: each then combines half, where doubling combines all
     * (64 KiB on 2 PEs: 14 us against 44). */
    if (n > 1 && (bytes > shoal_core_state.settings.coll_small || !doubling_fits))
        return SHOAL_ALGO_RING;
    return SHOAL_ALGO_DOUBLING;
}

/* Recursive doubling over the largest power of two p <= n: in round k, index i
 * exposes its partial result in its dest, reads partner i ^ 2^k's, and combines
 * the lower index's value with the higher's, so both partners compute the same
 * bits. Indices p.. first hand their source to index - p and get the result back
 * at the end. dest is the only buffer others read; the counters say when it holds
 * what they want and when they are done with it. */
static void reduce_doubling(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                            size_t count, shoal_red_op_t op, shoal_dt_t dt, size_t elem_size,
                            char *acc, char *in, const char *routine)
{
    int n = ps->size, me = ps->me, p = 1, k, partner = -1;
    size_t bytes = count * elem_size;
    char *dest = shoal_coll_local(dseg, doff);

    while (p * 2 <= n)
        p *= 2;
    memcpy(acc, shoal_coll_local(sseg, soff), bytes);
    if (me >= p) {
        memcpy(dest, acc, bytes);
        shoal_coll_token_send(ps, me - p, RD_FOLD, routine);
        shoal_coll_token_take(ps, me - p, RD_RESULT, routine);
        shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, me - p), dseg, doff, dest, bytes, 0,
                       routine);
        return;
    }
    if (me + p < n) {
        shoal_coll_token_take(ps, me + p, RD_FOLD, routine);
        shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, me + p), dseg, doff, in, bytes, 0,
                       routine);
        combine(acc, in, count, op, dt, elem_size, routine);
    }
    for (k = 0; (1 << k) < p; k++) {
        if (partner >= 0)
            shoal_coll_token_take(ps, partner, RD_DONE, routine);
        partner = me ^ (1 << k);
        memcpy(dest, acc, bytes);
        shoal_coll_token_send(ps, partner, SHOAL_SYNC_ALGO + k, routine);
        shoal_coll_token_take(ps, partner, SHOAL_SYNC_ALGO + k, routine);
        shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, partner), dseg, doff, in, bytes, 0,
                       routine);
        shoal_coll_token_send(ps, partner, RD_DONE, routine);
        if (me < partner) {
            combine(acc, in, count, op, dt, elem_size, routine);
        } else {
            char *t = acc;

            combine(in, acc, count, op, dt, elem_size, routine);
            acc = in;
            in = t;
        }
    }
    if (partner >= 0)
        shoal_coll_token_take(ps, partner, RD_DONE, routine);
    memcpy(dest, acc, bytes);
    if (me + p < n)
        shoal_coll_token_send(ps, me + p, RD_RESULT, routine);
}

/* Small reduction on a team that spans nodes: every member pushes its source
 * into its exchange slot of every other member (shoal_coll_regions_fit, which a
 * slot fits as a region does), then combines
 * all the operands itself in index order, so every PE gets the same bits. One
 * one-way trip, where doubling took per round two hand-offs and a get's round
 * trip, then a barrier. Every operand is copied out at the push and dest is
 * written last, so dest may be the source, and no barrier is needed after. */
static void reduce_regions(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                           size_t count, shoal_red_op_t op, shoal_dt_t dt, size_t elem_size,
                           char *acc, char *in, const char *routine)
{
    size_t bytes = count * elem_size;
    const char *src = shoal_coll_local(sseg, soff);
    unsigned turn = shoal_coll_xchg_push(ps, src, 0, bytes, NULL, 0, routine);
    int i;

    for (i = 0; i < ps->size; i++) {
        char *to = i == 0 ? acc : in;

        if (i == ps->me)
            memcpy(to, src, bytes);
        else
            shoal_coll_xchg_take(ps, i, turn, to, bytes, routine);
        if (i > 0)
            combine(acc, in, count, op, dt, elem_size, routine);
    }
    memcpy(shoal_coll_local(dseg, doff), acc, bytes);
}

/* Hierarchical (coll_hier.c), small arrays: each node's leader combines its
 * node's sources in index order once their PEs have arrived, pushes that
 * partial into its region of every other leader, and combines the leaders'
 * partials in leader order, so every leader gets the same bits; then it writes
 * the result into its node's dests and releases them. One one-way trip between
 * nodes, with a push per node where the regions' need one per member. The
 * leader reads every source before it writes any dest: dest may be source. */
static void reduce_hier(const shoal_pset_t *ps, const shoal_hier_t *h, int dseg, size_t doff,
                        int sseg, size_t soff, size_t count, shoal_red_op_t op, shoal_dt_t dt,
                        size_t elem_size, char *acc, char *in, const char *routine)
{
    _Alignas(64) char mine[SHOAL_SLOT_MAX]; /* regions_fit: a slot at most */
    size_t bytes = count * elem_size;
    unsigned turn;
    int k;

    if (ps->me != h->local[0]) {
        shoal_coll_xchg_skip(ps);
        shoal_coll_hier_arrive(ps, h->local[0], routine);
        return;
    }
    shoal_coll_hier_gather(ps, h, routine);
    for (k = 0; k < h->nlocal; k++) {
        shoal_coll_get(ps, h->local[k], sseg, soff, k == 0 ? mine : in, bytes, routine);
        if (k > 0)
            combine(mine, in, count, op, dt, elem_size, routine);
    }
    turn = shoal_coll_hier_exchange(ps, h, mine, bytes, routine);
    for (k = 0; k < h->nleaders; k++) {
        char *part = k == 0 ? acc : in;

        if (k == h->rank)
            memcpy(part, mine, bytes);
        else
            shoal_coll_xchg_take(ps, h->leaders[k], turn, part, bytes, routine);
        if (k > 0)
            combine(acc, in, count, op, dt, elem_size, routine);
    }
    memcpy(shoal_coll_local(dseg, doff), acc, bytes);
    shoal_coll_hier_release(ps, h, dseg, doff, acc, bytes, routine);
}

/* The ring's block where every member's source and dest are mapped here: in
 * chunks that stay in this core's cache, the chunk of every source combined
 * straight from the mapping (no copy into a buffer first), then written to every
 * dest at once; the all-gather rides on the reduce-scatter. Only this PE touches
 * its block's range of any source or dest, and it reads a chunk before it writes
 * it, so dest may be the source. 0 where a member is not mapped (UCX peers). */
#define RING_CHUNK ((size_t)32 << 10) /* a multiple of every element size */
#define RING_MAPPED_MAX 64

static int ring_mapped(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                       size_t bytes, shoal_red_op_t op, shoal_dt_t dt, size_t elem_size, char *acc,
                       const char *routine)
{
    const char *src[RING_MAPPED_MAX];
    char *dst[RING_MAPPED_MAX];
    int n = ps->size, i;

    if (n > RING_MAPPED_MAX)
        return 0;
    for (i = 0; i < n; i++) {
        int pe = shoal_pset_pe(ps, i);

        src[i] = shoal_core_direct(shoal_coll_local(sseg, soff), bytes, pe);
        dst[i] = shoal_core_direct(shoal_coll_local(dseg, doff), bytes, pe);
        if (src[i] == NULL || dst[i] == NULL)
            return 0;
    }
    for (size_t at = 0; at < bytes; at += RING_CHUNK) {
        size_t len = bytes - at < RING_CHUNK ? bytes - at : RING_CHUNK;

        memcpy(acc, src[0] + at, len);
        for (i = 1; i < n; i++)
            combine(acc, src[i] + at, len / elem_size, op, dt, elem_size, routine);
        for (i = 1; i <= n; i++)
            memcpy(dst[(ps->me + i) % n] + at, acc, len);
    }
    return 1;
}

/* Direct: every PE combines everything, then writes its own dest. Ring: index i
 * combines block i only and pushes it to every dest (reduce-scatter, then
 * all-gather), so each PE moves about 2 * bytes whatever the PE count. */
static void reduce_direct_or_ring(const shoal_pset_t *ps, int dseg, size_t doff, int sseg,
                                  size_t soff, size_t lo, size_t hi, int ring, shoal_red_op_t op,
                                  shoal_dt_t dt, size_t elem_size, char *acc, char *in,
                                  const char *routine)
{
    int n = ps->size, i;
    size_t bytes = (hi - lo) * elem_size;

    shoal_coll_barrier(ps, 0, routine); /* every source is ready */
    if (ring && ring_mapped(ps, dseg, doff + lo * elem_size, sseg, soff + lo * elem_size, bytes, op,
                            dt, elem_size, acc, routine)) {
        shoal_coll_barrier(ps, 1, routine);
        return;
    }
    reduce_block(ps, sseg, soff, lo, hi - lo, op, dt, elem_size, acc, in, routine);
    if (!ring) {
        shoal_coll_barrier(ps, 0, routine); /* no one reads a source any more */
        if (bytes > 0)
            memcpy(shoal_coll_local(dseg, doff), acc, bytes);
    } else {
        for (i = 1; i <= n && bytes > 0; i++) {
            int to = (ps->me + i) % n;

            if (to == ps->me)
                memcpy(shoal_coll_local(dseg, doff + lo * elem_size), acc, bytes);
            else
                shoal_core_put(&shoal_ctx_default, shoal_pset_pe(ps, to), dseg,
                               doff + lo * elem_size, acc, bytes, 0, routine);
        }
        shoal_coll_barrier(ps, 1, routine);
    }
}

/* Flat (one node, small arrays): one PE combines and writes every dest. Doubling:
 * log2 of the PE count exchanges of the whole array. Direct and ring: above. */
void shoal_coll_reduce(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                       size_t count, shoal_red_op_t op, shoal_dt_t dt, size_t elem_size,
                       const char *routine)
{
    uint64_t begun = shoal_stats_coll_begin();
    int n = ps->size, algo = reduce_algo(count * elem_size, n), i;
    int ring = algo == SHOAL_ALGO_RING;
    size_t lo = ring ? count * (size_t)ps->me / (size_t)n : 0;
    size_t hi = ring ? count * (size_t)(ps->me + 1) / (size_t)n : count;
    size_t bytes = (hi - lo) * elem_size;
    char *acc, *in;

    scratch_get(bytes, &acc, &in, routine);
    shoal_coll_enter(ps);
    if (algo == SHOAL_ALGO_FLAT) {
        /* One PE (the last to arrive) combines once every source is ready, in
         * index order, and writes every dest. */
        if (shoal_coll_flat_enter(ps, 0, routine)) {
            reduce_block(ps, sseg, soff, 0, count, op, dt, elem_size, acc, in, routine);
            for (i = 0; i < n && bytes > 0; i++)
                shoal_coll_put(ps, i, dseg, doff, acc, bytes, routine);
            shoal_coll_flat_leave(ps, routine);
        }
    } else if (algo == SHOAL_ALGO_DOUBLING &&
               shoal_core_state.settings.reduce_algo == SHOAL_ALGO_AUTO &&
               shoal_coll_regions_fit(ps, count * elem_size)) {
        const shoal_hier_t *h = shoal_coll_hier(ps, routine);

        if (h != NULL)
            reduce_hier(ps, h, dseg, doff, sseg, soff, count, op, dt, elem_size, acc, in, routine);
        else
            reduce_regions(ps, dseg, doff, sseg, soff, count, op, dt, elem_size, acc, in, routine);
    } else if (algo == SHOAL_ALGO_DOUBLING) {
        if (bytes > 0)
            reduce_doubling(ps, dseg, doff, sseg, soff, count, op, dt, elem_size, acc, in, routine);
        shoal_coll_barrier(ps, 0, routine);
    } else {
        reduce_direct_or_ring(ps, dseg, doff, sseg, soff, lo, hi, ring, op, dt, elem_size, acc, in,
                              routine);
    }
    shoal_stats_coll_end(SHOAL_STATS_REDUCE, begun);
}

/* Scans: each PE reads the sources of the indices before it (and its own for the
 * inclusive scan) and adds them in index order, so every result has the bits a
 * serial loop gives; exclusive on index 0 is zero (all-zero bits are 0 in every
 * SUM type). Two barriers: every source is ready; no one reads one any more, so
 * dest may be source. Cost: up to size - 1 gets of the whole array per PE, which
 * suits the small arrays scans serve (counts, offsets). */
void shoal_coll_scan(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                     size_t count, int exclusive, shoal_dt_t dt, size_t elem_size,
                     const char *routine)
{
    uint64_t begun = shoal_stats_coll_begin(); /* counted with the reductions */
    size_t bytes = count * elem_size;
    int upto = exclusive ? ps->me : ps->me + 1, i;
    char *acc, *in;

    scratch_get(bytes, &acc, &in, routine);
    memset(acc, 0, bytes);
    shoal_coll_barrier(ps, 0, routine);
    for (i = 0; i < upto && bytes > 0; i++) {
        shoal_coll_get(ps, i, sseg, soff, i == 0 ? acc : in, bytes, routine);
        if (i > 0)
            combine(acc, in, count, SHOAL_RED_SUM, dt, elem_size, routine);
    }
    shoal_coll_barrier(ps, 0, routine);
    if (bytes > 0)
        memcpy(shoal_coll_local(dseg, doff), acc, bytes);
    shoal_stats_coll_end(SHOAL_STATS_REDUCE, begun);
}
