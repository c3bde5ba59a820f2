/* Every AMO over every type of its family, with exact expected values: set/fetch,
 * swap, compare_swap that succeeds and fails, inc/fetch_inc, add/fetch_add (and
 * wrap-around), and/or/xor on known patterns, the fetching _nbi forms (read after
 * shmem_quiet) and the deprecated names. Each PE works on its own slot at every PE,
 * itself included, in the heap, the data and the bss segment, so every result is
 * exact; afterwards each PE checks locally what the others left in its slots, and
 * that the guard element after each slot was never touched. Every sequence runs
 * through the typed names and again through the C11 generic ones. */
#include "pe_test.h"
#include "shoal_types.h"

#include <stdint.h>

#define MAXPE 64 /* slots in each array */
#define BATCH 16 /* fetch_add_nbi calls outstanding before one quiet */

/* The slot of (PE, family) in each array; the odd element after it is a guard. */
enum {
    V_EXT,
    V_STD,
    V_BIT,
    V_DEPR,
    V_DEPR_EXT, /* typed names */
    V_GEXT,
    V_GSTD,
    V_GBIT,
    V_GDEPR,
    V_GDEPR_EXT, /* C11 generic names */
    NV
};
#define SLOT(p, v) (((size_t)(p)*NV + (size_t)(v)) * 2)
#define NSLOTS (MAXPE * NV * 2)

static int me, npes;
static char ctx[192]; /* type, family, region and target of the current checks */
static const char *const region_names[3] = {"heap", "data", "bss"};

/* Compares in T, prints as long double (exact for every AMO type on x86-64). */
#define CHECK_T(T, op, want, got)                                                                  \
    do {                                                                                           \
        T w_ = (T)(want), g_ = (T)(got);                                                           \
        PE_CHECK(w_ == g_, "%s: %s: expected %.21Lg, found %.21Lg", ctx, (op), (long double)w_,    \
                 (long double)g_);                                                                 \
    } while (0)

/* Values, as functions of the PE that runs the sequence and its target. */
static long long ext_a(int src, int tgt)
{
    return src * 10 + tgt + 1;
}
static long long ext_b(int src)
{
    return -(long long)(src + 2);
} /* all high bits set */
static long long ext_a2(int src, int tgt)
{
    return src + 2 * tgt + 40;
}
static long long ext_fin(int src, int tgt)
{
    return -(long long)(src * 16 + tgt + 3);
}
static long long std_b(int src, int tgt)
{
    return src * 100 + tgt * 3 + 7;
}
static long long std_fin(int src, int tgt)
{
    return std_b(src, tgt) + 1000 + 11 + BATCH;
}

/* The bitwise sequence as a table, so that the expected value is replayed by one
 * model for the PE that runs it and for the PE that checks it. */
enum { B_SET, B_FAND, B_AND, B_FOR, B_OR, B_FXOR, B_XOR, B_FAND_NBI, B_FOR_NBI, B_FXOR_NBI };
static const int bit_ops[] = {B_SET,  B_FAND, B_AND,      B_FOR,     B_OR,
                              B_FXOR, B_XOR,  B_FAND_NBI, B_FOR_NBI, B_FXOR_NBI};
#define NBITOPS ((int)(sizeof(bit_ops) / sizeof(bit_ops[0])))
static const char *const bit_names[] = {
    "atomic_set",          "atomic_fetch_and",    "atomic_and", "atomic_fetch_or",
    "atomic_or",           "atomic_fetch_xor",    "atomic_xor", "atomic_fetch_and_nbi",
    "atomic_fetch_or_nbi", "atomic_fetch_xor_nbi"};

static uint64_t bit_operand(int src, int tgt, int k)
{
    uint64_t x = 0x9E3779B97F4A7C15ull * (uint64_t)(k + 1) + ((uint64_t)src << 20) + (uint64_t)tgt;

    return x ^ (x >> 29) ^ ((uint64_t)k << 56);
}

static uint64_t bit_apply(int op, uint64_t v, uint64_t m)
{
    switch (op) {
    case B_SET:
        return m;
    case B_FAND:
    case B_AND:
    case B_FAND_NBI:
        return v & m;
    case B_FOR:
    case B_OR:
    case B_FOR_NBI:
        return v | m;
    default:
        return v ^ m;
    }
}

