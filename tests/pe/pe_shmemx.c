/* The routines OpenSHMEM 1.6 added (and a few calls through their shmemx_
 * aliases), and Shoal's shmemx_wtime, each with every type it takes. Blocked strided RMA: every
 * typed, C11 and sized ibput and ibget, default context and a context of their own, over shapes
 * that take each path of the core (one copy, packed blocks, spans, a batch of block gets, nothing
 * at all); the bytes of every block and every gap are checked. Signal add and set, alone and after
 * a fenced put; scans, inclusive and exclusive, typed and C11, in place and not, on the world and
 * on a strided team; per-PE quiet completing another context's puts; sessions (their AMOs held
 * and combined through UCX, completed by quiet, fence, waits, barriers and the context's end); the
 * clock. */
#include "pe_test.h"
#include "shoal_types.h"

#include <complex.h>
#include <shmemx.h>
#include <stdint.h>

#define SENTINEL 0xEE

static int me, npes, left, right;
static shmem_ctx_t ctx; /* a context of its own, or SHMEM_CTX_DEFAULT */

/* ---------------------------------------------------------------- ibput/ibget */

/* One routine of a pair, called as xfer(use_ctx, ...): the shmem_ctx_ form with
 * ctx when use_ctx, else the default-context form. */
typedef void xfer_fn(int use_ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                     size_t bsize, size_t nblocks, int pe);
typedef struct form {
    const char *name;
    size_t size;
    xfer_fn *put, *get;
} form_t;

#define DEFINE_FORMS(T, NAME)                                                                      \
    static void put_##NAME(int c, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t b,  \
                           size_t n, int pe)                                                       \
    {                                                                                              \
        if (c)                                                                                     \
            shmem_ctx_##NAME##_ibput(ctx, (T *)d, (const T *)s, dst, sst, b, n, pe);               \
        else                                                                                       \
            shmem_##NAME##_ibput((T *)d, (const T *)s, dst, sst, b, n, pe);                        \
    }                                                                                              \
    static void get_##NAME(int c, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t b,  \
                           size_t n, int pe)                                                       \
    {                                                                                              \
        if (c)                                                                                     \
            shmem_ctx_##NAME##_ibget(ctx, (T *)d, (const T *)s, dst, sst, b, n, pe);               \
        else                                                                                       \
            shmem_##NAME##_ibget((T *)d, (const T *)s, dst, sst, b, n, pe);                        \
    }                                                                                              \
    static void gput_##NAME(int c, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, \
                            size_t n, int pe)                                                      \
    {                                                                                              \
        if (c)                                                                                     \
            shmem_ibput(ctx, (T *)d, (const T *)s, dst, sst, b, n, pe);                            \
        else                                                                                       \
            shmem_ibput((T *)d, (const T *)s, dst, sst, b, n, pe);                                 \
    }                                                                                              \
    static void gget_##NAME(int c, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, \
                            size_t n, int pe)                                                      \
    {                                                                                              \
        if (c)                                                                                     \
            shmem_ibget(ctx, (T *)d, (const T *)s, dst, sst, b, n, pe);                            \
        else                                                                                       \
            shmem_ibget((T *)d, (const T *)s, dst, sst, b, n, pe);                                 \
    }
SHOAL_RMA_TYPES(DEFINE_FORMS)

#define DEFINE_SIZED(SIZE, BYTES)                                                                  \
    static void put##SIZE(int c, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t b,   \
                          size_t n, int pe)                                                        \
    {                                                                                              \
        if (c)                                                                                     \
            shmem_ctx_ibput##SIZE(ctx, d, s, dst, sst, b, n, pe);                                  \
        else                                                                                       \
            shmem_ibput##SIZE(d, s, dst, sst, b, n, pe);                                           \
    }                                                                                              \
    static void get##SIZE(int c, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t b,   \
                          size_t n, int pe)                                                        \
    {                                                                                              \
        if (c)                                                                                     \
            shmem_ctx_ibget##SIZE(ctx, d, s, dst, sst, b, n, pe);                                  \
        else                                                                                       \
            shmem_ibget##SIZE(d, s, dst, sst, b, n, pe);                                           \
    }
SHOAL_RMA_SIZES(DEFINE_SIZED)

