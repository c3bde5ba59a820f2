/* Team reductions: and/or/xor over the bitwise types, max/min over the ordered
 * ones, sum/prod over the arithmetic ones (complexd and complexf included), on
 * WORLD and on a split team (the even PEs, and the odd PEs at the same time), at
 * nreduce 0, 1, 7 and LARGE, into a separate destination and in place, through the
 * typed names and (for a few types) the C11 generic ones. Inputs are small integers
 * chosen per team index and element so that no sum or product overflows any type
 * and every floating result is exact; each PE computes the expected result itself,
 * serially in the same type, and compares every element; the element after the
 * destination must keep its sentinel. */
#include "pe_reduce.h"
#include "pe_teams.h"
#include "shoal_types.h"

#include <stdint.h>

#define LARGE 100000
#define GUARD 1

static int me, npes;
static pe_team_t T; /* the team of the current pass */
static void *src_sym, *dst_sym;
static char what[160];
/* PE_REDUCE_LARGE_SAMPLE=1: only one type of each size and kind runs the LARGE
 * sizes (pe_reduce-algos.sh, the ASan job, the multi-node run: an algorithm
 * moves and combines bytes alike for every type of one size, and the LARGE
 * sizes of all types took most of their time); unset: every type. */
static int large_sample;
static const char *const large_sample_types[] = {"uchar",    "uint64",  "short",  "int",
                                                 "float",    "long",    "double", "longdouble",
                                                 "complexf", "complexd"};

/* Whether type NAME runs the LARGE sizes. */
static int large_for(const char *name)
{
    size_t i;

    if (!large_sample)
        return 1;
    for (i = 0; i < sizeof(large_sample_types) / sizeof(large_sample_types[0]); i++)
        if (strcmp(name, large_sample_types[i]) == 0)
            return 1;
    return 0;
}

/* One reduction with full checking: member inputs into source (or dest, in place),
 * the sentinel after dest, the call, then the comparison with the serial result. */
#define REDUCE_CASE(T_, NAME, OPN, CALL, VIA, inplace, nred)                                       \
    do {                                                                                           \
        T_ *s_ = (T_ *)src_sym, *d_ = (T_ *)dst_sym, *in_ = (inplace) ? d_ : s_;                   \
        size_t i_, bad_ = 0, first_ = 0, n_ = (nred); /* a variable: no -Wtype-limits */           \
        int rc_;                                                                                   \
        T_ want_ = 0, wbad_ = 0, gbad_ = 0;                                                        \
                                                                                                   \
        for (i_ = 0; i_ < n_; i_++) {                                                              \
            in_[i_] = INPUT_##OPN(T_, T.me, i_);                                                   \
            if (!(inplace))                                                                        \
                d_[i_] = (T_)-1;                                                                   \
        }                                                                                          \
        d_[n_] = (T_)-3;                                                                           \
        shmem_team_sync(T.team); /* nobody's dest is written before it is reset */                 \
        snprintf(what, sizeof(what), "%s_%s_reduce%s, nreduce %zu%s, %s", #NAME, pe_op_names[OPN], \
                 (VIA), n_, (inplace) ? ", in place" : "", T.name);                                \
        rc_ = CALL(T.team, d_, in_, (nred));                                                       \
        PE_CHECK(rc_ == 0, "%s: returned %d", what, rc_);                                          \
        for (i_ = 0; i_ < n_; i_++) {                                                              \
            PE_REDUCE_WANT(T_, OPN, T.size, i_, want_);                                            \
            if (!(d_[i_] == want_) && bad_++ == 0) {                                               \
                first_ = i_;                                                                       \
                wbad_ = want_;                                                                     \
                gbad_ = d_[i_];                                                                    \
            }                                                                                      \
        }                                                                                          \
        PE_CHECK(bad_ == 0,                                                                        \
                 "%s: %zu of %zu elements wrong, first [%zu]: expected %.21Lg%+.21Lgi, "           \
                 "found %.21Lg%+.21Lgi",                                                           \
                 what, bad_, n_, first_, creall((long double _Complex)wbad_),                      \
                 cimagl((long double _Complex)wbad_), creall((long double _Complex)gbad_),         \
                 cimagl((long double _Complex)gbad_));                                             \
        PE_CHECK(d_[n_] == (T_)-3, "%s: the element after dest was overwritten: %.21Lg", what,     \
                 creall((long double _Complex)d_[n_]));                                            \
        shmem_team_sync(T.team); /* nobody reads this source after it is changed */                \
    } while (0)

