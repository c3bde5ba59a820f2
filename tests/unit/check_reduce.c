/* Unit tests of the reduction arithmetic (shmem/core/coll/reduce.c): every operator
 * on every type the spec lists for it, against the same operation written in C
 * on that type; and that an operator that does not apply is refused. */
#include "check_main.h"
#include "shoal_coll.h"
#include "shoal_types.h"

#include <complex.h>
#include <stdint.h>

#define N 9

#define DT_OF(T)                                                                                \
    _Generic((T)0, float: SHOAL_DT_FLOAT, double: SHOAL_DT_FLOAT,                            \
             long double: SHOAL_DT_FLOAT, default: ((T)-1 < 0 ? SHOAL_DT_INT : SHOAL_DT_UINT))

/* Small values, negative ones for signed types, so nothing overflows. */
#define FILL(T, a, b)                                                                           \
    do {                                                                                        \
        int i_;                                                                                 \
        for (i_ = 0; i_ < N; i_++) {                                                            \
            a[i_] = (T)((i_ * 7) % 11 + ((T)-1 < 0 ? -4 : 0));                                  \
            b[i_] = (T)((i_ * 5) % 9 + ((T)-1 < 0 ? -3 : 1));                                   \
        }                                                                                       \
    } while (0)

#define CHECK_OP(T, NAME, OP, EXPR)                                                                \
    do {                                                                                           \
        T a[N], b[N], want[N];                                                                     \
        int i_;                                                                                    \
        FILL(T, a, b);                                                                             \
        for (i_ = 0; i_ < N; i_++) {                                                               \
            T x = a[i_], y = b[i_];                                                                \
            want[i_] = (T)(EXPR);                                                                  \
        }                                                                                          \
        ck_assert_int_eq(shoal_reduce_combine(a, b, N, OP, DT_OF(T), sizeof(T)), SHOAL_OK);        \
        for (i_ = 0; i_ < N; i_++) /* by value: long double has padding bytes */                   \
            ck_assert_msg(a[i_] == want[i_], "%s: %s differs at %d", #NAME, #OP, i_);              \
    } while (0)

START_TEST(test_minmax_sum_prod)
{
#define REAL_OPS(T, NAME)                                                                       \
    CHECK_OP(T, NAME, SHOAL_RED_MAX, x > y ? x : y);                                            \
    CHECK_OP(T, NAME, SHOAL_RED_MIN, x < y ? x : y);                                            \
    CHECK_OP(T, NAME, SHOAL_RED_SUM, x + y);                                                    \
    CHECK_OP(T, NAME, SHOAL_RED_PROD, x * y);
    SHOAL_REDUCE_MINMAX_TYPES(REAL_OPS)
#undef REAL_OPS
}
END_TEST

START_TEST(test_bitwise)
{
#define BIT_OPS(T, NAME)                                                                        \
    CHECK_OP(T, NAME, SHOAL_RED_AND, x & y);                                                    \
    CHECK_OP(T, NAME, SHOAL_RED_OR, x | y);                                                     \
    CHECK_OP(T, NAME, SHOAL_RED_XOR, x ^ y);
    SHOAL_REDUCE_BIT_TYPES(BIT_OPS)
#undef BIT_OPS
}
END_TEST

START_TEST(test_complex)
{
    double _Complex d[2] = {1.0 + 2.0 * I, -3.0 + 0.5 * I}, e[2] = {2.0 - 1.0 * I, 4.0 + 4.0 * I};
    float _Complex f[1] = {1.0f + 1.0f * I}, g[1] = {2.0f - 3.0f * I};

    ck_assert_int_eq(shoal_reduce_combine(d, e, 2, SHOAL_RED_PROD, SHOAL_DT_COMPLEX, sizeof(*d)),
                     SHOAL_OK);
    ck_assert(d[0] == (1.0 + 2.0 * I) * (2.0 - 1.0 * I));
    ck_assert(d[1] == (-3.0 + 0.5 * I) * (4.0 + 4.0 * I));
    ck_assert_int_eq(shoal_reduce_combine(f, g, 1, SHOAL_RED_SUM, SHOAL_DT_COMPLEX, sizeof(*f)),
                     SHOAL_OK);
    ck_assert(f[0] == 3.0f - 2.0f * I);
}
END_TEST

START_TEST(test_wrapping_and_refusals)
{
    int32_t big[1] = {INT32_MAX}, one[1] = {1};
    double x[1] = {1.0}, y[1] = {2.0};
    double _Complex c[1] = {1.0}, c2[1] = {2.0};

    /* Signed sums wrap as two's complement instead of being undefined. */
    ck_assert_int_eq(shoal_reduce_combine(big, one, 1, SHOAL_RED_SUM, SHOAL_DT_INT, 4), SHOAL_OK);
    ck_assert_int_eq(big[0], INT32_MIN);
    ck_assert_int_eq(shoal_reduce_combine(x, y, 1, SHOAL_RED_AND, SHOAL_DT_FLOAT, 8),
                     SHOAL_ERR_INVALID_ARG);
    ck_assert_int_eq(shoal_reduce_combine(c, c2, 1, SHOAL_RED_MAX, SHOAL_DT_COMPLEX, 16),
                     SHOAL_ERR_INVALID_ARG);
    ck_assert_int_eq(shoal_reduce_combine(x, y, 1, SHOAL_RED_SUM, SHOAL_DT_INT, 3),
                     SHOAL_ERR_INVALID_ARG);
    /* Nothing to combine is fine. */
    ck_assert_int_eq(shoal_reduce_combine(x, y, 0, SHOAL_RED_SUM, SHOAL_DT_FLOAT, 8), SHOAL_OK);
    ck_assert(x[0] == 1.0);
}
END_TEST

START_TEST(test_char_kind)
{
    ck_assert_int_eq(SHOAL_DT_CHAR, (char)-1 < 0 ? SHOAL_DT_INT : SHOAL_DT_UINT);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("reduce");
    TCase *tc = tcase_create("combine");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_minmax_sum_prod);
    tcase_add_test(tc, test_bitwise);
    tcase_add_test(tc, test_complex);
    tcase_add_test(tc, test_wrapping_and_refusals);
    tcase_add_test(tc, test_char_kind);
    suite_add_tcase(s, tc);
    return check_main_run(s);
}