#define TYPED_FORM(T, NAME) {"shmem_" #NAME "_ibput/ibget", sizeof(T), put_##NAME, get_##NAME},
#define C11_FORM(T, NAME) {"shmem_ibput/ibget (" #NAME ")", sizeof(T), gput_##NAME, gget_##NAME},
#define SIZED_FORM(SIZE, BYTES) {"shmem_ibput" #SIZE "/ibget" #SIZE, BYTES, put##SIZE, get##SIZE},
static const form_t forms[] = {SHOAL_RMA_TYPES(TYPED_FORM) SHOAL_RMA_TYPES(C11_FORM)
                                   SHOAL_RMA_SIZES(SIZED_FORM)};
#undef TYPED_FORM
#undef C11_FORM
#undef SIZED_FORM

/* Shapes: element strides of dest and source, block length, block count. Each
 * takes a path of its own in the core: gaps on both sides (one block a
 * message; spans for the get), a contiguous dest (packed puts), all contiguous
 * (one copy), source gaps over 16 blocks wide (a batch of block gets), blocks of
 * one element, and nothing to move. */
typedef struct shape {
    ptrdiff_t dst, sst;
    size_t bsize, nblocks;
} shape_t;
static const shape_t shapes[] = {
    {4, 3, 2, 3}, {3, 5, 3, 40}, {4, 4, 4, 5}, {2, 21, 1, 10}, {2, 1, 1, 7}, {6, 6, 5, 0},
};

/* The byte at offset off of PE pe's source. */
static unsigned char pattern(int pe, size_t off)
{
    return (unsigned char)(pe * 37 + off * 7 + 1);
}

static size_t span(ptrdiff_t stride, const shape_t *sh, size_t es)
{
    return sh->nblocks == 0 ? 0 : ((sh->nblocks - 1) * (size_t)stride + sh->bsize) * es;
}

/* Every byte of dest (len bytes): the blocks hold from's source bytes, the gaps
 * and what lies past the last block still hold SENTINEL. */
static int check_blocks(const unsigned char *dest, size_t len, const shape_t *sh, size_t es,
                        int from, const char *what, const char *name)
{
    size_t b, bad = 0;

    for (b = 0; b < len; b++) {
        size_t el = b / es, blk = el / (size_t)sh->dst, in = el % (size_t)sh->dst;
        int data = blk < sh->nblocks && in < sh->bsize;
        unsigned char want =
            data ? pattern(from, ((blk * (size_t)sh->sst) + in) * es + b % es) : SENTINEL;

        if (dest[b] != want && bad++ < 3)
            PE_CHECK(
                dest[b] == want,
                "%s %s (dst %td sst %td bsize %zu nblocks %zu): byte %zu is %#x, expected %#x (%s)",
                name, what, sh->dst, sh->sst, sh->bsize, sh->nblocks, b, dest[b], want,
                data ? "data" : "gap");
    }
    return bad == 0;
}

static void ib_one(const form_t *f, const shape_t *sh, int use_ctx, unsigned char *sym,
                   size_t sym_len)
{
    size_t es = f->size, slen = span(sh->sst, sh, es), dlen = span(sh->dst, sh, es) + 2 * es;
    unsigned char *local = malloc(slen + dlen + 1), *src = local, *dst_buf = local + slen;
    size_t b;

    if (local == NULL || dlen > sym_len || slen > sym_len) {
        PE_CHECK(0, "%s: no room for %zu + %zu bytes", f->name, slen, dlen);
        free(local);
        return;
    }
    /* ibput: my source to right's symmetric dest; then check mine, from left. */
    for (b = 0; b < slen; b++)
        src[b] = pattern(me, b);
    memset(sym, SENTINEL, dlen);
    shmem_barrier_all();
    f->put(use_ctx, sym, src, sh->dst, sh->sst, sh->bsize, sh->nblocks, right);
    if (use_ctx)
        shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    check_blocks(sym, dlen, sh, es, left, use_ctx ? "ctx ibput" : "ibput", f->name);
    shmem_barrier_all();
    /* ibget: right's symmetric source into my local dest. */
    for (b = 0; b < slen; b++)
        sym[b] = pattern(me, b);
    memset(dst_buf, SENTINEL, dlen);
    shmem_barrier_all();
    f->get(use_ctx, dst_buf, sym, sh->dst, sh->sst, sh->bsize, sh->nblocks, right);
    check_blocks(dst_buf, dlen, sh, es, right, use_ctx ? "ctx ibget" : "ibget", f->name);
    shmem_barrier_all();
    free(local);
}

