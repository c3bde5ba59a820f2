/* Communication contexts: shmem_ctx_create with every combination of options,
 * ctx_get_team, creating contexts until the library refuses (or 300), which must
 * fail cleanly with SHMEM_CTX_INVALID and leave the library working; the shmem_ctx_
 * forms of RMA (typed, sized, mem, and the C11 generic names with a context), AMOs
 * and put-with-signal; ctx_fence ordering and ctx_quiet completion; contexts made
 * from a team with team-relative PE numbers (shmem_team_create_ctx); and, at
 * SHMEM_THREAD_MULTIPLE, a private context per thread plus one shared by all of
 * them, used at once. */
#include "pe_teams.h"

#include <pthread.h>
#include <stdint.h>

#define MANY 300
#define N 64 /* elements of the RMA rounds */
#define THREADS 4
#define ITERS 500
#define MAXPE 64

static int me, npes, left, right;

/* Symmetric targets. */
static int ibuf[N + 1];
static long lbuf[N + 1];
static double dbuf[N + 1];
static uint64_t ubuf[N + 1];
static char cbuf[N + 1];
static long counter, counter2;
static uint64_t bits;
static uint64_t bw64; /* fetching bitwise AMOs: only the left neighbour writes it */
static uint32_t bw32;
static uint64_t *heap_bw64; /* the same on the heap: a uint64_t, then a uint32_t */
static long flag, big[4096];
static uint64_t sig, tsig;
static long slots[MAXPE][THREADS][ITERS];
static long tvals[THREADS][ITERS]; /* put sources: an nbi source must stay until quiet */
static long tcounters[THREADS];

static void check_team_of(shmem_ctx_t ctx, shmem_team_t want, const char *what)
{
    shmem_team_t t = SHMEM_TEAM_INVALID;
    int rc = shmem_ctx_get_team(ctx, &t);

    PE_CHECK(rc == 0 && t == want, "%s: ctx_get_team returned %d and %p, expected 0 and %p", what,
             rc, (void *)t, (void *)want);
}

/* What the library prints on this PE's stderr between capture_begin and
 * capture_end goes into a temporary file, and then into got. */
static FILE *capture_file;
static int capture_saved = -1;

static void capture_begin(void)
{
    fflush(stderr);
    capture_file = tmpfile();
    PE_CHECK(capture_file != NULL, "%s", "tmpfile failed");
    if (capture_file == NULL)
        return;
    capture_saved = dup(2);
    dup2(fileno(capture_file), 2);
}

static void capture_end(char *got, size_t len)
{
    size_t n;

    got[0] = '\0';
    if (capture_file == NULL)
        return;
    fflush(stderr);
    dup2(capture_saved, 2);
    close(capture_saved);
    rewind(capture_file);
    n = fread(got, 1, len - 1, capture_file);
    got[n] = '\0';
    fclose(capture_file);
    capture_file = NULL;
}

/* A context creation that must fail: the return value, *ctx left at
 * SHMEM_CTX_INVALID, and the warning the library prints on this PE, which must
 * contain want. team NULL: shmem_ctx_create; out_null: pass a NULL ctx. */
static void check_refused(shmem_team_t *team, long options, int out_null, const char *want,
                          const char *what)
{
    shmem_ctx_t bad = SHMEM_CTX_DEFAULT, *out = out_null ? NULL : &bad;
    char got[2048];
    int rc;

    capture_begin();
    rc = team == NULL ? shmem_ctx_create(options, out) : shmem_team_create_ctx(*team, options, out);
    capture_end(got, sizeof(got));
    PE_CHECK(rc != 0 && (out_null || bad == SHMEM_CTX_INVALID),
             "%s returned %d and %p, expected non-zero and SHMEM_CTX_INVALID", what, rc,
             (void *)bad);
    PE_CHECK(strstr(got, want) != NULL, "%s: printed \"%s\", expected a line with \"%s\"", what,
             got, want);
}

/* A put through ctx to the right neighbour, completed by ctx_quiet, seen after a
 * barrier; NOSTORE contexts need not complete stores on quiet: they check a
 * fetching AMO and a get instead, which are complete on return. */
