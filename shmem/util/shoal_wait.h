/* The one wait/test core: comparison operators, the all/any/some selection, vector
 * values and status masks, written once for the host (gcc) and the GPU (nvcc).
 * Pure functions over memory: no library state, no progress, no waiting here; the
 * callers loop, drive progress and back off. Loads of the ivars are acquire loads,
 * so nothing after a satisfied test can see memory older than the update it saw. */
#ifndef SHOAL_WAIT_H
#define SHOAL_WAIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define SHOAL_HD __host__ __device__
#else
#define SHOAL_HD
#endif

/* Must equal SHMEM_CMP_* (shmem.h) and NVSHMEM_CMP_*; the API layer checks it. */
enum {
    SHOAL_CMP_EQ = 1,
    SHOAL_CMP_NE = 2,
    SHOAL_CMP_GT = 3,
    SHOAL_CMP_LE = 4,
    SHOAL_CMP_LT = 5,
    SHOAL_CMP_GE = 6,
};

static inline SHOAL_HD int shoal_wait_cmp_valid(int cmp)
{
    return cmp >= SHOAL_CMP_EQ && cmp <= SHOAL_CMP_GE;
}

/* Which entries a wait or test is about. */
typedef enum shoal_sel {
    SHOAL_SEL_ONE,
    SHOAL_SEL_ALL,
    SHOAL_SEL_ANY,
    SHOAL_SEL_SOME,
} shoal_sel_t;

/* A set of ivars and what each must satisfy. */
typedef struct shoal_wait_set {
    const void *ivars;
    size_t nelems;
    size_t elem_size; /* 2, 4 or 8 */
    int is_signed;
    const int *status; /* NULL: every entry; else entries with status[i] != 0 are out */
    int cmp;
    const void *values; /* one value, or nelems values when vector is set */
    int vector;
} shoal_wait_set_t;

/* Acquire load of an ivar (it changes under us), widened to 64 bits by sign. */
static inline SHOAL_HD uint64_t shoal_wait_load_ivar(const void *p, size_t size, int is_signed)
{
#ifdef __CUDA_ARCH__
    /* System scope: the CPU, UCX or a peer's direct store may be the writer. */
    uint64_t v;
    if (size == 8) {
        asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
        return v;
    } else if (size == 4) {
        uint32_t w;
        asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(w) : "l"(p) : "memory");
        return is_signed ? (uint64_t)(int64_t)(int32_t)w : w;
    } else {
        unsigned short h;
        asm volatile("ld.acquire.sys.global.u16 %0, [%1];" : "=h"(h) : "l"(p) : "memory");
        return is_signed ? (uint64_t)(int64_t)(int16_t)h : h;
    }
#else
    if (size == 8)
        return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
    if (size == 4) {
        uint32_t w = __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE);
        return is_signed ? (uint64_t)(int64_t)(int32_t)w : w;
    }
    {
        uint16_t h = __atomic_load_n((const uint16_t *)p, __ATOMIC_ACQUIRE);
        return is_signed ? (uint64_t)(int64_t)(int16_t)h : h;
    }
#endif
}

/* A plain load of a comparison value (local, not shared), widened the same way. */
static inline SHOAL_HD uint64_t shoal_wait_load_value(const void *p, size_t size, int is_signed)
{
    if (size == 8)
        return *(const uint64_t *)p;
    if (size == 4)
        return is_signed ? (uint64_t)(int64_t) * (const int32_t *)p : *(const uint32_t *)p;
    return is_signed ? (uint64_t)(int64_t) * (const int16_t *)p : *(const uint16_t *)p;
}

static inline SHOAL_HD int shoal_wait_compare(int cmp, int is_signed, uint64_t a, uint64_t b)
{
    int lt = is_signed ? (int64_t)a < (int64_t)b : a < b;

    switch (cmp) {
    case SHOAL_CMP_EQ:
        return a == b;
    case SHOAL_CMP_NE:
        return a != b;
    case SHOAL_CMP_GT:
        return !lt && a != b;
    case SHOAL_CMP_LE:
        return lt || a == b;
    case SHOAL_CMP_LT:
        return lt;
    case SHOAL_CMP_GE:
        return !lt;
    }
    return 0;
}

static inline SHOAL_HD int shoal_wait_masked(const shoal_wait_set_t *s, size_t i)
{
    return s->status != NULL && s->status[i] != 0;
}