static void test_blocked(void)
{
    /* Large enough for every shape at 16-byte elements, and for big. */
    size_t sym_len = (size_t)4 << 20, i, k;
    unsigned char *sym = shmem_malloc(sym_len);
    shape_t big = {1000, 1200, 1000, 300}; /* 2.4 MB of longs: more than one chunk */

    for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
        for (k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
            ib_one(&forms[i], &shapes[k], 0, sym, sym_len);
            ib_one(&forms[i], &shapes[k], 1, sym, sym_len);
        }
    /* Packed puts and span gets over more than one 1 MiB chunk. */
    for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
        if (strcmp(forms[i].name, "shmem_long_ibput/ibget") == 0) {
            ib_one(&forms[i], &big, 0, sym, sym_len);
            big.sst = 1000; /* and all contiguous: one transfer */
            ib_one(&forms[i], &big, 1, sym, sym_len);
        }
    shmem_free(sym);
}

/* ------------------------------------------------------------ signal add/set */

static uint64_t sig_sum, sig_ctx_sum, sig_slots[64], sig_flag;
static long payload[16];

static void test_signals(void)
{
    uint64_t want = 0, v;
    int pe, round;
    long data[16];

    /* Every PE adds me + 1 to every PE's counters: by name, by the C11 three- and
     * four-argument forms, on its context. */
    for (pe = 0; pe < npes && npes <= 32; pe++) {
        shmem_signal_add(&sig_sum, (uint64_t)me + 1, pe);
        shmemx_signal_add(&sig_sum, (uint64_t)me + 1, pe); /* the alias: the same routine */
        shmem_ctx_signal_add(ctx, &sig_ctx_sum, (uint64_t)me + 1, pe);
        shmem_signal_add(ctx, &sig_ctx_sum, 1000 * ((uint64_t)me + 1), pe);
        shmem_signal_set(&sig_slots[me], 100 + (uint64_t)me, pe);
        shmem_ctx_signal_set(ctx, &sig_slots[32 + me], 200 + (uint64_t)me, pe);
    }
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (pe = 0; pe < npes && npes <= 32; pe++)
        want += (uint64_t)pe + 1;
    v = shmem_signal_fetch(&sig_sum);
    PE_CHECK(v == 2 * want, "shmem_signal_add: counter is %llu, expected %llu",
             (unsigned long long)v, (unsigned long long)(2 * want));
    v = shmem_signal_fetch(&sig_ctx_sum);
    PE_CHECK(v == 1001 * want, "shmem_ctx_signal_add: counter is %llu, expected %llu",
             (unsigned long long)v, (unsigned long long)(1001 * want));
    for (pe = 0; pe < npes && npes <= 32; pe++) {
        PE_CHECK(sig_slots[pe] == 100 + (uint64_t)pe,
                 "shmem_signal_set: slot %d is %llu, expected %llu", pe,
                 (unsigned long long)sig_slots[pe], (unsigned long long)(100 + pe));
        PE_CHECK(sig_slots[32 + pe] == 200 + (uint64_t)pe,
                 "shmem_ctx_signal_set: slot %d is %llu, expected %llu", pe,
                 (unsigned long long)sig_slots[32 + pe], (unsigned long long)(200 + pe));
    }
    shmem_barrier_all();
    /* A fenced put, then the signal: whoever sees round r sees its payload. Set
     * (the round number) and add (one per round) take turns, C11 forms too. */
    for (round = 1; round <= 50; round++) {
        int i;

        for (i = 0; i < 16; i++)
            data[i] = (long)me * 100000 + round * 100 + i;
        shmem_long_put(payload, data, 16, right);
        shmem_fence();
        if (round % 2)
            shmem_signal_set(&sig_flag, (uint64_t)round, right);
        else
            shmem_signal_add(SHMEM_CTX_DEFAULT, &sig_flag, 1, right);
        shmem_signal_wait_until(&sig_flag, SHMEM_CMP_EQ, (uint64_t)round);
        for (i = 0; i < 16; i++)
            PE_CHECK(payload[i] == (long)left * 100000 + round * 100 + i,
                     "signal round %d: payload[%d] is %ld, expected %ld", round, i, payload[i],
                     (long)left * 100000 + round * 100 + i);
        /* The next round's put must not overwrite a payload not yet read. */
        shmem_barrier_all();
    }
}

/* --------------------------------------------------------------------- scans */

