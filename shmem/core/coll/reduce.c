/* The arithmetic of reductions: inout[i] = inout[i] op in[i], on machine
 * representations (signed or unsigned integers of 1 to 8 bytes, the three real
 * floating types, the two complex ones), never on the user's type names.
 * Integer sums and products wrap (two's complement) instead of being undefined. */
#include "shoal_coll.h"

#include <complex.h>
#include <stddef.h>
#include <stdint.h>

#define LOOP(T, EXPR)                                                                              \
    do {                                                                                           \
        T *a = inout;                                                                              \
        const T *b = in;                                                                           \
        size_t i;                                                                                  \
        for (i = 0; i < count; i++) {                                                              \
            T x = a[i], y = b[i];                                                                  \
            a[i] = (EXPR);                                                                         \
        }                                                                                          \
        return SHOAL_OK;                                                                           \
    } while (0)

/* Integers: T the type, U its unsigned twin (for wrapping sums and products). */
#define INTEGER(NAME, T, U)                                                                        \
    static shoal_status_t NAME(void *inout, const void *in, size_t count, shoal_red_op_t op)       \
    {                                                                                              \
        switch (op) {                                                                              \
        case SHOAL_RED_AND:                                                                        \
            LOOP(T, x &y);                                                                         \
        case SHOAL_RED_OR:                                                                         \
            LOOP(T, x | y);                                                                        \
        case SHOAL_RED_XOR:                                                                        \
            LOOP(T, x ^ y);                                                                        \
        case SHOAL_RED_MAX:                                                                        \
            LOOP(T, x > y ? x : y);                                                                \
        case SHOAL_RED_MIN:                                                                        \
            LOOP(T, x < y ? x : y);                                                                \
        case SHOAL_RED_SUM:                                                                        \
            LOOP(U, (U)((uint64_t)x + y));                                                         \
        case SHOAL_RED_PROD:                                                                       \
            LOOP(U, (U)((uint64_t)x * y));                                                         \
        }                                                                                          \
        return SHOAL_ERR_INVALID_ARG;                                                              \
    }

#define REAL(NAME, T)                                                                              \
    static shoal_status_t NAME(void *inout, const void *in, size_t count, shoal_red_op_t op)       \
    {                                                                                              \
        switch (op) {                                                                              \
        case SHOAL_RED_MAX:                                                                        \
            LOOP(T, x > y ? x : y);                                                                \
        case SHOAL_RED_MIN:                                                                        \
            LOOP(T, x < y ? x : y);                                                                \
        case SHOAL_RED_SUM:                                                                        \
            LOOP(T, x + y);                                                                        \
        case SHOAL_RED_PROD:                                                                       \
            LOOP(T, x *y);                                                                         \
        default:                                                                                   \
            return SHOAL_ERR_INVALID_ARG;                                                          \
        }                                                                                          \
    }

#define COMPLEX(NAME, T)                                                                           \
    static shoal_status_t NAME(void *inout, const void *in, size_t count, shoal_red_op_t op)       \
    {                                                                                              \
        switch (op) {                                                                              \
        case SHOAL_RED_SUM:                                                                        \
            LOOP(T, x + y);                                                                        \
        case SHOAL_RED_PROD:                                                                       \
            LOOP(T, x *y);                                                                         \
        default:                                                                                   \
            return SHOAL_ERR_INVALID_ARG;                                                          \
        }                                                                                          \
    }

INTEGER(i8, int8_t, uint8_t)
INTEGER(i16, int16_t, uint16_t)
INTEGER(i32, int32_t, uint32_t)
INTEGER(i64, int64_t, uint64_t)
INTEGER(u8, uint8_t, uint8_t)
INTEGER(u16, uint16_t, uint16_t)
INTEGER(u32, uint32_t, uint32_t)
INTEGER(u64, uint64_t, uint64_t)
REAL(f32, float)
REAL(f64, double)
REAL(fld, long double)
COMPLEX(c32, float _Complex)
COMPLEX(c64, double _Complex)

typedef shoal_status_t (*combine_fn)(void *, const void *, size_t, shoal_red_op_t);

static combine_fn pick(shoal_dt_t dt, size_t size)
{
    switch (dt) {
    case SHOAL_DT_INT:
        return size == 1 ? i8 : size == 2 ? i16 : size == 4 ? i32 : size == 8 ? i64 : NULL;
    case SHOAL_DT_UINT:
        return size == 1 ? u8 : size == 2 ? u16 : size == 4 ? u32 : size == 8 ? u64 : NULL;
    case SHOAL_DT_FLOAT:
        return size == sizeof(float)         ? f32
               : size == sizeof(double)      ? f64
               : size == sizeof(long double) ? fld
                                             : NULL;
    case SHOAL_DT_COMPLEX:
        return size == sizeof(float _Complex) ? c32 : size == sizeof(double _Complex) ? c64 : NULL;
    }
    return NULL;
}

shoal_status_t shoal_reduce_combine(void *inout, const void *in, size_t count, shoal_red_op_t op,
                                    shoal_dt_t dt, size_t elem_size)
{
    combine_fn fn = pick(dt, elem_size);

    return fn == NULL ? SHOAL_ERR_INVALID_ARG : fn(inout, in, count, op);
}
