/* One AMO as a CPU atomic on a value mapped here: what the core's direct path
 * and the same-node transport's ops both do, so they share this one copy.
 * Header only; holds no state and never blocks. */
#ifndef SHOAL_ATOMIC_H
#define SHOAL_ATOMIC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "shoal_symm.h"

/* CPU atomics on a mapped value: one locked instruction (or a cmpxchg loop the
 * compiler emits for fetch-and/or/xor). Sequentially consistent, like the peers'. */
#define SHOAL_ATOMIC_FN(T)                                                                         \
    static inline T shoal_atomic_##T(T *p, shoal_amo_op_t op, T v, T cmp)                          \
    {                                                                                              \
        switch (op) {                                                                              \
        case SHOAL_AMO_FETCH:                                                                      \
            return __atomic_load_n(p, __ATOMIC_SEQ_CST);                                           \
        case SHOAL_AMO_SET:                                                                        \
            __atomic_store_n(p, v, __ATOMIC_SEQ_CST);                                              \
            return 0;                                                                              \
        case SHOAL_AMO_SWAP:                                                                       \
            return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                                    \
        case SHOAL_AMO_CSWAP:                                                                      \
            __atomic_compare_exchange_n(p, &cmp, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);        \
            return cmp;                                                                            \
        case SHOAL_AMO_ADD:                                                                        \
            return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);                                     \
        case SHOAL_AMO_AND:                                                                        \
            return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);                                     \
        case SHOAL_AMO_OR:                                                                         \
            return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);                                      \
        case SHOAL_AMO_XOR:                                                                        \
            return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);                                     \
        }                                                                                          \
        return 0;                                                                                  \
    }
SHOAL_ATOMIC_FN(uint32_t)
SHOAL_ATOMIC_FN(uint64_t)

/* The value op leaves in a size-byte (4 or 8) word that held old, operand x
 * (compare cmp for SHOAL_AMO_CSWAP): the same operators as above, on a value
 * no one else sees (a session combining the updates it holds). */
static inline uint64_t shoal_amo_value(shoal_amo_op_t op, size_t size, uint64_t old, uint64_t x,
                                       uint64_t cmp)
{
    uint64_t v = x; /* SET, SWAP */

    switch (op) {
    case SHOAL_AMO_FETCH:
        v = old;
        break;
    case SHOAL_AMO_CSWAP:
        v = old == cmp ? x : old;
        break;
    case SHOAL_AMO_ADD:
        v = old + x;
        break;
    case SHOAL_AMO_AND:
        v = old & x;
        break;
    case SHOAL_AMO_OR:
        v = old | x;
        break;
    case SHOAL_AMO_XOR:
        v = old ^ x;
        break;
    case SHOAL_AMO_SET:
    case SHOAL_AMO_SWAP:
        break;
    }
    return size == 4 ? (uint32_t)v : v;
}

/* op on the size-byte (4 or 8) value at p: operand and compare as op needs, fetch
 * (NULL for none) receives the old value. Inline, so that with op and size known
 * at the call it is the one atomic instruction. */
static inline void shoal_atomic_at(void *p, shoal_amo_op_t op, size_t size, const void *operand,
                                   const void *compare, void *fetch)
{
    if (size == 8) {
        uint64_t v = 0, c = 0, old;

        if (operand != NULL)
            memcpy(&v, operand, 8);
        if (compare != NULL)
            memcpy(&c, compare, 8);
        old = shoal_atomic_uint64_t(p, op, v, c);
        if (fetch != NULL)
            memcpy(fetch, &old, 8);
    } else {
        uint32_t v = 0, c = 0, old;

        if (operand != NULL)
            memcpy(&v, operand, 4);
        if (compare != NULL)
            memcpy(&c, compare, 4);
        old = shoal_atomic_uint32_t(p, op, v, c);
        if (fetch != NULL)
            memcpy(fetch, &old, 4);
    }
}

#endif
