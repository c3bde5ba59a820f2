/* The deprecated active-set collectives: shmem_barrier, shmem_sync (four
 * arguments), broadcast32/64, collect32/64, fcollect32/64, alltoall32/64,
 * alltoalls32/64 and the typed _to_all reductions, on active sets of all PEs, the
 * even PEs (logPE_stride 1) while the odd ones run the same on theirs, a sub-range
 * (PE_start 1), every fourth PE (logPE_stride 2) and the last PE alone. After every
 * call the local pSync must be back at SHMEM_SYNC_VALUE; several calls run back to
 * back on one pSync. Every value is compared with a model computed here; the
 * root's dest of a broadcast must stay untouched, as must the element after every
 * dest. */
#include "pe_reduce.h"
#include "pe_test.h"
#include "shoal_types.h"

#include <stdint.h>

#define NB 40 /* the larger count */
#define NS 3  /* elements per pair of the alltoalls */
#define MAXPE 64
#define ELEMS (MAXPE * NB * 3 + 64)

static long psync[SHMEM_SYNC_SIZE];             /* the collectives' */
static long psync_bar[SHMEM_BARRIER_SYNC_SIZE]; /* the barriers between them */
static long psync_red[SHMEM_REDUCE_SYNC_SIZE];
static long double pwrk[NB / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static uint64_t src[ELEMS], dst[ELEMS]; /* symmetric: global */
static long marks[MAXPE];
static long double rsrc[NB + 1], rdst[NB + 1]; /* reductions, as bytes of any type */

static int me, npes;
static struct {
    const char *name;
    int start, logs, size; /* the active set */
    int k;                 /* this PE's index in it, -1 outside */
} A;
static char what[160];

static int world_of(int k)
{
    return A.start + k * (1 << A.logs); /* k may be -1 (no root): no shift of a negative */
}

static void check_psync(const long *ps, int n, const char *after)
{
    int i;

    for (i = 0; i < n; i++)
        if (ps[i] != SHMEM_SYNC_VALUE) {
            PE_CHECK(ps[i] == SHMEM_SYNC_VALUE,
                     "%s, %s: pSync[%d] is %ld after the call, expected SHMEM_SYNC_VALUE (%ld)",
                     after, A.name, i, ps[i], (long)SHMEM_SYNC_VALUE);
            return;
        }
}

/* A barrier over the set on its own pSync, between the tests' steps. */
static void set_barrier(void)
{
    shmem_barrier(A.start, A.logs, A.size, psync_bar);
}

/* Values: distinct per world PE and element, exact in 32 bits. */
static uint64_t val(int pe, size_t i, int salt)
{
    return 1 + (uint64_t)pe * 100000 + i * 7 + (uint64_t)salt * 1000000;
}

#define SENT64 UINT64_MAX
#define SENT32 UINT32_MAX

/* Reads element i of an array of 32- or 64-bit elements. */
static uint64_t at(const void *arr, int bits, size_t i)
{
    return bits == 32 ? ((const uint32_t *)arr)[i] : ((const uint64_t *)arr)[i];
}

static void fill(void *arr, int bits, size_t i, uint64_t v)
{
    if (bits == 32)
        ((uint32_t *)arr)[i] = (uint32_t)v;
    else
        ((uint64_t *)arr)[i] = v;
}

/* Source: val(me, i, salt); dest: the sentinel; then a barrier so nobody writes
 * into a dest before it is reset. */
static void prepare(int bits, int salt)
{
    size_t i;

    for (i = 0; i < ELEMS / 2; i++) {
        fill(src, bits, i, val(me, i, salt));
        fill(dst, bits, i, bits == 32 ? SENT32 : SENT64);
    }
    set_barrier();
}

/* dst[j] for j < len must be want[j] where has[j], the sentinel elsewhere. */
static void check_dst(int bits, size_t len, uint64_t (*want)(size_t j, int *has))
{
    size_t j, bad = 0, first = 0;
    uint64_t wb = 0, gb = 0, sent = bits == 32 ? SENT32 : SENT64;

    for (j = 0; j < len; j++) {
        int has = 0;
        uint64_t w = want(j, &has), g = at(dst, bits, j);

        if (!has)
            w = sent;
        else if (bits == 32)
            w = (uint32_t)w;
        if (g != w && bad++ == 0) {
            first = j;
            wb = w;
            gb = g;
        }
    }
    PE_CHECK(bad == 0, "%s, %s: %zu of %zu elements wrong, first [%zu]: expected %llu, found %llu",
             what, A.name, bad, len, first, (unsigned long long)wb, (unsigned long long)gb);
}

static int cur_root, cur_salt;
static size_t cur_n, cur_dst, cur_sst;

static uint64_t want_bcast(size_t j, int *has)
{
    *has = j < cur_n && A.k != cur_root;
    return val(world_of(cur_root), j, cur_salt);
}

static size_t collect_count(int k)
{
    return (size_t)(k * 5 + 3) % 6;
}

static uint64_t want_collect(size_t j, int *has)
{
    int k;

    for (k = 0; k < A.size; k++) {
        size_t c = cur_n ? cur_n : collect_count(k);

        if (j < c) {
            *has = 1;
            return val(world_of(k), j, cur_salt);
        }
        j -= c;
    }
    *has = 0;
    return 0;
}

static uint64_t want_alltoalls(size_t j, int *has)
{
    size_t e = j / cur_dst, k = cur_n ? e / cur_n : 0, i = cur_n ? e % cur_n : 0;

    *has = cur_n > 0 && j % cur_dst == 0 && k < (size_t)A.size;
    return *has ? val(world_of((int)k), ((size_t)A.k * cur_n + i) * cur_sst, cur_salt) : 0;
}

#define AS A.start, A.logs, A.size

/* Marks put before a barrier (plain puts, which shmem_barrier completes) or before
 * shmem_sync (after quiet) are all there after it. pSync is checked before any PE
 * can start the next call on it: a barrier on another pSync stands between. Then
 * barriers back to back on one pSync, which the specification allows. */
static void test_barriers(int set)
{
    int r, k;

    for (r = 0; r < 4; r++) {
        long e = set * 10 + r + 1;

        for (k = 0; k < A.size; k++)
            shmem_long_p(&marks[A.k], e * 100 + A.k, world_of(k));
        if (r < 2) {
            shmem_barrier(AS, psync);
            snprintf(what, sizeof(what), "shmem_barrier");
        } else {
            shmem_quiet();
            if (r == 2)
                shmem_sync(A.start, A.logs, A.size, psync); /* the C11 macro, four arguments */
            else
                (shmem_sync)(AS, psync);
            snprintf(what, sizeof(what), "shmem_sync");
        }
        check_psync(psync, SHMEM_BARRIER_SYNC_SIZE, what);
        for (k = 0; k < A.size; k++)
            PE_CHECK(marks[k] == e * 100 + k, "%s, %s: mark of member %d is %ld, expected %ld",
                     what, A.name, k, marks[k], e * 100 + k);
        set_barrier(); /* nobody marks again before all have looked */
    }
    for (r = 0; r < 5; r++)
        shmem_barrier(AS, psync);
    (shmem_sync)(AS, psync);
    set_barrier();
    check_psync(psync, SHMEM_BARRIER_SYNC_SIZE, "barriers back to back");
    set_barrier();
}

static void test_broadcast(int bits)
{
    static const size_t counts[] = {0, 1, NB};
    int r, c;

    for (c = 0; c < 3; c++)
        for (r = 0; r < A.size; r++) {
            cur_root = r;
            cur_n = counts[c];
            cur_salt = 1 + r + c;
            prepare(bits, cur_salt);
            snprintf(what, sizeof(what), "broadcast%d, %zu from root %d", bits, cur_n, r);
            if (bits == 32)
                shmem_broadcast32(dst, src, cur_n, r, AS, psync);
            else
                shmem_broadcast64(dst, src, cur_n, r, AS, psync);
            check_psync(psync, SHMEM_BCAST_SYNC_SIZE, what);
            check_dst(bits, NB + 4, want_bcast);
        }
}

static void test_collect(int bits)
{
    size_t tot = 0;
    int k, c;

    for (k = 0; k < A.size; k++)
        tot += collect_count(k);
    cur_salt = 5;
    cur_n = 0;
    prepare(bits, cur_salt);
    snprintf(what, sizeof(what), "collect%d, %zu here", bits, collect_count(A.k));
    if (bits == 32)
        shmem_collect32(dst, src, collect_count(A.k), AS, psync);
    else
        shmem_collect64(dst, src, collect_count(A.k), AS, psync);
    check_psync(psync, SHMEM_COLLECT_SYNC_SIZE, what);
    check_dst(bits, tot + 4, want_collect);
    for (c = 0; c < 3; c++) {
        cur_n = c == 2 ? NB : (size_t)c;
        cur_salt = 6 + c;
        prepare(bits, cur_salt);
        snprintf(what, sizeof(what), "fcollect%d, %zu each", bits, cur_n);
        if (bits == 32)
            shmem_fcollect32(dst, src, cur_n, AS, psync);
        else
            shmem_fcollect64(dst, src, cur_n, AS, psync);
        check_psync(psync, SHMEM_COLLECT_SYNC_SIZE, what);
        if (cur_n) {
            check_dst(bits, cur_n * A.size + 4, want_collect);
        } else {
            cur_root = -1;
            check_dst(bits, 4, want_bcast); /* cur_n 0: nothing anywhere */
        }
    }
}

static void test_alltoall(int bits)
{
    static const ptrdiff_t strides[][2] = {{1, 1}, {3, 1}, {1, 3}, {2, 3}};
    int c;

    cur_dst = cur_sst = 1;
    for (c = 0; c < 3; c++) {
        cur_n = c == 2 ? 5 : (size_t)c;
        cur_salt = 9 + c;
        prepare(bits, cur_salt);
        snprintf(what, sizeof(what), "alltoall%d, %zu per PE", bits, cur_n);
        if (bits == 32)
            shmem_alltoall32(dst, src, cur_n, AS, psync);
        else
            shmem_alltoall64(dst, src, cur_n, AS, psync);
        check_psync(psync, SHMEM_ALLTOALL_SYNC_SIZE, what);
        check_dst(bits, (cur_n ? cur_n : 1) * A.size + 4, want_alltoalls);
    }
    for (c = 0; c < 4; c++) {
        cur_n = NS;
        cur_dst = (size_t)strides[c][0];
        cur_sst = (size_t)strides[c][1];
        cur_salt = 13 + c;
        prepare(bits, cur_salt);
        snprintf(what, sizeof(what), "alltoalls%d, dst %td sst %td", bits, strides[c][0],
                 strides[c][1]);
        if (bits == 32)
            shmem_alltoalls32(dst, src, strides[c][0], strides[c][1], NS, AS, psync);
        else
            shmem_alltoalls64(dst, src, strides[c][0], strides[c][1], NS, AS, psync);
        check_psync(psync, SHMEM_ALLTOALLS_SYNC_SIZE, what);
        check_dst(bits, NS * A.size * cur_dst + 4, want_alltoalls);
    }
    cur_dst = cur_sst = 1;
}

/* Back to back on one pSync, no barrier between: three broadcasts from different
 * roots into disjoint parts of dest, a collect after them, then an fcollect. */
static void test_back_to_back(void)
{
    int r, j;

    prepare(64, 20);
    snprintf(what, sizeof(what), "back-to-back broadcast64");
    for (r = 0; r < 3; r++)
        shmem_broadcast64(dst + r * (NB + 1), src + r, NB, (r * 2) % A.size, AS, psync);
    shmem_collect64(dst + 3 * (NB + 1), src, collect_count(A.k), AS, psync);
    shmem_fcollect64(dst + 4 * (NB + 1) + (size_t)A.size * 6, src, 2, AS, psync);
    check_psync(psync, SHMEM_SYNC_SIZE, "back-to-back calls");
    for (r = 0; r < 3; r++) {
        int root = (r * 2) % A.size;

        for (j = 0; j < NB; j++) {
            uint64_t w = A.k == root ? SENT64 : val(world_of(root), (size_t)(j + r), 20);

            if (dst[r * (NB + 1) + j] != w) {
                PE_CHECK(dst[r * (NB + 1) + j] == w,
                         "%s, %s: broadcast %d (root %d) [%d]: expected %llu, found %llu", what,
                         A.name, r, root, j, (unsigned long long)w,
                         (unsigned long long)dst[r * (NB + 1) + j]);
                break;
            }
        }
    }
    {
        size_t off = 3 * (NB + 1), n = 0;
        int k;

        for (k = 0; k < A.size; k++)
            for (j = 0; j < (int)collect_count(k); j++, n++)
                PE_CHECK(dst[off + n] == val(world_of(k), (size_t)j, 20),
                         "back-to-back collect64, %s: [%zu]: expected %llu, found %llu", A.name, n,
                         (unsigned long long)val(world_of(k), (size_t)j, 20),
                         (unsigned long long)dst[off + n]);
        off = 4 * (NB + 1) + (size_t)A.size * 6;
        for (k = 0; k < A.size; k++)
            for (j = 0; j < 2; j++)
                PE_CHECK(dst[off + 2 * k + j] == val(world_of(k), (size_t)j, 20),
                         "back-to-back fcollect64, %s: [%d]: expected %llu, found %llu", A.name,
                         2 * k + j, (unsigned long long)val(world_of(k), (size_t)j, 20),
                         (unsigned long long)dst[off + 2 * k + j]);
    }
    set_barrier();
}

/* One _to_all reduction: member inputs (by the set index) in source, or in dest in
 * place; the serial result computed here; pSync back at SHMEM_SYNC_VALUE after. */
#define TOALL_CASE(T_, NAME, OPN, OPNAME, inplace, nred)                                           \
    do {                                                                                           \
        T_ *s_ = (T_ *)rsrc, *d_ = (T_ *)rdst, *in_ = (inplace) ? d_ : s_, want_;                  \
        int i_, bad_ = 0;                                                                          \
                                                                                                   \
        for (i_ = 0; i_ < (nred); i_++) {                                                          \
            in_[i_] = INPUT_##OPN(T_, A.k, (size_t)i_);                                            \
            if (!(inplace))                                                                        \
                d_[i_] = (T_)-3;                                                                   \
        }                                                                                          \
        d_[(nred)] = (T_)-3;                                                                       \
        set_barrier();                                                                             \
        snprintf(what, sizeof(what), "shmem_%s_%s_to_all, nreduce %d%s", #NAME, #OPNAME, (nred),   \
                 (inplace) ? ", in place" : "");                                                   \
        shmem_##NAME##_##OPNAME##_to_all(d_, in_, (nred), AS, (T_ *)pwrk, psync_red);              \
        check_psync(psync_red, SHMEM_REDUCE_SYNC_SIZE, what);                                      \
        for (i_ = 0; i_ < (nred); i_++) {                                                          \
            PE_REDUCE_WANT(T_, OPN, A.size, i_, want_);                                            \
            if (!(d_[i_] == want_) && bad_++ == 0)                                                 \
                PE_CHECK(d_[i_] == want_, "%s, %s: [%d]: expected %Lg%+Lgi, found %Lg%+Lgi", what, \
                         A.name, i_, creall((long double _Complex)want_),                          \
                         cimagl((long double _Complex)want_),                                      \
                         creall((long double _Complex)d_[i_]),                                     \
                         cimagl((long double _Complex)d_[i_]));                                    \
        }                                                                                          \
        PE_CHECK(d_[(nred)] == (T_)-3, "%s, %s: the element after dest was written", what,         \
                 A.name);                                                                          \
        set_barrier(); /* nobody changes its source while another may read it */                   \
    } while (0)

#define TOALL_SIZES(T_, NAME, OPN, OPNAME)                                                         \
    do {                                                                                           \
        TOALL_CASE(T_, NAME, OPN, OPNAME, 0, 1);                                                   \
        TOALL_CASE(T_, NAME, OPN, OPNAME, 0, 7);                                                   \
        TOALL_CASE(T_, NAME, OPN, OPNAME, 1, 7);                                                   \
        TOALL_CASE(T_, NAME, OPN, OPNAME, 0, NB);                                                  \
    } while (0)

#define DEFINE_BIT(T_, NAME)                                                                       \
    static void toall_bit_##NAME(void)                                                             \
    {                                                                                              \
        TOALL_SIZES(T_, NAME, 0, and);                                                             \
        TOALL_SIZES(T_, NAME, 1, or);                                                              \
        TOALL_SIZES(T_, NAME, 2, xor);                                                             \
    }
SHOAL_TOALL_BIT_TYPES(DEFINE_BIT)

#define DEFINE_MINMAX(T_, NAME)                                                                    \
    static void toall_minmax_##NAME(void)                                                          \
    {                                                                                              \
        TOALL_SIZES(T_, NAME, 3, max);                                                             \
        TOALL_SIZES(T_, NAME, 4, min);                                                             \
    }
SHOAL_TOALL_MINMAX_TYPES(DEFINE_MINMAX)

/* sum and prod; the complex types use their own inputs (ops 7 and 8). */
#define DEFINE_ARITH_REAL(T_, NAME)                                                                \
    static void toall_arith_real_##NAME(void)                                                      \
    {                                                                                              \
        TOALL_SIZES(T_, NAME, 5, sum);                                                             \
        TOALL_SIZES(T_, NAME, 6, prod);                                                            \
    }
#define DEFINE_ARITH_COMPLEX(T_, NAME)                                                             \
    static void toall_arith_complex_##NAME(void)                                                   \
    {                                                                                              \
        TOALL_SIZES(T_, NAME, 7, sum);                                                             \
        TOALL_SIZES(T_, NAME, 8, prod);                                                            \
    }
#define SELECT_ARITH(T_, NAME) SELECT_ARITH_##NAME(T_, NAME)
#define SELECT_ARITH_float DEFINE_ARITH_REAL
#define SELECT_ARITH_double DEFINE_ARITH_REAL
#define SELECT_ARITH_longdouble DEFINE_ARITH_REAL
#define SELECT_ARITH_short DEFINE_ARITH_REAL
#define SELECT_ARITH_int DEFINE_ARITH_REAL
#define SELECT_ARITH_long DEFINE_ARITH_REAL
#define SELECT_ARITH_longlong DEFINE_ARITH_REAL
#define SELECT_ARITH_complexd DEFINE_ARITH_COMPLEX
#define SELECT_ARITH_complexf DEFINE_ARITH_COMPLEX
SHOAL_TOALL_ARITH_TYPES(SELECT_ARITH)

static void run_set(int set)
{
    if (A.k < 0)
        return;
    test_barriers(set);
    test_broadcast(32);
    test_broadcast(64);
    test_collect(32);
    test_collect(64);
    test_alltoall(32);
    test_alltoall(64);
    test_back_to_back();
#define CALL(T_, NAME) toall_bit_##NAME();
    SHOAL_TOALL_BIT_TYPES(CALL)
#undef CALL
#define CALL(T_, NAME) toall_minmax_##NAME();
    SHOAL_TOALL_MINMAX_TYPES(CALL)
#undef CALL
#define CALL(T_, NAME) CALL_##NAME();
#define CALL_float toall_arith_real_float
#define CALL_double toall_arith_real_double
#define CALL_longdouble toall_arith_real_longdouble
#define CALL_short toall_arith_real_short
#define CALL_int toall_arith_real_int
#define CALL_long toall_arith_real_long
#define CALL_longlong toall_arith_real_longlong
#define CALL_complexd toall_arith_complex_complexd
#define CALL_complexf toall_arith_complex_complexf
    SHOAL_TOALL_ARITH_TYPES(CALL)
#undef CALL
    check_psync(psync_bar, SHMEM_BARRIER_SYNC_SIZE, "the barriers");
}

/* Set s for this PE: the set it belongs to, or none (k -1). */
static void pick_set(int s)
{
    switch (s) {
    case 0:
        A.name = "all PEs";
        A.start = 0, A.logs = 0, A.size = npes;
        break;
    case 1: /* even PEs, or odd PEs: both at once */
        A.name = me % 2 ? "odd PEs" : "even PEs";
        A.start = me % 2, A.logs = 1, A.size = (npes - me % 2 + 1) / 2;
        break;
    case 2: /* PEs 1 .. n-1 (PE 0 waits) */
        A.name = "PEs 1..n-1";
        A.start = 1, A.logs = 0, A.size = npes - 1;
        break;
    case 3: /* every fourth PE from 0 */
        A.name = "every fourth PE";
        A.start = 0, A.logs = 2, A.size = (npes + 3) / 4;
        break;
    default: /* the last PE alone (a stride, but one PE) */
        A.name = "the last PE alone";
        A.start = npes - 1, A.logs = 3, A.size = 1;
        break;
    }
    A.k = -1;
    if (A.size > 0 && me >= A.start && (me - A.start) % (1 << A.logs) == 0 &&
        (me - A.start) >> A.logs < A.size)
        A.k = (me - A.start) >> A.logs;
}

int main(void)
{
    int s, i;

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    pe_test_upto("pe_active_set", MAXPE);
    for (i = 0; i < SHMEM_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    for (i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        psync_bar[i] = SHMEM_SYNC_VALUE;
    for (i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync_red[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all(); /* every pSync initialised before any PE uses one */

    for (s = 0; s < 5; s++) {
        pick_set(s);
        run_set(s);
        shmem_barrier_all();
    }
    return pe_test_finish("pe_active_set");
}