/* The sizes of one op on one type: 0 and 1 (only into dest), 7 both ways, LARGE
 * both ways. A loop, not six expansions of REDUCE_CASE: the compiler's time
 * grows with the code, and six copies of every case took it 28 s. */
static const struct {
    int inplace;
    size_t nred;
} reduce_sizes[] = {{0, 0}, {0, 1}, {0, 7}, {1, 7}, {0, LARGE}, {1, LARGE}};

#define REDUCE_SIZES(T_, NAME, OPN, CALL)                                                          \
    do {                                                                                           \
        size_t c_;                                                                                 \
                                                                                                   \
        for (c_ = 0; c_ < sizeof(reduce_sizes) / sizeof(reduce_sizes[0]); c_++)                    \
            if (reduce_sizes[c_].nred != LARGE || large_for(#NAME))                                \
                REDUCE_CASE(T_, NAME, OPN, CALL, "", reduce_sizes[c_].inplace,                     \
                            reduce_sizes[c_].nred);                                                \
    } while (0)

#define DEFINE_BIT(T_, NAME)                                                                       \
    static void bit_##NAME(void)                                                                   \
    {                                                                                              \
        REDUCE_SIZES(T_, NAME, 0, shmem_##NAME##_and_reduce);                                      \
        REDUCE_SIZES(T_, NAME, 1, shmem_##NAME##_or_reduce);                                       \
        REDUCE_SIZES(T_, NAME, 2, shmem_##NAME##_xor_reduce);                                      \
    }
SHOAL_REDUCE_BIT_TYPES(DEFINE_BIT)

#define DEFINE_MINMAX(T_, NAME)                                                                    \
    static void minmax_##NAME(void)                                                                \
    {                                                                                              \
        REDUCE_SIZES(T_, NAME, 3, shmem_##NAME##_max_reduce);                                      \
        REDUCE_SIZES(T_, NAME, 4, shmem_##NAME##_min_reduce);                                      \
    }
SHOAL_REDUCE_MINMAX_TYPES(DEFINE_MINMAX)

/* Real arithmetic types here; the two complex ones below. */
#define DEFINE_ARITH(T_, NAME)                                                                     \
    static void arith_##NAME(void)                                                                 \
    {                                                                                              \
        REDUCE_SIZES(T_, NAME, 5, shmem_##NAME##_sum_reduce);                                      \
        REDUCE_SIZES(T_, NAME, 6, shmem_##NAME##_prod_reduce);                                     \
    }
#define DEFINE_ARITH_REAL(T_, NAME) DEFINE_ARITH_##NAME(T_, NAME)
#define DEFINE_ARITH_complexd(T_, NAME)
#define DEFINE_ARITH_complexf(T_, NAME)
#define DEFINE_ARITH_float DEFINE_ARITH
#define DEFINE_ARITH_double DEFINE_ARITH
#define DEFINE_ARITH_longdouble DEFINE_ARITH
#define DEFINE_ARITH_char DEFINE_ARITH
#define DEFINE_ARITH_schar DEFINE_ARITH
#define DEFINE_ARITH_short DEFINE_ARITH
#define DEFINE_ARITH_int DEFINE_ARITH
#define DEFINE_ARITH_long DEFINE_ARITH
#define DEFINE_ARITH_longlong DEFINE_ARITH
#define DEFINE_ARITH_uchar DEFINE_ARITH
#define DEFINE_ARITH_ushort DEFINE_ARITH
#define DEFINE_ARITH_uint DEFINE_ARITH
#define DEFINE_ARITH_ulong DEFINE_ARITH
#define DEFINE_ARITH_ulonglong DEFINE_ARITH
#define DEFINE_ARITH_int8 DEFINE_ARITH
#define DEFINE_ARITH_int16 DEFINE_ARITH
#define DEFINE_ARITH_int32 DEFINE_ARITH
#define DEFINE_ARITH_int64 DEFINE_ARITH
#define DEFINE_ARITH_uint8 DEFINE_ARITH
#define DEFINE_ARITH_uint16 DEFINE_ARITH
#define DEFINE_ARITH_uint32 DEFINE_ARITH
#define DEFINE_ARITH_uint64 DEFINE_ARITH
#define DEFINE_ARITH_size DEFINE_ARITH
#define DEFINE_ARITH_ptrdiff DEFINE_ARITH
SHOAL_REDUCE_ARITH_TYPES(DEFINE_ARITH_REAL)

static void arith_complexd(void)
{
    REDUCE_SIZES(double _Complex, complexd, 7, shmem_complexd_sum_reduce);
    REDUCE_SIZES(double _Complex, complexd, 8, shmem_complexd_prod_reduce);
}

static void arith_complexf(void)
{
    REDUCE_SIZES(float _Complex, complexf, 7, shmem_complexf_sum_reduce);
    REDUCE_SIZES(float _Complex, complexf, 8, shmem_complexf_prod_reduce);
}

/* The C11 generic names, a few types of each family, nreduce 7 into dest and in place. */
static void generic(void)
{
    REDUCE_CASE(unsigned int, uint, 0, shmem_and_reduce, " (generic)", 0, 7);
    REDUCE_CASE(uint64_t, uint64, 1, shmem_or_reduce, " (generic)", 1, 7);
    REDUCE_CASE(unsigned char, uchar, 2, shmem_xor_reduce, " (generic)", 0, 7);
    REDUCE_CASE(int, int, 3, shmem_max_reduce, " (generic)", 0, 7);
    REDUCE_CASE(double, double, 4, shmem_min_reduce, " (generic)", 1, 7);
    REDUCE_CASE(long, long, 5, shmem_sum_reduce, " (generic)", 0, 7);
    REDUCE_CASE(float, float, 6, shmem_prod_reduce, " (generic)", 1, 7);
    REDUCE_CASE(double _Complex, complexd, 7, shmem_sum_reduce, " (generic)", 0, 7);
    REDUCE_CASE(float _Complex, complexf, 8, shmem_prod_reduce, " (generic)", 0, 7);
}

int main(void)
{
    int pass;

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    pe_test_upto("pe_reduce", PE_TEAM_MAXPE);
    large_sample = getenv("PE_REDUCE_LARGE_SAMPLE") != NULL;
    if (large_sample && me == 0)
        printf("pe_reduce: nreduce %d for one type of each size and kind only "
               "(PE_REDUCE_LARGE_SAMPLE)\n",
               LARGE);
    src_sym = shmem_malloc((LARGE + GUARD) * 16);
    dst_sym = shmem_malloc((LARGE + GUARD) * 16);
    PE_CHECK(src_sym != NULL && dst_sym != NULL, "allocations %p %p", src_sym, dst_sym);
    if (src_sym == NULL || dst_sym == NULL)
        return pe_test_finish("pe_reduce");

    for (pass = 0; pass < 2; pass++) {
        pe_team_layout(pass ? PE_LAYOUT_HALVES : PE_LAYOUT_WORLD, &T);
#define CALL(T_, NAME) bit_##NAME();
        SHOAL_REDUCE_BIT_TYPES(CALL)
#undef CALL
#define CALL(T_, NAME) minmax_##NAME();
        SHOAL_REDUCE_MINMAX_TYPES(CALL)
#undef CALL
#define CALL(T_, NAME) arith_##NAME();
        SHOAL_REDUCE_ARITH_TYPES(CALL)
#undef CALL
        generic();
        shmem_barrier_all();
        pe_team_free(&T);
    }

    shmem_free(dst_sym);
    shmem_free(src_sym);
    return pe_test_finish("pe_reduce");
}