/* Element j of PE i's source is i + 1 + j: the inclusive prefix over indices
 * 0..i is (i+1)(i+2)/2 + (i+1)j, the exclusive one i(i+1)/2 + ij. */
static long long scan_expected(int idx, int j, int exclusive)
{
    long long n = exclusive ? idx : idx + 1;

    return n * (n + 1) / 2 + n * j;
}

#define NSCAN 5

/* Exact for every SUM type's small values: real and imaginary parts (0 for the
 * real types) compared as long double. */
#define SCAN_EQUAL(a, b) (creall(a) == creall(b) && cimagl(a) == cimagl(b))

#define DEFINE_SCAN(T, NAME, KIND)                                                                 \
    static void scan_##NAME(shmem_team_t team, int idx, const char *team_name)                     \
    {                                                                                              \
        T *src = shmem_malloc(NSCAN * sizeof(T)), *dst = shmem_malloc(NSCAN * sizeof(T));          \
        int form, j;                                                                               \
                                                                                                   \
        for (form = 0; form < 6; form++) {                                                         \
            int exclusive = form % 2, in_place = form >= 4, rc;                                    \
            T *to = in_place ? src : dst;                                                          \
                                                                                                   \
            for (j = 0; j < NSCAN; j++) {                                                          \
                src[j] = (T)(idx + 1 + j);                                                         \
                dst[j] = (T)99;                                                                    \
            }                                                                                      \
            shmem_barrier_all();                                                                   \
            if (idx < 0) { /* not a member: only the barriers */                                   \
                shmem_barrier_all();                                                               \
                continue;                                                                          \
            }                                                                                      \
            if (form < 2 || in_place)                                                              \
                rc = exclusive ? shmem_##NAME##_sum_exscan(team, to, src, NSCAN)                   \
                               : shmem_##NAME##_sum_inscan(team, to, src, NSCAN);                  \
            else                                                                                   \
                rc = exclusive ? shmem_sum_exscan(team, to, src, NSCAN)                            \
                               : shmem_sum_inscan(team, to, src, NSCAN);                           \
            PE_CHECK(rc == 0, "shmem_%s_sum_%sscan returned %d", #NAME, exclusive ? "ex" : "in",   \
                     rc);                                                                          \
            for (j = 0; j < NSCAN; j++) {                                                          \
                T want = (T)scan_expected(idx, j, exclusive);                                      \
                PE_CHECK(                                                                          \
                    SCAN_EQUAL(to[j], want),                                                       \
                    "shmem_%s_sum_%sscan%s on %s (index %d): element %d is %Lg, expected %Lg",     \
                    #NAME, exclusive ? "ex" : "in", in_place ? " in place" : "", team_name, idx,   \
                    j, (long double)creall(to[j]), (long double)creall(want));                     \
            }                                                                                      \
            /* nelems 0 moves nothing */                                                           \
            rc = shmem_sum_inscan(team, dst, src, 0);                                              \
            PE_CHECK(rc == 0, "shmem_sum_inscan with nelems 0 returned %d", rc);                   \
            shmem_barrier_all();                                                                   \
        }                                                                                          \
        shmem_free(dst);                                                                           \
        shmem_free(src);                                                                           \
    }
SHOAL_REDUCE_ARITH_TYPES_KIND(DEFINE_SCAN)

static void test_scans(void)
{
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    int odd_idx = -1;

    /* The odd PEs, a strided team (empty at 1 PE: none is made). */
    if (npes > 1) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
        odd_idx = odd == SHMEM_TEAM_INVALID ? -1 : shmem_team_my_pe(odd);
    }
#define RUN_SCAN(T, NAME, KIND)                                                                    \
    scan_##NAME(SHMEM_TEAM_WORLD, me, "SHMEM_TEAM_WORLD");                                         \
    if (npes > 1)                                                                                  \
        scan_##NAME(odd, odd_idx, "the odd PEs");
    SHOAL_REDUCE_ARITH_TYPES_KIND(RUN_SCAN)
#undef RUN_SCAN
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
}

/* ---------------------------------------------------------- per-PE quiet */

static long pq_data[64];
static long pq_flag;

