/* The reduction tests' model: inputs of each team member at each element, and the
 * operators applied serially in the type, shared by pe_reduce and pe_active_set.
 * Ops are numbered: 0 and, 1 or, 2 xor, 3 max, 4 min, 5 sum, 6 prod, and 7 sum, 8
 * prod for the complex types. INPUT_<op>(T, k, i) is member k's element i;
 * COMBINE_<op>(T, a, b) the operator in T. */
#ifndef PE_REDUCE_H
#define PE_REDUCE_H

#include <complex.h>
#include <stddef.h>
#include <stdint.h>

static const char *const pe_op_names[] = {"and", "or",   "xor", "max", "min",
                                          "sum", "prod", "sum", "prod"}; /* the last two: complex */

/* Inputs of team member k at element i. Bitwise: a pseudo-random pattern over all
 * bits (truncated to the type). Min/max: -40..56 (wrapped for unsigned types, which
 * still orders them one way on both sides). Sum: -2..4, so at most 8 * 4 in size.
 * Prod: 2, -1, 3 or 1 by (k + i) % 4, never more than two of each at 8 PEs, so
 * at most 36 in size; unsigned types get 1 for -1. (More than 8 PEs may overflow
 * the 1-byte types: the programs run at up to 8.) Each op's inputs repeat in i
 * with its PERIOD_<op> (the bitwise pattern with a prime one, 8191 elements), so
 * that the checks combine the members' inputs for one period only
 * (PE_REDUCE_WANT): at 100000 elements and 8 PEs, combining at every element
 * was most of the tests' CPU time. */
#define PERIOD_0 8191
#define PERIOD_1 PERIOD_0
#define PERIOD_2 PERIOD_0
#define PERIOD_3 97
#define PERIOD_4 PERIOD_3
#define PERIOD_5 7
#define PERIOD_6 4
#define PERIOD_7 21 /* the real part's 7, the imaginary part's 3 */
#define PERIOD_8 4
#define PE_REDUCE_PERIOD_MAX 8191

static inline uint64_t in_bits(int k, size_t i)
{
    uint64_t x = (uint64_t)(k + 1) * 0x9E3779B97F4A7C15u ^
                 (uint64_t)(i % PERIOD_0 + 7) * 0xC2B2AE3D27D4EB4Fu;

    return x ^ (x >> 29);
}

static inline long in_minmax(int k, size_t i)
{
    return (long)((k * 7 + i * 13) % 97) - 40;
}

static inline long in_sum(int k, size_t i)
{
    return (long)((k * 3 + i) % 7) - 2;
}

static inline long in_prod(int k, size_t i, int is_signed)
{
    static const long v[] = {2, -1, 3, 1};
    long x = v[(k + i) % 4];

    return x < 0 && !is_signed ? 1 : x;
}

/* For the complex types: an imaginary part too, still tiny. */
static inline long in_imag(int k, size_t i)
{
    return (long)((k + 2 * i) % 3) - 1;
}

#define IS_SIGNED(T_) ((T_)-1 < (T_)1) /* not "< 0": -Wtype-limits */

/* The expected results of the current check, one period of them (any type of up
 * to 32 bytes). */
static _Alignas(32) unsigned char pe_want_buf[PE_REDUCE_PERIOD_MAX * 32];
#define INPUT_0(T_, k, i) ((T_)in_bits((k), (i)))
#define INPUT_1 INPUT_0
#define INPUT_2 INPUT_0
#define INPUT_3(T_, k, i) ((T_)in_minmax((k), (i)))
#define INPUT_4 INPUT_3
#define INPUT_5(T_, k, i) ((T_)in_sum((k), (i)))
#define INPUT_6(T_, k, i) ((T_)in_prod((k), (i), IS_SIGNED(T_)))
#define COMBINE_0(T_, a, b) ((T_)((a) & (b)))
#define COMBINE_1(T_, a, b) ((T_)((a) | (b)))
#define COMBINE_2(T_, a, b) ((T_)((a) ^ (b)))
#define COMBINE_3(T_, a, b) ((b) > (a) ? (b) : (a))
#define COMBINE_4(T_, a, b) ((b) < (a) ? (b) : (a))
#define COMBINE_5(T_, a, b) ((T_)((a) + (b)))
#define COMBINE_6(T_, a, b) ((T_)((a) * (b)))

/* The complex inputs add an imaginary part; their combine is the complex one. */
#define INPUT_C5(T_, k, i) ((T_)in_sum((k), (i)) + (T_)in_imag((k), (i)) * (T_)I)
#define INPUT_C6(T_, k, i) ((T_)in_prod((k), (i), 1) + (T_)((((k) + (i)) % 4 == 3)) * (T_)I)

#define INPUT_7 INPUT_C5
#define INPUT_8 INPUT_C6
#define COMBINE_7 COMBINE_5
#define COMBINE_8 COMBINE_6

/* want = the reduction by op OPN over members 0 .. size - 1 of element i, in T_.
 * A check calls it for i = 0, 1, 2, ... in turn: the first period is combined
 * (and kept), the rest looked up. */
#define PE_REDUCE_WANT(T_, OPN, size, i, want)                                                     \
    do {                                                                                           \
        T_ *kept_ = (T_ *)(void *)pe_want_buf;                                                     \
        size_t at_ = (size_t)(i);                                                                  \
        int m_;                                                                                    \
                                                                                                   \
        if (at_ >= PERIOD_##OPN) {                                                                 \
            (want) = kept_[at_ % PERIOD_##OPN];                                                    \
            break;                                                                                 \
        }                                                                                          \
        (want) = INPUT_##OPN(T_, 0, at_);                                                          \
        for (m_ = 1; m_ < (size); m_++)                                                            \
            (want) = COMBINE_##OPN(T_, (want), INPUT_##OPN(T_, m_, at_));                          \
        kept_[at_] = (want);                                                                       \
    } while (0)

#endif
