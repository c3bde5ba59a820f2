/* How every layer names symmetric memory: a segment index (addresses travel as
 * segment and offset, never as a pointer) and an AMO's operation. The core, the
 * transports and the GPU library's host proxy share these words, so they live
 * below all of them. Types only; C and C++. */
#ifndef SHOAL_SYMM_H
#define SHOAL_SYMM_H

enum { SHOAL_SEG_HEAP = 0, SHOAL_SEG_DATA = 1, SHOAL_SEG_COUNT = 2 };

/* Atomic operations. They work on the bit patterns of 4- or 8-byte values: two's
 * complement add, bitwise ops, bitwise compare for cswap. */
typedef enum shoal_amo_op {
    SHOAL_AMO_FETCH,
    SHOAL_AMO_SET,
    SHOAL_AMO_SWAP,
    SHOAL_AMO_CSWAP,
    SHOAL_AMO_ADD,
    SHOAL_AMO_AND,
    SHOAL_AMO_OR,
    SHOAL_AMO_XOR,
} shoal_amo_op_t;

#endif