static void test_pe_quiet(void)
{
    long vals[64];
    int round, i, targets[2];

    /* No PE, and SHMEM_CTX_INVALID: nothing to do, nothing read. */
    shmem_pe_quiet(NULL, 0);
    shmem_ctx_pe_quiet(SHMEM_CTX_INVALID, NULL, 5);
    for (round = 1; round <= 20; round++) {
        for (i = 0; i < 64; i++)
            vals[i] = round * 1000 + me * 64 + i;
        /* The data on the test's context (its own UCX worker under ucx), completed
         * by the per-PE quiet on that context; only then the flag, on the default
         * one. A quiet that missed the context would let right see the flag first. */
        shmem_ctx_long_put_nbi(ctx, pq_data, vals, 64, right);
        targets[0] = right;
        targets[1] = left;
        if (round % 2)
            shmem_ctx_pe_quiet(ctx, targets, 2);
        else if (ctx == SHMEM_CTX_DEFAULT)
            shmem_pe_quiet(targets, 1);
        else
            shmem_ctx_pe_quiet(ctx, &targets[0], 1);
        shmem_long_atomic_set(&pq_flag, round, right);
        pe_test_wait_long_ge(&pq_flag, round, left);
        for (i = 0; i < 64; i++)
            PE_CHECK(pq_data[i] == round * 1000 + left * 64 + i,
                     "pe_quiet round %d: data[%d] is %ld, expected %ld", round, i, pq_data[i],
                     (long)(round * 1000 + left * 64 + i));
        shmem_barrier_all();
    }
    /* The default-context form completes default-context puts. */
    for (i = 0; i < 64; i++)
        vals[i] = -me - i;
    shmem_long_put(pq_data, vals, 64, right);
    shmemx_pe_quiet(&right, 1); /* the alias */
    shmem_long_atomic_set(&pq_flag, 1000, right);
    pe_test_wait_long_ge(&pq_flag, 1000, left);
    for (i = 0; i < 64; i++)
        PE_CHECK(pq_data[i] == -left - i, "pe_quiet: data[%d] is %ld, expected %ld", i, pq_data[i],
                 (long)(-left - i));
    shmem_barrier_all();
}

/* ---------------------------------------------------------------- sessions */

static unsigned long table[256];

/* AMOs in a batch session, which a runtime may delay and combine: add, or and
 * and, 32 and 64 bits; a set waited for without a quiet (it must still arrive
 * while the sender waits); an add ordered by a fence before a put. */
static int ses_flag;
static long ses_sum, ses_fenced, ses_ready;
static uint32_t ses_bits_or, ses_bits_and;

static void test_session_kinds(void)
{
    int pe;

    ses_flag = 0;
    ses_sum = ses_fenced = ses_ready = 0;
    ses_bits_or = 0;
    ses_bits_and = 0xffffffffu;
    shmem_barrier_all();
    shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    for (pe = 0; pe < npes; pe++) {
        shmem_ctx_long_atomic_add(ctx, &ses_sum, me + 1, pe);
        shmem_ctx_uint32_atomic_or(ctx, &ses_bits_or, 1u << (me % 32), pe);
        shmem_ctx_uint32_atomic_and(ctx, &ses_bits_and, ~(1u << (me % 32)), pe);
    }
    shmem_ctx_int_atomic_set(ctx, &ses_flag, me + 1, right);
    shmem_int_wait_until(&ses_flag, SHMEM_CMP_EQ, left + 1); /* no quiet: it must still come */
    shmem_ctx_long_atomic_add(ctx, &ses_fenced, 5, right);
    shmem_ctx_fence(ctx);
    shmem_ctx_long_p(ctx, &ses_ready, 1, right);
    shmem_long_wait_until(&ses_ready, SHMEM_CMP_EQ, 1);
    PE_CHECK(ses_fenced == 5,
             "session batch: an add before a fence is %ld when the put after "
             "it arrived, expected 5",
             ses_fenced);
    shmem_ctx_session_stop(ctx);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    PE_CHECK_EQ("session batch: sum of adds", (long)npes * (npes + 1) / 2, ses_sum);
    for (pe = 0; pe < npes; pe++) {
        PE_CHECK(ses_bits_or & (1u << (pe % 32)), "session batch: or bit %d missing", pe % 32);
        PE_CHECK(!(ses_bits_and & (1u << (pe % 32))), "session batch: and bit %d still set",
                 pe % 32);
    }
    shmem_barrier_all();
}