static void use_ctx(shmem_ctx_t ctx, long options, long tag)
{
    long v;

    shmem_barrier_all();
    if (options & SHMEM_CTX_NOSTORE) {
        long before = shmem_ctx_long_atomic_fetch_add(ctx, &counter, 1, right);

        lbuf[0] = tag + me;
        shmem_barrier_all();
        PE_CHECK(before >= 0, "options %#lx: fetch_add returned %ld", options, before);
        v = shmem_ctx_long_g(ctx, &lbuf[0], right);
        PE_CHECK(v == tag + right, "options %#lx: ctx_long_g: expected %ld, found %ld", options,
                 tag + right, v);
        shmem_barrier_all();
        return;
    }
    shmem_ctx_long_p(ctx, &lbuf[0], tag + me, right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    PE_CHECK(lbuf[0] == tag + left, "options %#lx: ctx_long_p + ctx_quiet: expected %ld, found %ld",
             options, tag + left, lbuf[0]);
    shmem_barrier_all();
}

static void test_options(void)
{
    static const long opts[] = {0,
                                SHMEM_CTX_PRIVATE,
                                SHMEM_CTX_SERIALIZED,
                                SHMEM_CTX_NOSTORE,
                                SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED,
                                SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE,
                                SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE,
                                SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE};
    shmem_team_t t = SHMEM_TEAM_WORLD, world = SHMEM_TEAM_WORLD;
    size_t i;

    check_team_of(SHMEM_CTX_DEFAULT, SHMEM_TEAM_WORLD, "SHMEM_CTX_DEFAULT");
    PE_CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t) != 0 && t == SHMEM_TEAM_INVALID,
             "ctx_get_team(SHMEM_CTX_INVALID) gave %p, expected non-zero and SHMEM_TEAM_INVALID",
             (void *)t);
    /* Options that are none of the three: a failed creation, as the spec has it
     * (the program may retry with other options), not the end of the job; one
     * warning line names the routine, the argument and the valid bits. */
    check_refused(NULL, SHMEM_CTX_PRIVATE | 0x100, 0,
                  "shmem_ctx_create: argument options is 0x101; the valid bits are "
                  "SHMEM_CTX_PRIVATE (0x1), SHMEM_CTX_SERIALIZED (0x2) and SHMEM_CTX_NOSTORE "
                  "(0x4); no context made, returning -1",
                  "ctx_create(PRIVATE | 0x100)");
    check_refused(&world, 0xdead, 0,
                  "shmem_team_create_ctx: argument options is 0xdead; the valid bits are "
                  "SHMEM_CTX_PRIVATE (0x1), SHMEM_CTX_SERIALIZED (0x2) and SHMEM_CTX_NOSTORE "
                  "(0x4); no context made, returning -1",
                  "team_create_ctx(WORLD, 0xdead)");
    check_refused(&world, -1L, 0, "shmem_team_create_ctx: argument options is 0xffffffffffffffff; ",
                  "team_create_ctx(WORLD, -1)");
    check_refused(NULL, 0, 1,
                  "shmem_ctx_create: argument ctx is NULL, expected the address of a shmem_ctx_t; "
                  "no context made, returning -1",
                  "ctx_create(0, NULL)");
    /* The spec: on SHMEM_CTX_INVALID, quiet, fence and destroy perform no operation. */
    shmem_ctx_quiet(SHMEM_CTX_INVALID);
    shmem_ctx_fence(SHMEM_CTX_INVALID);
    shmem_ctx_destroy(SHMEM_CTX_INVALID);
    for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
        shmem_ctx_t ctx = SHMEM_CTX_INVALID;
        int rc = shmem_ctx_create(opts[i], &ctx);
        char what[64];

        snprintf(what, sizeof(what), "ctx_create(%#lx)", opts[i]);
        PE_CHECK(rc == 0 && ctx != SHMEM_CTX_INVALID && ctx != SHMEM_CTX_DEFAULT,
                 "%s returned %d, ctx %p", what, rc, (void *)ctx);
        if (rc != 0 || ctx == SHMEM_CTX_INVALID) {
            shmem_barrier_all(); /* the other PEs' use_ctx barriers */
            shmem_barrier_all();
            shmem_barrier_all();
            continue;
        }
        check_team_of(ctx, SHMEM_TEAM_WORLD, what);
        use_ctx(ctx, opts[i], 1000 * (long)(i + 1));
        shmem_ctx_destroy(ctx);
    }
}

/* Contexts until creation fails or MANY: a failure returns non-zero and leaves
 * SHMEM_CTX_INVALID; every success is a distinct handle; some of them work; after
 * destroying them all, creation works again. Local: no PE waits for another. */
static int left_n; /* how many contexts the left neighbour made in test_many */