static uint64_t bit_fin(int src, int tgt)
{
    uint64_t v = 0;
    int k;

    for (k = 0; k < NBITOPS; k++)
        v = bit_apply(bit_ops[k], v, bit_operand(src, tgt, k));
    return v;
}

/* The symmetric arrays outside the heap: one initialised (data), one not (bss). */
#define DEFINE_STORAGE(T, NAME)                                                                    \
    static T data_##NAME[NSLOTS] = {(T)1};                                                         \
    static T bss_##NAME[NSLOTS];
SHOAL_AMO_EXT_ALL_TYPES(DEFINE_STORAGE)

/* The sequences take the routines as arguments, so that the typed and the generic
 * names (and the deprecated ones) run the same steps. */

/* fetch, set, swap and their _nbi forms; ends with the slot at ext_fin. */
#define DEFINE_EXT(T, NAME, TAG, SET, FETCH, SWAP, FETCH_NBI, SWAP_NBI)                            \
    static void TAG##_##NAME(T *d, int pe)                                                         \
    {                                                                                              \
        T a = (T)ext_a(me, pe), b = (T)ext_b(me), a2 = (T)ext_a2(me, pe), f;                       \
                                                                                                   \
        SET(d, a, pe);                                                                             \
        CHECK_T(T, #FETCH " after " #SET, a, FETCH(d, pe));                                        \
        CHECK_T(T, #SWAP " returns the old value", a, SWAP(d, b, pe));                             \
        CHECK_T(T, #FETCH " after " #SWAP, b, FETCH(d, pe));                                       \
        f = (T)0;                                                                                  \
        FETCH_NBI(&f, d, pe);                                                                      \
        shmem_quiet();                                                                             \
        CHECK_T(T, #FETCH_NBI " fetched, after quiet", b, f);                                      \
        f = (T)0;                                                                                  \
        SWAP_NBI(&f, d, a2, pe);                                                                   \
        shmem_quiet();                                                                             \
        CHECK_T(T, #SWAP_NBI " fetched, after quiet", b, f);                                       \
        CHECK_T(T, #FETCH " after " #SWAP_NBI, a2, FETCH(d, pe));                                  \
        CHECK_T(T, "last " #SWAP " returns the old value", a2, SWAP(d, (T)ext_fin(me, pe), pe));   \
    }
#define TYPED_EXT(T, NAME)                                                                         \
    DEFINE_EXT(T, NAME, ext, shmem_##NAME##_atomic_set, shmem_##NAME##_atomic_fetch,               \
               shmem_##NAME##_atomic_swap, shmem_##NAME##_atomic_fetch_nbi,                        \
               shmem_##NAME##_atomic_swap_nbi)
#define GENERIC_EXT(T, NAME)                                                                       \
    DEFINE_EXT(T, NAME, gext, shmem_atomic_set, shmem_atomic_fetch, shmem_atomic_swap,             \
               shmem_atomic_fetch_nbi, shmem_atomic_swap_nbi)
SHOAL_AMO_EXT_ALL_TYPES(TYPED_EXT)
SHOAL_AMO_EXT_ALL_TYPES(GENERIC_EXT)

/* The deprecated set, fetch, swap: the same results; ends at ext_fin. */
#define DEFINE_DEPR_EXT(T, NAME, TAG, SET, FETCH, SWAP)                                            \
    static void TAG##_##NAME(T *d, int pe)                                                         \
    {                                                                                              \
        T a = (T)ext_a(me, pe), b = (T)ext_b(me);                                                  \
                                                                                                   \
        SET(d, a, pe);                                                                             \
        CHECK_T(T, #FETCH " after " #SET, a, FETCH(d, pe));                                        \
        CHECK_T(T, #SWAP " returns the old value", a, SWAP(d, b, pe));                             \
        CHECK_T(T, #FETCH " after " #SWAP, b, FETCH(d, pe));                                       \
        CHECK_T(T, "last " #SWAP " returns the old value", b, SWAP(d, (T)ext_fin(me, pe), pe));    \
    }
#define TYPED_DEPR_EXT(T, NAME)                                                                    \
    DEFINE_DEPR_EXT(T, NAME, depr_ext, shmem_##NAME##_set, shmem_##NAME##_fetch,                   \
                    shmem_##NAME##_swap)
#define GENERIC_DEPR_EXT(T, NAME)                                                                  \
    DEFINE_DEPR_EXT(T, NAME, gdepr_ext, shmem_set, shmem_fetch, shmem_swap)
SHOAL_DEPR_AMO_EXT_TYPES(TYPED_DEPR_EXT)
SHOAL_DEPR_AMO_EXT_TYPES(GENERIC_DEPR_EXT)

/* compare_swap (failing, then succeeding), fetch_inc, inc, fetch_add, add, and
 * wrap-around through -1 (all ones). Leaves the slot at b. */
#define STD_BLOCKING(T, d, pe, b, SET, FETCH, CSWAP, FINC, INC, FADD, ADD)                         \
    do {                                                                                           \
        T a_ = (T)((b) + 500);                                                                     \
                                                                                                   \
        SET((d), a_, (pe));                                                                        \
        CHECK_T(T, #CSWAP " that fails returns the old value", a_,                                 \
                CSWAP((d), (T)(a_ + 1), (b), (pe)));                                               \
        CHECK_T(T, "value after a failing " #CSWAP, a_, FETCH((d), (pe)));                         \
        CHECK_T(T, #CSWAP " that succeeds returns the old value", a_, CSWAP((d), a_, (b), (pe)));  \
        CHECK_T(T, "value after " #CSWAP, (b), FETCH((d), (pe)));                                  \
        CHECK_T(T, #FINC " returns the old value", (b), FINC((d), (pe)));                          \
        INC((d), (pe));                                                                            \
        CHECK_T(T, "value after " #FINC " and " #INC, (b) + 2, FETCH((d), (pe)));                  \
        CHECK_T(T, #FADD " returns the old value", (b) + 2, FADD((d), (T)5, (pe)));                \
        ADD((d), (T)7, (pe));                                                                      \
        CHECK_T(T, "value after " #FADD " and " #ADD, (b) + 14, FETCH((d), (pe)));                 \
        SET((d), (T)-1, (pe));                                                                     \
        ADD((d), (T)2, (pe));                                                                      \
        CHECK_T(T, "-1 (all ones) plus 2 by " #ADD, 1, FETCH((d), (pe)));                          \
        CHECK_T(T, #FADD " of -3 returns the old value", 1, FADD((d), (T)-3, (pe)));               \
        CHECK_T(T, "value after " #FADD " of -3", (T)-2, FETCH((d), (pe)));                        \
        ADD((d), (T)((b) + 2), (pe));                                                              \
        CHECK_T(T, "value after -2 + b + 2 by " #ADD, (b), FETCH((d), (pe)));                      \
    } while (0)

/* The above, then the fetching _nbi forms and a batch of them; ends at std_fin. */
#define DEFINE_STD(T, NAME, TAG, SET, FETCH, CSWAP, FINC, INC, FADD, ADD, CSWAP_NBI, FINC_NBI,     \
                   FADD_NBI)                                                                       \
    static void TAG##_##NAME(T *d, int pe)                                                         \
    {                                                                                              \
        T b = (T)std_b(me, pe), c = (T)(b + 1000), f, fs[BATCH];                                   \
        int seen[BATCH] = {0}, k;                                                                  \
                                                                                                   \
        STD_BLOCKING(T, d, pe, b, SET, FETCH, CSWAP, FINC, INC, FADD, ADD);                        \
        f = (T)0;                                                                                  \
        CSWAP_NBI(&f, d, (T)(b + 1), c, pe);                                                       \
        shmem_quiet();                                                                             \
        CHECK_T(T, "failing " #CSWAP_NBI " fetched", b, f);                                        \
        CHECK_T(T, "value after a failing " #CSWAP_NBI, b, FETCH(d, pe));                          \
        f = (T)0;                                                                                  \
        CSWAP_NBI(&f, d, b, c, pe);                                                                \
        shmem_quiet();                                                                             \
        CHECK_T(T, #CSWAP_NBI " fetched", b, f);                                                   \
        CHECK_T(T, "value after " #CSWAP_NBI, c, FETCH(d, pe));                                    \
        f = (T)0;                                                                                  \
        FINC_NBI(&f, d, pe);                                                                       \
        shmem_quiet();                                                                             \
        CHECK_T(T, #FINC_NBI " fetched", c, f);                                                    \
        f = (T)0;                                                                                  \
        FADD_NBI(&f, d, (T)10, pe);                                                                \
        shmem_quiet();                                                                             \
        CHECK_T(T, #FADD_NBI " fetched", c + 1, f);                                                \
        /* BATCH outstanding: after one quiet, each fetched a distinct old value. */               \
        for (k = 0; k < BATCH; k++) {                                                              \
            fs[k] = (T)0;                                                                          \
            FADD_NBI(&fs[k], d, (T)1, pe);                                                         \
        }                                                                                          \
        shmem_quiet();                                                                             \
        for (k = 0; k < BATCH; k++) {                                                              \
            long long rel = (long long)(T)(fs[k] - (T)(c + 11));                                   \
            int ok = rel >= 0 && rel < BATCH && !seen[rel]++;                                      \
                                                                                                   \
            PE_CHECK(ok,                                                                           \
                     "%s: batched " #FADD_NBI " %d fetched %.21Lg, expected a distinct "           \
                     "value in %.21Lg..%.21Lg",                                                    \
                     ctx, k, (long double)fs[k], (long double)(T)(c + 11),                         \
                     (long double)(T)(c + 10 + BATCH));                                            \
        }                                                                                          \
        CHECK_T(T, "value after the batch", (T)std_fin(me, pe), FETCH(d, pe));                     \
    }
#define TYPED_STD(T, NAME)                                                                         \
    DEFINE_STD(T, NAME, std, shmem_##NAME##_atomic_set, shmem_##NAME##_atomic_fetch,               \
               shmem_##NAME##_atomic_compare_swap, shmem_##NAME##_atomic_fetch_inc,                \
               shmem_##NAME##_atomic_inc, shmem_##NAME##_atomic_fetch_add,                         \
               shmem_##NAME##_atomic_add, shmem_##NAME##_atomic_compare_swap_nbi,                  \
               shmem_##NAME##_atomic_fetch_inc_nbi, shmem_##NAME##_atomic_fetch_add_nbi)
#define GENERIC_STD(T, NAME)                                                                       \
    DEFINE_STD(T, NAME, gstd, shmem_atomic_set, shmem_atomic_fetch, shmem_atomic_compare_swap,     \
               shmem_atomic_fetch_inc, shmem_atomic_inc, shmem_atomic_fetch_add, shmem_atomic_add, \
               shmem_atomic_compare_swap_nbi, shmem_atomic_fetch_inc_nbi,                          \
               shmem_atomic_fetch_add_nbi)
SHOAL_AMO_STD_TYPES(TYPED_STD)
SHOAL_AMO_STD_TYPES(GENERIC_STD)

/* The deprecated cswap, finc, inc, fadd, add (with set and fetch): ends at b. */
#define DEFINE_DEPR(T, NAME, TAG, SET, FETCH, CSWAP, FINC, INC, FADD, ADD)                         \
    static void TAG##_##NAME(T *d, int pe)                                                         \
    {                                                                                              \
        T b = (T)std_b(me, pe);                                                                    \
                                                                                                   \
        STD_BLOCKING(T, d, pe, b, SET, FETCH, CSWAP, FINC, INC, FADD, ADD);                        \
    }
#define TYPED_DEPR(T, NAME)                                                                        \
    DEFINE_DEPR(T, NAME, depr, shmem_##NAME##_set, shmem_##NAME##_fetch, shmem_##NAME##_cswap,     \
                shmem_##NAME##_finc, shmem_##NAME##_inc, shmem_##NAME##_fadd, shmem_##NAME##_add)
#define GENERIC_DEPR(T, NAME)                                                                      \
    DEFINE_DEPR(T, NAME, gdepr, shmem_set, shmem_fetch, shmem_cswap, shmem_finc, shmem_inc,        \
                shmem_fadd, shmem_add)
SHOAL_DEPR_AMO_TYPES(TYPED_DEPR)
SHOAL_DEPR_AMO_TYPES(GENERIC_DEPR)

/* and/or/xor, fetching and not, and the fetching _nbi forms; ends at bit_fin. */
#define DEFINE_BIT(T, NAME, TAG, SET, FETCH, FAND, AND, FOR, OR, FXOR, XOR, FAND_NBI, FOR_NBI,     \
                   FXOR_NBI)                                                                       \
    static void TAG##_##NAME(T *d, int pe)                                                         \
    {                                                                                              \
        uint64_t v = 0;                                                                            \
        T f = (T)0, m;                                                                             \
        int k, op;                                                                                 \
                                                                                                   \
        for (k = 0; k < NBITOPS; k++) {                                                            \
            op = bit_ops[k];                                                                       \
            m = (T)bit_operand(me, pe, k);                                                         \
            switch (op) {                                                                          \
            case B_SET:                                                                            \
                SET(d, m, pe);                                                                     \
                break;                                                                             \
            case B_FAND:                                                                           \
                f = FAND(d, m, pe);                                                                \
                break;                                                                             \
            case B_AND:                                                                            \
                AND(d, m, pe);                                                                     \
                break;                                                                             \
            case B_FOR:                                                                            \
                f = FOR(d, m, pe);                                                                 \
                break;                                                                             \
            case B_OR:                                                                             \
                OR(d, m, pe);                                                                      \
                break;                                                                             \
            case B_FXOR:                                                                           \
                f = FXOR(d, m, pe);                                                                \
                break;                                                                             \
            case B_XOR:                                                                            \
                XOR(d, m, pe);                                                                     \
                break;                                                                             \
            case B_FAND_NBI:                                                                       \
                FAND_NBI(&f, d, m, pe);                                                            \
                break;                                                                             \
            case B_FOR_NBI:                                                                        \
                FOR_NBI(&f, d, m, pe);                                                             \
                break;                                                                             \
            case B_FXOR_NBI:                                                                       \
                FXOR_NBI(&f, d, m, pe);                                                            \
                break;                                                                             \
            }                                                                                      \
            if (op >= B_FAND_NBI)                                                                  \
                shmem_quiet();                                                                     \
            if (op == B_FAND || op == B_FOR || op == B_FXOR || op >= B_FAND_NBI)                   \
                CHECK_T(T, bit_names[op], (T)v, f);                                                \
            v = bit_apply(op, v, (uint64_t)m);                                                     \
            CHECK_T(T, bit_names[op], (T)v, FETCH(d, pe));                                         \
        }                                                                                          \
    }
#define TYPED_BIT(T, NAME)                                                                         \
    DEFINE_BIT(T, NAME, bit, shmem_##NAME##_atomic_set, shmem_##NAME##_atomic_fetch,               \
               shmem_##NAME##_atomic_fetch_and, shmem_##NAME##_atomic_and,                         \
               shmem_##NAME##_atomic_fetch_or, shmem_##NAME##_atomic_or,                           \
               shmem_##NAME##_atomic_fetch_xor, shmem_##NAME##_atomic_xor,                         \
               shmem_##NAME##_atomic_fetch_and_nbi, shmem_##NAME##_atomic_fetch_or_nbi,            \
               shmem_##NAME##_atomic_fetch_xor_nbi)
#define GENERIC_BIT(T, NAME)                                                                       \
    DEFINE_BIT(T, NAME, gbit, shmem_atomic_set, shmem_atomic_fetch, shmem_atomic_fetch_and,        \
               shmem_atomic_and, shmem_atomic_fetch_or, shmem_atomic_or, shmem_atomic_fetch_xor,   \
               shmem_atomic_xor, shmem_atomic_fetch_and_nbi, shmem_atomic_fetch_or_nbi,            \
               shmem_atomic_fetch_xor_nbi)
SHOAL_AMO_BIT_TYPES(TYPED_BIT)
SHOAL_AMO_BIT_TYPES(GENERIC_BIT)

/* Runs sequence FAM of type NAME at every PE in the heap, data and bss, then checks
 * locally what every PE left in this PE's slots, and the guards. */
#define DEFINE_RUN(FAM, V, FIN, T, NAME)                                                           \
    static void run_##FAM##_##NAME(void)                                                           \
    {                                                                                              \
        T *heap = shmem_calloc(NSLOTS, sizeof(T));                                                 \
        T *regions[3];                                                                             \
        int r, t, p;                                                                               \
                                                                                                   \
        PE_CHECK(heap != NULL, "shmem_calloc(%d, %zu) is NULL", NSLOTS, sizeof(T));                \
        if (heap == NULL)                                                                          \
            return;                                                                                \
        regions[0] = heap;                                                                         \
        regions[1] = data_##NAME;                                                                  \
        regions[2] = bss_##NAME;                                                                   \
        shmem_barrier_all();                                                                       \
        for (r = 0; r < 3; r++)                                                                    \
            for (t = 0; t < npes; t++) {                                                           \
                int pe = (me + t) % npes; /* itself first */                                       \
                                                                                                   \
                snprintf(ctx, sizeof(ctx), "%s %s in %s at PE %d", #NAME, #FAM, region_names[r],   \
                         pe);                                                                      \
                FAM##_##NAME(&regions[r][SLOT(me, V)], pe);                                        \
            }                                                                                      \
        shmem_barrier_all();                                                                       \
        for (r = 0; r < 3; r++)                                                                    \
            for (p = 0; p < npes; p++) {                                                           \
                snprintf(ctx, sizeof(ctx), "%s %s in %s: the slot of PE %d, read here", #NAME,     \
                         #FAM, region_names[r], p);                                                \
                CHECK_T(T, "value left", (T)FIN(p, me), regions[r][SLOT(p, V)]);                   \
                CHECK_T(T, "guard after the slot", (T)0, regions[r][SLOT(p, V) + 1]);              \
            }                                                                                      \
        shmem_free(heap);                                                                          \
    }
#define RUN_ext(T, NAME) DEFINE_RUN(ext, V_EXT, ext_fin, T, NAME)
#define RUN_gext(T, NAME) DEFINE_RUN(gext, V_GEXT, ext_fin, T, NAME)
#define RUN_std(T, NAME) DEFINE_RUN(std, V_STD, std_fin, T, NAME)
#define RUN_gstd(T, NAME) DEFINE_RUN(gstd, V_GSTD, std_fin, T, NAME)
#define RUN_bit(T, NAME) DEFINE_RUN(bit, V_BIT, bit_fin, T, NAME)
#define RUN_gbit(T, NAME) DEFINE_RUN(gbit, V_GBIT, bit_fin, T, NAME)
#define RUN_depr(T, NAME) DEFINE_RUN(depr, V_DEPR, std_b, T, NAME)
#define RUN_gdepr(T, NAME) DEFINE_RUN(gdepr, V_GDEPR, std_b, T, NAME)
#define RUN_depr_ext(T, NAME) DEFINE_RUN(depr_ext, V_DEPR_EXT, ext_fin, T, NAME)
#define RUN_gdepr_ext(T, NAME) DEFINE_RUN(gdepr_ext, V_GDEPR_EXT, ext_fin, T, NAME)
SHOAL_AMO_EXT_ALL_TYPES(RUN_ext)
SHOAL_AMO_EXT_ALL_TYPES(RUN_gext)
SHOAL_AMO_STD_TYPES(RUN_std)
SHOAL_AMO_STD_TYPES(RUN_gstd)
SHOAL_AMO_BIT_TYPES(RUN_bit)
SHOAL_AMO_BIT_TYPES(RUN_gbit)
SHOAL_DEPR_AMO_TYPES(RUN_depr)
SHOAL_DEPR_AMO_TYPES(RUN_gdepr)
SHOAL_DEPR_AMO_EXT_TYPES(RUN_depr_ext)
SHOAL_DEPR_AMO_EXT_TYPES(RUN_gdepr_ext)

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    pe_test_upto("pe_amo", MAXPE);

#define CALL_ext(T, NAME) run_ext_##NAME();
#define CALL_gext(T, NAME) run_gext_##NAME();
#define CALL_std(T, NAME) run_std_##NAME();
#define CALL_gstd(T, NAME) run_gstd_##NAME();
#define CALL_bit(T, NAME) run_bit_##NAME();
#define CALL_gbit(T, NAME) run_gbit_##NAME();
#define CALL_depr(T, NAME) run_depr_##NAME();
#define CALL_gdepr(T, NAME) run_gdepr_##NAME();
#define CALL_depr_ext(T, NAME) run_depr_ext_##NAME();
#define CALL_gdepr_ext(T, NAME) run_gdepr_ext_##NAME();
    SHOAL_AMO_EXT_ALL_TYPES(CALL_ext)
    SHOAL_AMO_EXT_ALL_TYPES(CALL_gext)
    SHOAL_AMO_STD_TYPES(CALL_std)
    SHOAL_AMO_STD_TYPES(CALL_gstd)
    SHOAL_AMO_BIT_TYPES(CALL_bit)
    SHOAL_AMO_BIT_TYPES(CALL_gbit)
    SHOAL_DEPR_AMO_TYPES(CALL_depr)
    SHOAL_DEPR_AMO_TYPES(CALL_gdepr)
    SHOAL_DEPR_AMO_EXT_TYPES(CALL_depr_ext)
    SHOAL_DEPR_AMO_EXT_TYPES(CALL_gdepr_ext)
    return pe_test_finish("pe_amo");
}