static void test_sessions(void)
{
    shmem_ctx_session_config_t cfg = {.total_ops = 4 * 256};
    unsigned long want;
    int i, pe;

    shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    shmem_ctx_session_stop(SHMEM_CTX_INVALID);
    shmem_ctx_session_stop(ctx); /* never started: no effect */
    shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, &cfg,
                            SHMEM_CTX_SESSION_TOTAL_OPS);
    shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    shmemx_ctx_session_start(ctx, 0, &cfg, SHMEMX_CTX_SESSION_TOTAL_OPS); /* adds to it */
    for (i = 0; i < 256; i++) {
        pe = (me + i) % npes;
        shmem_ulong_atomic_xor(&table[i], 1UL << (me % 32), pe);
        shmem_ctx_ulong_atomic_add(ctx, &table[(i + 128) % 256], 1UL << 32, pe);
    }
    shmem_ctx_session_stop(ctx);
    shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
    shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (i = 0; i < 256; i++) {
        int from, n = 0;

        want = 0;
        for (from = 0; from < npes; from++)
            if ((from + i) % npes == me)
                want ^= 1UL << (from % 32);
        for (from = 0; from < npes; from++)
            if ((from + (i + 128) % 256) % npes == me)
                n++;
        want += (unsigned long)n << 32;
        PE_CHECK(table[i] == want, "session batch: table[%d] is %#lx, expected %#lx", i, table[i],
                 want);
    }
    shmem_barrier_all();
}

/* Held AMOs leave at a barrier (the default context, no quiet) and at the end of
 * their context; sets to one word keep the last; an or, an and with all ones and
 * an or to one word (kinds that change: what is held goes out first, and these
 * give the same bits in any order). */
static long ses_end_a, ses_end_b, ses_last;
static uint64_t ses_mixed;

static void test_session_ends(void)
{
    shmem_ctx_t c2;
    int pe, i;

    ses_end_a = ses_end_b = ses_last = 0;
    ses_mixed = 0;
    shmem_barrier_all();
    shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    for (pe = 0; pe < npes; pe++) {
        shmem_long_atomic_add(&ses_end_a, 1, pe);
        shmem_uint64_atomic_or(&ses_mixed, 1ULL << (me % 64), pe);
        shmem_uint64_atomic_and(&ses_mixed, ~0ULL, pe);
        shmem_uint64_atomic_or(&ses_mixed, 1ULL << ((me + 1) % 64), pe);
    }
    for (i = 1; i <= 100; i++)
        shmem_long_atomic_set(&ses_last, (long)me * 1000 + i, right);
    shmem_barrier_all();
    PE_CHECK_EQ("session batch: adds completed by a barrier", (long)npes, ses_end_a);
    PE_CHECK_EQ("session batch: the last of 100 sets", (long)left * 1000 + 100, ses_last);
    for (pe = 0; pe < npes; pe++)
        PE_CHECK((ses_mixed >> (pe % 64) & 1) && (ses_mixed >> ((pe + 1) % 64) & 1),
                 "session batch: or/and/or from PE %d: %#llx", pe, (unsigned long long)ses_mixed);
    shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &c2) == 0) {
        shmem_ctx_session_start(c2, SHMEM_CTX_SESSION_BATCH, NULL, 0);
        for (pe = 0; pe < npes; pe++)
            shmem_ctx_long_atomic_add(c2, &ses_end_b, 2, pe);
        shmem_ctx_destroy(c2); /* completes them, the session ended with it */
        shmem_barrier_all();
        PE_CHECK_EQ("session batch: adds completed by shmem_ctx_destroy", 2L * npes, ses_end_b);
    }
    shmem_barrier_all();
}

/* --------------------------------------------------------------------- clock */

static void test_wtime(double before_init)
{
    struct timespec nap = {0, 20 * 1000 * 1000};
    double t0 = shmemx_wtime(), t1;

    PE_CHECK(t0 >= before_init, "shmemx_wtime went back: %f after %f before shmem_init", t0,
             before_init);
    nanosleep(&nap, NULL);
    t1 = shmemx_wtime();
    PE_CHECK(t1 - t0 >= 0.019 && t1 - t0 < 10.0, "shmemx_wtime: a 20 ms sleep measured %f s",
             t1 - t0);
}

int main(void)
{
    double before = shmemx_wtime(); /* needs no shmem_init */

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    if (shmem_ctx_create(0, &ctx) != 0)
        ctx = SHMEM_CTX_DEFAULT;

    test_wtime(before);
    test_blocked();
    test_signals();
    test_scans();
    test_pe_quiet();
    test_sessions();
    test_session_kinds();
    test_session_ends();

    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    return pe_test_finish("pe_shmemx");
}