static void test_many(void)
{
    static shmem_ctx_t ctx[MANY];
    int n, i, j, rc = 0;

    for (n = 0; n < MANY; n++) {
        ctx[n] = SHMEM_CTX_INVALID;
        rc = shmem_ctx_create(n % 2 ? SHMEM_CTX_PRIVATE : 0, &ctx[n]);
        if (rc != 0)
            break;
        PE_CHECK(ctx[n] != SHMEM_CTX_INVALID && ctx[n] != SHMEM_CTX_DEFAULT,
                 "ctx_create number %d returned 0 and %p", n, (void *)ctx[n]);
    }
    if (n < MANY)
        PE_CHECK(ctx[n] == SHMEM_CTX_INVALID,
                 "ctx_create number %d failed (%d) but gave %p, expected SHMEM_CTX_INVALID", n, rc,
                 (void *)ctx[n]);
    PE_CHECK(n >= 1, "not even one context: the first ctx_create returned %d", rc);
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n && j < i + 8; j++)
            PE_CHECK(ctx[i] != ctx[j], "contexts %d and %d are both %p", i, j, (void *)ctx[i]);
    /* the first, a middle and the last one carry a put each */
    for (i = 0; i < 3 && n > 0; i++) {
        int c = i == 0 ? 0 : i == 1 ? n / 2 : n - 1;

        shmem_ctx_int_p(ctx[c], &ibuf[i], 7000 + c, right);
        shmem_ctx_quiet(ctx[c]);
    }
    for (i = n - 1; i >= 0; i--)
        shmem_ctx_destroy(ctx[i]);
    /* Where resources ran out, PEs may have made different numbers of contexts:
     * the expected values come from the left neighbour's count. */
    shmem_int_p(&left_n, n, right);
    shmem_barrier_all();
    for (i = 0; i < 3 && left_n > 0; i++) {
        int c = i == 0 ? 0 : i == 1 ? left_n / 2 : left_n - 1;

        PE_CHECK(ibuf[i] == 7000 + c, "context %d of %d: put gave %d, expected %d", c, left_n,
                 ibuf[i], 7000 + c);
    }
    {
        shmem_ctx_t again = SHMEM_CTX_INVALID;

        rc = shmem_ctx_create(0, &again);
        PE_CHECK(rc == 0 && again != SHMEM_CTX_INVALID,
                 "ctx_create after destroying %d contexts returned %d, %p", n, rc, (void *)again);
        if (rc == 0)
            shmem_ctx_destroy(again);
    }
    if (me == 0)
        printf("note: %d contexts at once%s\n", n, n < MANY ? " before creation failed" : "");
    shmem_barrier_all();
}

/* Fills src with tag + element + the PE and checks what landed from PE pe. */
#define RMA_CHECK(T_, arr, n, from, tag, what)                                                     \
    do {                                                                                           \
        int i_;                                                                                    \
        for (i_ = 0; i_ < (n); i_++)                                                               \
            if ((arr)[i_] != (T_)((tag) + i_ + (from))) {                                          \
                PE_CHECK_EQ(what, (T_)((tag) + i_ + (from)), (arr)[i_]);                           \
                break;                                                                             \
            }                                                                                      \
        PE_CHECK_EQ(what " (guard)", (T_)-1, (arr)[(n)]);                                          \
    } while (0)