/* Whether entry i satisfies its comparison now (ignores the mask). */
static inline SHOAL_HD int shoal_wait_test_entry(const shoal_wait_set_t *s, size_t i)
{
    const char *ivar = (const char *)s->ivars + i * s->elem_size;
    const char *value = (const char *)s->values + (s->vector ? i * s->elem_size : 0);

    return shoal_wait_compare(s->cmp, s->is_signed,
                              shoal_wait_load_ivar(ivar, s->elem_size, s->is_signed),
                              shoal_wait_load_value(value, s->elem_size, s->is_signed));
}

/* The first entry at or after from that is in the set (not masked), or nelems. */
static inline SHOAL_HD size_t shoal_wait_next_active(const shoal_wait_set_t *s, size_t from)
{
    while (from < s->nelems && shoal_wait_masked(s, from))
        from++;
    return from;
}

/* Whether every active entry from *next on is satisfied. Entries are taken in order
 * and each is left behind once seen satisfied, so *next records the progress of a
 * wait_until_all; an empty set is satisfied at once. */
static inline SHOAL_HD int shoal_wait_test_all(const shoal_wait_set_t *s, size_t *next)
{
    size_t i = shoal_wait_next_active(s, *next);

    while (i < s->nelems && shoal_wait_test_entry(s, i))
        i = shoal_wait_next_active(s, i + 1);
    *next = i;
    return i == s->nelems;
}

/* A satisfied active entry, or SIZE_MAX. The scan starts at *cursor and leaves it
 * just past the entry found, so repeated calls report every satisfied entry in turn
 * instead of always the lowest one. */
static inline SHOAL_HD size_t shoal_wait_test_any(const shoal_wait_set_t *s, size_t *cursor)
{
    size_t n = s->nelems, k, start = n ? *cursor % n : 0;

    for (k = 0; k < n; k++) {
        size_t i = start + k < n ? start + k : start + k - n;

        if (!shoal_wait_masked(s, i) && shoal_wait_test_entry(s, i)) {
            *cursor = i + 1;
            return i;
        }
    }
    return SIZE_MAX;
}

/* Every satisfied active entry, each once, in index order; returns how many. */
static inline SHOAL_HD size_t shoal_wait_test_some(const shoal_wait_set_t *s, size_t *indices)
{
    size_t i, count = 0;

    for (i = 0; i < s->nelems; i++)
        if (!shoal_wait_masked(s, i) && shoal_wait_test_entry(s, i))
            indices[count++] = i;
    return count;
}

/* Whether the set has no active entry (the empty-set rules apply). */
static inline SHOAL_HD int shoal_wait_empty(const shoal_wait_set_t *s)
{
    return shoal_wait_next_active(s, 0) == s->nelems;
}

/* One turn of a caller's wait loop, between two tests that failed: progress and
 * back-off (the host's also counts for SHOAL_STATS and the hang reports). */
typedef void (*shoal_wait_turn_fn)(void *arg);

/* The wait/test routines' one loop, for the host (wait.c) and the GPU (device.cu):
 * sel's test, and while it fails and block is set, turn(arg) and test again. A
 * test (block 0) returns at once. Returns: ONE/ALL, 0 when blocking, else whether
 * satisfied; ANY, the index found or SIZE_MAX (*any_cursor: where the next scan
 * starts); SOME, how many indices it wrote. The empty-set rules: ANY of none is
 * SIZE_MAX, SOME of none 0, ALL of none satisfied. */
static inline SHOAL_HD size_t shoal_wait_run(const shoal_wait_set_t *s, shoal_sel_t sel, int block,
                                             size_t *indices, size_t *any_cursor,
                                             shoal_wait_turn_fn turn, void *arg)
{
    size_t next = 0, found;

    switch (sel) {
    case SHOAL_SEL_ONE:
    case SHOAL_SEL_ALL:
        while (!shoal_wait_test_all(s, &next)) {
            if (!block)
                return 0;
            turn(arg);
        }
        return block ? 0 : 1;
    case SHOAL_SEL_ANY:
        if (shoal_wait_empty(s))
            return SIZE_MAX;
        while ((found = shoal_wait_test_any(s, any_cursor)) == SIZE_MAX && block)
            turn(arg);
        return found;
    default:
        if (shoal_wait_empty(s))
            return 0;
        while ((found = shoal_wait_test_some(s, indices)) == 0 && block)
            turn(arg);
        return found;
    }
}

#endif
