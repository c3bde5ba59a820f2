/* The reduction operators and the representations they combine: the words the
 * host collectives (shmem/core/coll) and the device ones (gpu/device/coll.cu)
 * share. Header only, no state. */
#ifndef SHOAL_RED_H
#define SHOAL_RED_H

/* Reduction operators and the representations they combine. */
typedef enum shoal_red_op {
    SHOAL_RED_AND,
    SHOAL_RED_OR,
    SHOAL_RED_XOR,
    SHOAL_RED_MAX,
    SHOAL_RED_MIN,
    SHOAL_RED_SUM,
    SHOAL_RED_PROD,
} shoal_red_op_t;

typedef enum shoal_dt {
    SHOAL_DT_INT,     /* signed integer of elem_size bytes */
    SHOAL_DT_UINT,    /* unsigned integer */
    SHOAL_DT_FLOAT,   /* float, double, long double by size */
    SHOAL_DT_COMPLEX, /* float _Complex, double _Complex by size */
} shoal_dt_t;

/* Plain char is signed or not as the compiler decides. */
#define SHOAL_DT_CHAR ((char)-1 < 0 ? SHOAL_DT_INT : SHOAL_DT_UINT)

#endif