/* put, put_nbi, p, iput; then get, get_nbi, g, iget; through the typed ctx names. */
#define CTX_RMA(T_, NAME, arr, ctx)                                                                \
    do {                                                                                           \
        T_ src_[N], back_[N + 1];                                                                  \
        int i_;                                                                                    \
        for (i_ = 0; i_ < N; i_++)                                                                 \
            src_[i_] = (T_)(10 + i_ + me);                                                         \
        for (i_ = 0; i_ <= N; i_++)                                                                \
            (arr)[i_] = (T_)-1;                                                                    \
        shmem_barrier_all();                                                                       \
        shmem_ctx_##NAME##_put((ctx), (arr), src_, N / 2, right);                                  \
        shmem_ctx_##NAME##_put_nbi((ctx), (arr) + N / 2, src_ + N / 2, N / 2 - 2, right);          \
        shmem_ctx_##NAME##_p((ctx), (arr) + N - 2, src_[N - 2], right);                            \
        shmem_ctx_##NAME##_iput((ctx), (arr) + N - 1, src_ + N - 1, 1, 1, 1, right);               \
        shmem_ctx_quiet(ctx);                                                                      \
        shmem_barrier_all();                                                                       \
        RMA_CHECK(T_, (arr), N, left, 10, "ctx " #NAME " put");                                    \
        for (i_ = 0; i_ <= N; i_++)                                                                \
            back_[i_] = (T_)-1;                                                                    \
        shmem_ctx_##NAME##_get((ctx), back_, (arr), N / 2, right);                                 \
        shmem_ctx_##NAME##_get_nbi((ctx), back_ + N / 2, (arr) + N / 2, N / 2 - 2, right);         \
        back_[N - 2] = shmem_ctx_##NAME##_g((ctx), (arr) + N - 2, right);                          \
        shmem_ctx_##NAME##_iget((ctx), back_ + N - 1, (arr) + N - 1, 1, 1, 1, right);              \
        shmem_ctx_quiet(ctx);                                                                      \
        RMA_CHECK(T_, back_, N, me, 10, "ctx " #NAME " get");                                      \
        shmem_barrier_all();                                                                       \
    } while (0)

/* The same through the C11 generic names with a context first. */
#define CTX_RMA_GENERIC(T_, arr, ctx)                                                              \
    do {                                                                                           \
        T_ src_[N], back_[N + 1];                                                                  \
        int i_;                                                                                    \
        for (i_ = 0; i_ < N; i_++)                                                                 \
            src_[i_] = (T_)(20 + i_ + me);                                                         \
        for (i_ = 0; i_ <= N; i_++)                                                                \
            (arr)[i_] = (T_)-1;                                                                    \
        shmem_barrier_all();                                                                       \
        shmem_put((ctx), (arr), src_, N / 2, right);                                               \
        shmem_put_nbi((ctx), (arr) + N / 2, src_ + N / 2, N / 2 - 2, right);                       \
        shmem_p((ctx), (arr) + N - 2, src_[N - 2], right);                                         \
        shmem_iput((ctx), (arr) + N - 1, src_ + N - 1, 1, 1, 1, right);                            \
        shmem_ctx_quiet(ctx);                                                                      \
        shmem_barrier_all();                                                                       \
        RMA_CHECK(T_, (arr), N, left, 20, "generic ctx put");                                      \
        for (i_ = 0; i_ <= N; i_++)                                                                \
            back_[i_] = (T_)-1;                                                                    \
        shmem_get((ctx), back_, (arr), N / 2, right);                                              \
        shmem_get_nbi((ctx), back_ + N / 2, (arr) + N / 2, N / 2 - 2, right);                      \
        back_[N - 2] = shmem_g((ctx), (arr) + N - 2, right);                                       \
        shmem_iget((ctx), back_ + N - 1, (arr) + N - 1, 1, 1, 1, right);                           \
        shmem_ctx_quiet(ctx);                                                                      \
        RMA_CHECK(T_, back_, N, me, 20, "generic ctx get");                                        \
        shmem_barrier_all();                                                                       \
    } while (0)

static void test_rma(shmem_ctx_t ctx)
{
    unsigned char msrc[100], mback[100];
    uint64_t s64[8], b64[8];
    int i;

    CTX_RMA(int, int, ibuf, ctx);
    CTX_RMA(long, long, lbuf, ctx);
    CTX_RMA(double, double, dbuf, ctx);
    CTX_RMA(uint64_t, uint64, ubuf, ctx);
    CTX_RMA(char, char, cbuf, ctx);
    CTX_RMA_GENERIC(int, ibuf, ctx);
    CTX_RMA_GENERIC(double, dbuf, ctx);
    CTX_RMA_GENERIC(long, lbuf, ctx);

    /* mem and sized forms */
    for (i = 0; i < 100; i++)
        msrc[i] = (unsigned char)(i * 3 + me);
    for (i = 0; i < 8; i++)
        s64[i] = (uint64_t)me << 32 | (uint64_t)i;
    memset(big, 0, sizeof(big));
    shmem_barrier_all();
    shmem_ctx_putmem(ctx, big, msrc, 50, right);
    shmem_ctx_putmem_nbi(ctx, (char *)big + 50, msrc + 50, 50, right);
    shmem_ctx_put64(ctx, big + 100, s64, 8, right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (i = 0; i < 100; i++)
        if (((unsigned char *)big)[i] != (unsigned char)(i * 3 + left)) {
            PE_CHECK_EQ("ctx_putmem byte", (unsigned char)(i * 3 + left),
                        ((unsigned char *)big)[i]);
            break;
        }
    for (i = 0; i < 8; i++)
        PE_CHECK_EQ("ctx_put64", (long double)((uint64_t)left << 32 | (uint64_t)i),
                    (long double)(uint64_t)big[100 + i]);
    shmem_ctx_getmem(ctx, mback, big, 50, right);
    shmem_ctx_getmem_nbi(ctx, mback + 50, (char *)big + 50, 50, right);
    shmem_ctx_get64(ctx, b64, big + 100, 8, right);
    shmem_ctx_quiet(ctx);
    for (i = 0; i < 100; i++)
        if (mback[i] != (unsigned char)(i * 3 + me)) {
            PE_CHECK_EQ("ctx_getmem byte", (unsigned char)(i * 3 + me), mback[i]);
            break;
        }
    for (i = 0; i < 8; i++)
        PE_CHECK_EQ("ctx_get64", (long double)((uint64_t)me << 32 | (uint64_t)i),
                    (long double)b64[i]);
    shmem_barrier_all();
}

/* Fetching and, or, xor on the right neighbour's words, which only this PE
 * writes (UCX's shared-memory transports once got these wrong). */
static void fetch_bitwise(shmem_ctx_t ctx, uint64_t *w64, uint32_t *w32)
{
    shmem_ctx_uint64_atomic_set(ctx, w64, 0x1010, right);
    PE_CHECK_EQ("ctx uint64 fetch_and", 0x1010,
                shmem_ctx_uint64_atomic_fetch_and(ctx, w64, 0x0110, right));
    PE_CHECK_EQ("ctx uint64 fetch_or", 0x0010,
                shmem_ctx_uint64_atomic_fetch_or(ctx, w64, 0x0101, right));
    PE_CHECK_EQ("ctx uint64 fetch_xor", 0x0111,
                shmem_ctx_uint64_atomic_fetch_xor(ctx, w64, 0x1001, right));
    PE_CHECK_EQ("ctx uint64 after fetch_and/or/xor", 0x1110,
                shmem_ctx_uint64_atomic_fetch(ctx, w64, right));
    shmem_ctx_uint32_atomic_set(ctx, w32, 0x1010, right);
    PE_CHECK_EQ("ctx uint32 fetch_and", 0x1010,
                shmem_ctx_uint32_atomic_fetch_and(ctx, w32, 0x0110, right));
    PE_CHECK_EQ("ctx uint32 fetch_or", 0x0010,
                shmem_ctx_uint32_atomic_fetch_or(ctx, w32, 0x0101, right));
    PE_CHECK_EQ("ctx uint32 fetch_xor", 0x0111,
                shmem_ctx_uint32_atomic_fetch_xor(ctx, w32, 0x1001, right));
    PE_CHECK_EQ("ctx uint32 after fetch_and/or/xor", 0x1110,
                shmem_ctx_uint32_atomic_fetch(ctx, w32, right));
}

/* AMOs through ctx: every PE adds to PE 0's counter and ORs its bit into PE 0's
 * mask; then each PE runs a private sequence on its right neighbour's counter2. */
static void test_amo(shmem_ctx_t ctx)
{
    static long fetched; /* an nbi fetch target */
    long old, expect = 0;
    int pe;

    counter = 0;
    counter2 = 0;
    bits = 0;
    shmem_barrier_all();
    shmem_ctx_long_atomic_add(ctx, &counter, me + 1, 0);
    old = shmem_ctx_long_atomic_fetch_add(ctx, &counter, 1000, 0);
    PE_CHECK(old >= 0, "ctx fetch_add returned %ld", old);
    shmem_ctx_long_atomic_inc(ctx, &counter, 0);
    (void)shmem_ctx_long_atomic_fetch_inc(ctx, &counter, 0);
    shmem_atomic_add(ctx, &counter, 1, 0); /* C11 generic with a context */
    shmem_ctx_uint64_atomic_or(ctx, &bits, (uint64_t)1 << (me % 64), 0);
    (void)shmem_ctx_uint64_atomic_fetch_xor(ctx, &bits, 0, 0);

    /* on counter2 of the right neighbour: only this PE touches it */
    shmem_ctx_long_atomic_set(ctx, &counter2, 5, right);
    PE_CHECK_EQ("ctx atomic_fetch after set", 5,
                shmem_ctx_long_atomic_fetch(ctx, &counter2, right));
    PE_CHECK_EQ("ctx atomic_swap", 5, shmem_ctx_long_atomic_swap(ctx, &counter2, 9, right));
    PE_CHECK_EQ("ctx atomic_compare_swap (fails)", 9,
                shmem_ctx_long_atomic_compare_swap(ctx, &counter2, 4, 11, right));
    PE_CHECK_EQ("ctx atomic_compare_swap (succeeds)", 9,
                shmem_ctx_long_atomic_compare_swap(ctx, &counter2, 9, 12, right));
    PE_CHECK_EQ("generic ctx atomic_fetch_add", 12,
                shmem_atomic_fetch_add(ctx, &counter2, 3, right));
    PE_CHECK_EQ("generic ctx atomic_fetch", 15, shmem_atomic_fetch(ctx, &counter2, right));
    fetch_bitwise(ctx, &bw64, &bw32);
    fetch_bitwise(ctx, heap_bw64, (uint32_t *)(heap_bw64 + 1));
    fetched = -1;
    shmem_ctx_long_atomic_fetch_add_nbi(ctx, &fetched, &counter2, 5, right);
    shmem_ctx_quiet(ctx);
    PE_CHECK_EQ("ctx atomic_fetch_add_nbi, after ctx_quiet", 15, fetched);
    shmem_barrier_all();
    if (me == 0) {
        for (pe = 0; pe < npes; pe++)
            expect += pe + 1 + 1000 + 1 + 1 + 1;
        PE_CHECK_EQ("counter after every PE's ctx AMOs", expect, counter);
        PE_CHECK_EQ("mask after every PE's ctx or",
                    (long double)(npes >= 64 ? UINT64_MAX : ((uint64_t)1 << npes) - 1),
                    (long double)bits);
    }
    PE_CHECK_EQ("counter2 after the left neighbour's sequence", 20, counter2);
    shmem_barrier_all();
}

/* ctx_fence orders a large put before a flag put to the same PE; the receiver
 * waits for the flag and must then see all of the data. Then put_signal (blocking
 * and nbi, typed and mem) delivers data before its signal. */
static void test_order(shmem_ctx_t ctx)
{
    static long src[4096];
    int i, r;

    for (r = 1; r <= 3; r++) {
        for (i = 0; i < 4096; i++)
            src[i] = r * 100000 + i + me;
        shmem_ctx_long_put(ctx, big, src, 4096, right);
        shmem_ctx_fence(ctx);
        shmem_ctx_long_p(ctx, &flag, r, right);
        shmem_ctx_quiet(ctx);
        pe_test_wait_long_ge(&flag, r, left);
        for (i = 0; i < 4096; i++)
            if (big[i] != r * 100000 + i + left) {
                PE_CHECK(big[i] == r * 100000 + i + left,
                         "ctx_fence round %d: flag seen, data [%d] is %ld, expected %ld", r, i,
                         big[i], (long)(r * 100000 + i + left));
                break;
            }
        shmem_barrier_all(); /* nobody overwrites big before its owner has looked */
    }

    sig = 0;
    shmem_barrier_all();
    for (r = 1; r <= 3; r++) {
        for (i = 0; i < 4096; i++)
            src[i] = -(r * 100000 + i + me);
        if (r == 1)
            shmem_ctx_long_put_signal(ctx, big, src, 4096, &sig, 1, SHMEM_SIGNAL_ADD, right);
        else if (r == 2)
            shmem_ctx_long_put_signal_nbi(ctx, big, src, 4096, &sig, 2, SHMEM_SIGNAL_SET, right);
        else
            shmem_ctx_putmem_signal(ctx, big, src, 4096 * sizeof(long), &sig, 3, SHMEM_SIGNAL_SET,
                                    right);
        shmem_ctx_quiet(ctx);
        shmem_signal_wait_until(&sig, SHMEM_CMP_GE, (uint64_t)r);
        for (i = 0; i < 4096; i++)
            if (big[i] != -(r * 100000 + i + left)) {
                PE_CHECK(big[i] == -(r * 100000 + i + left),
                         "ctx put_signal round %d: signal seen, data [%d] is %ld, expected %ld", r,
                         i, big[i], -(long)(r * 100000 + i + left));
                break;
            }
        shmem_barrier_all();
    }
    flag = 0;
    shmem_barrier_all();
}

/* Contexts of a team: PE numbers are the team's. Team B is PEs 1..n-1 (team PE j
 * is world PE j + 1); team E the even PEs (team PE j is world 2j). */
static void test_team_ctx(void)
{
    pe_team_t world, tb, te;
    shmem_team_config_t cfg = {.num_contexts = 2};
    shmem_ctx_t c1 = SHMEM_CTX_INVALID, c2 = SHMEM_CTX_INVALID, bad = SHMEM_CTX_DEFAULT;
    int rc;

    pe_team_world(&world);
    pe_team_split(&te, &world, 0, 2, (npes + 1) / 2);
    if (npes > 1)
        pe_team_split(&tb, &world, 1, 1, npes - 1);
    else
        pe_team_split(&tb, &world, 0, 1, 1);

    /* a PE outside a team holds SHMEM_TEAM_INVALID: creation fails cleanly */
    if (te.me < 0) {
        rc = shmem_team_create_ctx(te.team, 0, &bad);
        PE_CHECK(rc != 0 && bad == SHMEM_CTX_INVALID,
                 "team_create_ctx(SHMEM_TEAM_INVALID) returned %d and %p", rc, (void *)bad);
    } else {
        rc = shmem_team_create_ctx(te.team, 0, &c1);
        PE_CHECK(rc == 0 && c1 != SHMEM_CTX_INVALID, "%s: team_create_ctx returned %d, %p", te.name,
                 rc, (void *)c1);
        if (rc == 0) {
            int to = (te.me + 1) % te.size, from = (te.me + te.size - 1) % te.size;

            check_team_of(c1, te.team, te.name);
            lbuf[1] = -1;
            PE_CHECK_EQ("team_sync", 0, shmem_team_sync(te.team));
            shmem_ctx_long_p(c1, &lbuf[1], 500 + te.me, to); /* team PE number */
            shmem_ctx_quiet(c1);
            shmem_team_sync(te.team);
            PE_CHECK(lbuf[1] == 500 + from,
                     "%s: ctx put to team PE %d: this PE (team PE %d) got %ld, expected %d",
                     te.name, to, te.me, lbuf[1], 500 + from);
            PE_CHECK_EQ("team ctx g from team PE 0", 500 + te.size - 1,
                        shmem_ctx_long_g(c1, &lbuf[1], 0));
            /* put_signal through the team context: team PE numbers too */
            shmem_team_sync(te.team);
            lbuf[2] = 600 + te.me;
            shmem_ctx_long_put_signal(c1, &lbuf[3], &lbuf[2], 1, &tsig, 1, SHMEM_SIGNAL_ADD, to);
            shmem_ctx_quiet(c1);
            shmem_signal_wait_until(&tsig, SHMEM_CMP_GE, 1);
            PE_CHECK(lbuf[3] == 600 + from,
                     "%s: ctx put_signal to team PE %d: this PE (team PE %d) got %ld, expected %d",
                     te.name, to, te.me, lbuf[3], 600 + from);
            shmem_team_sync(te.team);
            shmem_ctx_destroy(c1);
        }
    }
    shmem_barrier_all();

    /* team B, made with num_contexts 2: two contexts; AMOs to team PE 0 (world 1) */
    if (tb.me >= 0) {
        shmem_team_t t2 = SHMEM_TEAM_INVALID;
        shmem_team_config_t got = {0};

        rc = shmem_team_split_strided(tb.team, 0, 1, tb.size, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &t2);
        PE_CHECK_EQ("split with num_contexts", 0, rc);
        PE_CHECK_EQ("get_config return", 0,
                    shmem_team_get_config(t2, SHMEM_TEAM_NUM_CONTEXTS, &got));
        PE_CHECK_EQ("get_config num_contexts", 2, got.num_contexts);
        rc = shmem_team_create_ctx(t2, SHMEM_CTX_PRIVATE, &c1);
        PE_CHECK(rc == 0 && c1 != SHMEM_CTX_INVALID, "team B: first team_create_ctx: %d", rc);
        rc = shmem_team_create_ctx(t2, SHMEM_CTX_SERIALIZED, &c2);
        PE_CHECK(rc == 0 && c2 != SHMEM_CTX_INVALID, "team B: second team_create_ctx: %d", rc);
        /* num_contexts 2 with the mask bit: a third, while both live, fails */
        bad = SHMEM_CTX_DEFAULT;
        rc = shmem_team_create_ctx(t2, 0, &bad);
        PE_CHECK(rc != 0 && bad == SHMEM_CTX_INVALID,
                 "team B (num_contexts 2): third team_create_ctx returned %d and %p, expected "
                 "non-zero and SHMEM_CTX_INVALID",
                 rc, (void *)bad);
        if (bad != SHMEM_CTX_INVALID && bad != SHMEM_CTX_DEFAULT)
            shmem_ctx_destroy(bad);
        if (c1 != SHMEM_CTX_INVALID && c2 != SHMEM_CTX_INVALID) {
            check_team_of(c2, t2, "team B, second context");
            counter = 0;
            shmem_team_sync(t2);
            shmem_ctx_long_atomic_add(c1, &counter, 1, 0);
            (void)shmem_ctx_long_atomic_fetch_add(c2, &counter, 10, 0);
            shmem_ctx_quiet(c1);
            shmem_ctx_quiet(c2);
            shmem_team_sync(t2);
            PE_CHECK_EQ("team B: counter on team PE 0, fetched through a team context",
                        11L * tb.size, shmem_ctx_long_atomic_fetch(c1, &counter, 0));
            if (tb.me == 0)
                PE_CHECK_EQ("team B: counter on team PE 0 (world PE 1)", 11L * tb.size, counter);
            shmem_team_sync(t2);
        }
        shmem_ctx_destroy(c2);
        shmem_ctx_destroy(c1);
        shmem_team_destroy(t2);

        /* num_contexts 0 with the mask bit: the program asks for no contexts,
         * so none is made (without the bit there is no limit: team E above) */
        cfg.num_contexts = 0;
        t2 = SHMEM_TEAM_INVALID;
        rc = shmem_team_split_strided(tb.team, 0, 1, tb.size, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &t2);
        PE_CHECK_EQ("split with num_contexts 0", 0, rc);
        bad = SHMEM_CTX_DEFAULT;
        rc = shmem_team_create_ctx(t2, 0, &bad);
        PE_CHECK(rc != 0 && bad == SHMEM_CTX_INVALID,
                 "team made with num_contexts 0: team_create_ctx returned %d and %p, expected "
                 "non-zero and SHMEM_CTX_INVALID",
                 rc, (void *)bad);
        if (bad != SHMEM_CTX_INVALID && bad != SHMEM_CTX_DEFAULT)
            shmem_ctx_destroy(bad);
        shmem_team_destroy(t2);
    }
    pe_team_free(&tb);
    pe_team_free(&te);
    shmem_barrier_all();
}

/* SHMEM_THREAD_MULTIPLE: each thread makes a private context and puts (blocking
 * and nbi) into its own slots on every PE, quiets its context, and fetch_adds on a
 * context all threads share. */
static shmem_ctx_t shared_ctx;
static int thread_fail[THREADS];

static void *worker(void *arg)
{
    int t = (int)(long)arg, i;
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;

    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) {
        thread_fail[t]++;
        return NULL;
    }
    for (i = 0; i < ITERS; i++) {
        int pe = (me + t + i) % npes;
        long *v = &tvals[t][i];

        *v = ((long)me << 40) | ((long)t << 32) | i;
        if (i % 2)
            shmem_ctx_long_put(ctx, &slots[me][t][i], v, 1, pe);
        else
            shmem_ctx_long_put_nbi(ctx, &slots[me][t][i], v, 1, pe);
        if (shmem_ctx_long_atomic_fetch_add(shared_ctx, &tcounters[t], 1, pe) < 0)
            thread_fail[t]++;
        if (i % 32 == 31) {
            long back = -1;

            shmem_ctx_quiet(ctx);
            shmem_ctx_long_get(ctx, &back, &slots[me][t][i], 1, pe);
            if (back != *v)
                thread_fail[t]++;
        }
    }
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);
    return NULL;
}

static void test_threads(int provided)
{
    pthread_t th[THREADS];
    int t, i, pe;

    if (provided != SHMEM_THREAD_MULTIPLE) {
        if (me == 0)
            printf("note: thread level %d: no threaded part\n", provided);
        return;
    }
    PE_CHECK_EQ("shared ctx_create", 0, shmem_ctx_create(0, &shared_ctx));
    shmem_barrier_all();
    for (t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)(long)t);
    for (t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        PE_CHECK_EQ("failed checks inside a thread", 0, thread_fail[t]);
    }
    shmem_ctx_quiet(shared_ctx);
    shmem_barrier_all();
    for (t = 0; t < THREADS; t++) {
        long expect = 0, bad = 0;

        for (pe = 0; pe < npes; pe++)
            for (i = 0; i < ITERS; i++)
                if ((pe + t + i) % npes == me) {
                    long v = ((long)pe << 40) | ((long)t << 32) | i;

                    expect++;
                    if (slots[pe][t][i] != v && bad++ == 0)
                        PE_CHECK(slots[pe][t][i] == v,
                                 "thread %d of PE %d, put %d: %ld, expected %ld (the first "
                                 "wrong slot)",
                                 t, pe, i, slots[pe][t][i], v);
                }
        PE_CHECK(tcounters[t] == expect, "thread %d's shared-context counter: %ld, expected %ld", t,
                 tcounters[t], expect);
    }
    shmem_ctx_destroy(shared_ctx);
    shmem_barrier_all();
}

int main(void)
{
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    int provided = -1;

    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    pe_test_upto("pe_ctx", MAXPE);

    heap_bw64 = shmem_calloc(2, sizeof(uint64_t));
    PE_CHECK(heap_bw64 != NULL, "shmem_calloc(2, %zu) is NULL", sizeof(uint64_t));
    if (heap_bw64 == NULL)
        return pe_test_finish("pe_ctx");
    test_options();
    test_many();
    PE_CHECK_EQ("ctx_create", 0, shmem_ctx_create(SHMEM_CTX_SERIALIZED, &ctx));
    test_rma(ctx);
    test_amo(ctx);
    test_order(ctx);
    test_rma(SHMEM_CTX_DEFAULT);
    test_amo(SHMEM_CTX_DEFAULT);
    shmem_ctx_destroy(ctx);
    test_team_ctx();
    test_threads(provided);
    shmem_free(heap_bw64);
    return pe_test_finish("pe_ctx");
}
