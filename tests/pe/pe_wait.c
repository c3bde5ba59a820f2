/* Point-to-point synchronisation over every wait/test type:
 *  - wait_until with every operator, woken from another PE by p, put_nbi, an AMO
 *    set and an AMO add; the values sit across the sign boundary so that a
 *    comparison of the wrong signedness returns before the update (and is caught);
 *    the same through test (polled) and the C11 generic name;
 *  - wait_until_all/any/some, their vector forms and the test forms, woken by
 *    several PEs each setting one entry, with masked entries that would satisfy
 *    (any/some) or never will (all); any/some return only unmasked, satisfied,
 *    unique indices;
 *  - empty sets (nelems 0, everything masked): all returns, any gives SIZE_MAX,
 *    some 0, test_all 1;
 *  - fairness: with every entry satisfied and no mask, nelems calls of
 *    wait_until_any (and test_any) must report every index, the highest included;
 *  - the deprecated shmem_TYPENAME_wait;
 *  - cmp_values of the vector forms is const (OpenSHMEM 1.6): the adapters pass
 *    const arrays, and a prototype without the const stops the build.
 * Every routine is reached through a table of one-line adapters per type, so the
 * logic below is written once. */
#include "pe_test.h"
#include "shoal_types.h"

#include <stdint.h>

/* Passing a const array where a prototype lacks the const is only a warning in C. */
#if defined(__clang__)
#pragma clang diagnostic error "-Wincompatible-pointer-types-discards-qualifiers"
#elif defined(__GNUC__)
#pragma GCC diagnostic error "-Wdiscarded-qualifiers"
#endif

#define MAXPE 64
#define POLL_SECONDS 30 /* a polled test that never succeeds fails after this */

enum {
    EQ = SHMEM_CMP_EQ,
    NE = SHMEM_CMP_NE,
    GT = SHMEM_CMP_GT,
    LE = SHMEM_CMP_LE,
    LT = SHMEM_CMP_LT,
    GE = SHMEM_CMP_GE
};
static const int cmps[6] = {EQ, NE, GT, LE, LT, GE};
static const char *const cmp_names[7] = {"?", "EQ", "NE", "GT", "LE", "LT", "GE"};

/* One type's routines behind untyped signatures; values travel as long long and
 * are converted to the type (so -1 is the maximum of an unsigned type). */
typedef struct ops {
    void (*wait_until)(void *ivar, int cmp, long long v);
    int (*test)(void *ivar, int cmp, long long v);
    void (*wait_all)(void *iv, size_t n, const int *st, int cmp, long long v);
    size_t (*wait_any)(void *iv, size_t n, const int *st, int cmp, long long v);
    size_t (*wait_some)(void *iv, size_t n, size_t *idx, const int *st, int cmp, long long v);
    void (*wait_all_v)(void *iv, size_t n, const int *st, int cmp, const void *vals);
    size_t (*wait_any_v)(void *iv, size_t n, const int *st, int cmp, const void *vals);
    size_t (*wait_some_v)(void *iv, size_t n, size_t *idx, const int *st, int cmp,
                          const void *vals);
    int (*test_all)(void *iv, size_t n, const int *st, int cmp, long long v);
    size_t (*test_any)(void *iv, size_t n, const int *st, int cmp, long long v);
    size_t (*test_some)(void *iv, size_t n, size_t *idx, const int *st, int cmp, long long v);
    int (*test_all_v)(void *iv, size_t n, const int *st, int cmp, const void *vals);
    size_t (*test_any_v)(void *iv, size_t n, const int *st, int cmp, const void *vals);
    size_t (*test_some_v)(void *iv, size_t n, size_t *idx, const int *st, int cmp,
                          const void *vals);
} ops_t;

typedef struct wtype {
    const char *name;
    size_t size;
    int is_signed;
    void (*store)(void *arr, size_t i, long long v);
    int (*equals)(const void *arr, size_t i, long long v);
    long double (*load)(const void *arr, size_t i);
    void (*p)(void *arr, size_t i, long long v, int pe);
    void (*put_nbi)(void *arr, size_t i, long long v, int pe);
    ops_t typed, generic;
} wtype_t;

#define DEFINE_OPS(T, NAME, PFX, SFX)                                                              \
    static void PFX##wait_until##SFX(void *ivar, int cmp, long long v)                             \
    {                                                                                              \
        shmem_##NAME##_wait_until((T *)ivar, cmp, (T)v);                                           \
    }                                                                                              \
    static int PFX##test##SFX(void *ivar, int cmp, long long v)                                    \
    {                                                                                              \
        return shmem_##NAME##_test((T *)ivar, cmp, (T)v);                                          \
    }                                                                                              \
    static void PFX##wait_all##SFX(void *iv, size_t n, const int *st, int cmp, long long v)        \
    {                                                                                              \
        shmem_##NAME##_wait_until_all((T *)iv, n, st, cmp, (T)v);                                  \
    }                                                                                              \
    static size_t PFX##wait_any##SFX(void *iv, size_t n, const int *st, int cmp, long long v)      \
    {                                                                                              \
        return shmem_##NAME##_wait_until_any((T *)iv, n, st, cmp, (T)v);                           \
    }                                                                                              \
    static size_t PFX##wait_some##SFX(void *iv, size_t n, size_t *idx, const int *st, int cmp,     \
                                      long long v)                                                 \
    {                                                                                              \
        return shmem_##NAME##_wait_until_some((T *)iv, n, idx, st, cmp, (T)v);                     \
    }                                                                                              \
    static void PFX##wait_all_v##SFX(void *iv, size_t n, const int *st, int cmp, const void *vals) \
    {                                                                                              \
        shmem_##NAME##_wait_until_all_vector((T *)iv, n, st, cmp, (const T *)vals);                \
    }                                                                                              \
    static size_t PFX##wait_any_v##SFX(void *iv, size_t n, const int *st, int cmp,                 \
                                       const void *vals)                                           \
    {                                                                                              \
        return shmem_##NAME##_wait_until_any_vector((T *)iv, n, st, cmp, (const T *)vals);         \
    }                                                                                              \
    static size_t PFX##wait_some_v##SFX(void *iv, size_t n, size_t *idx, const int *st, int cmp,   \
                                        const void *vals)                                          \
    {                                                                                              \
        return shmem_##NAME##_wait_until_some_vector((T *)iv, n, idx, st, cmp, (const T *)vals);   \
    }                                                                                              \
    static int PFX##test_all##SFX(void *iv, size_t n, const int *st, int cmp, long long v)         \
    {                                                                                              \
        return shmem_##NAME##_test_all((T *)iv, n, st, cmp, (T)v);                                 \
    }                                                                                              \
    static size_t PFX##test_any##SFX(void *iv, size_t n, const int *st, int cmp, long long v)      \
    {                                                                                              \
        return shmem_##NAME##_test_any((T *)iv, n, st, cmp, (T)v);                                 \
    }                                                                                              \
    static size_t PFX##test_some##SFX(void *iv, size_t n, size_t *idx, const int *st, int cmp,     \
                                      long long v)                                                 \
    {                                                                                              \
        return shmem_##NAME##_test_some((T *)iv, n, idx, st, cmp, (T)v);                           \
    }                                                                                              \
    static int PFX##test_all_v##SFX(void *iv, size_t n, const int *st, int cmp, const void *vals)  \
    {                                                                                              \
        return shmem_##NAME##_test_all_vector((T *)iv, n, st, cmp, (const T *)vals);               \
    }                                                                                              \
    static size_t PFX##test_any_v##SFX(void *iv, size_t n, const int *st, int cmp,                 \
                                       const void *vals)                                           \
    {                                                                                              \
        return shmem_##NAME##_test_any_vector((T *)iv, n, st, cmp, (const T *)vals);               \
    }                                                                                              \
    static size_t PFX##test_some_v##SFX(void *iv, size_t n, size_t *idx, const int *st, int cmp,   \
                                        const void *vals)                                          \
    {                                                                                              \
        return shmem_##NAME##_test_some_vector((T *)iv, n, idx, st, cmp, (const T *)vals);         \
    }

/* The same through the C11 generic names (typedefs select their base type). */
#define DEFINE_GENERIC_OPS(T, NAME)                                                                \
    static void g_wait_until_##NAME(void *ivar, int cmp, long long v)                              \
    {                                                                                              \
        shmem_wait_until((T *)ivar, cmp, (T)v);                                                    \
    }                                                                                              \
    static int g_test_##NAME(void *ivar, int cmp, long long v)                                     \
    {                                                                                              \
        return shmem_test((T *)ivar, cmp, (T)v);                                                   \
    }                                                                                              \
    static void g_wait_all_##NAME(void *iv, size_t n, const int *st, int cmp, long long v)         \
    {                                                                                              \
        shmem_wait_until_all((T *)iv, n, st, cmp, (T)v);                                           \
    }                                                                                              \
    static size_t g_wait_any_##NAME(void *iv, size_t n, const int *st, int cmp, long long v)       \
    {                                                                                              \
        return shmem_wait_until_any((T *)iv, n, st, cmp, (T)v);                                    \
    }                                                                                              \
    static size_t g_wait_some_##NAME(void *iv, size_t n, size_t *idx, const int *st, int cmp,      \
                                     long long v)                                                  \
    {                                                                                              \
        return shmem_wait_until_some((T *)iv, n, idx, st, cmp, (T)v);                              \
    }                                                                                              \
    static void g_wait_all_v_##NAME(void *iv, size_t n, const int *st, int cmp, const void *vals)  \
    {                                                                                              \
        shmem_wait_until_all_vector((T *)iv, n, st, cmp, (const T *)vals);                         \
    }                                                                                              \
    static size_t g_wait_any_v_##NAME(void *iv, size_t n, const int *st, int cmp,                  \
                                      const void *vals)                                            \
    {                                                                                              \
        return shmem_wait_until_any_vector((T *)iv, n, st, cmp, (const T *)vals);                  \
    }                                                                                              \
    static size_t g_wait_some_v_##NAME(void *iv, size_t n, size_t *idx, const int *st, int cmp,    \
                                       const void *vals)                                           \
    {                                                                                              \
        return shmem_wait_until_some_vector((T *)iv, n, idx, st, cmp, (const T *)vals);            \
    }                                                                                              \
    static int g_test_all_##NAME(void *iv, size_t n, const int *st, int cmp, long long v)          \
    {                                                                                              \
        return shmem_test_all((T *)iv, n, st, cmp, (T)v);                                          \
    }                                                                                              \
    static size_t g_test_any_##NAME(void *iv, size_t n, const int *st, int cmp, long long v)       \
    {                                                                                              \
        return shmem_test_any((T *)iv, n, st, cmp, (T)v);                                          \
    }                                                                                              \
    static size_t g_test_some_##NAME(void *iv, size_t n, size_t *idx, const int *st, int cmp,      \
                                     long long v)                                                  \
    {                                                                                              \
        return shmem_test_some((T *)iv, n, idx, st, cmp, (T)v);                                    \
    }                                                                                              \
    static int g_test_all_v_##NAME(void *iv, size_t n, const int *st, int cmp, const void *vals)   \
    {                                                                                              \
        return shmem_test_all_vector((T *)iv, n, st, cmp, (const T *)vals);                        \
    }                                                                                              \
    static size_t g_test_any_v_##NAME(void *iv, size_t n, const int *st, int cmp,                  \
                                      const void *vals)                                            \
    {                                                                                              \
        return shmem_test_any_vector((T *)iv, n, st, cmp, (const T *)vals);                        \
    }                                                                                              \
    static size_t g_test_some_v_##NAME(void *iv, size_t n, size_t *idx, const int *st, int cmp,    \
                                       const void *vals)                                           \
    {                                                                                              \
        return shmem_test_some_vector((T *)iv, n, idx, st, cmp, (const T *)vals);                  \
    }

#define OPS_TABLE(PFX, SFX)                                                                        \
    {                                                                                              \
        PFX##wait_until##SFX, PFX##test##SFX, PFX##wait_all##SFX, PFX##wait_any##SFX,              \
            PFX##wait_some##SFX, PFX##wait_all_v##SFX, PFX##wait_any_v##SFX,                       \
            PFX##wait_some_v##SFX, PFX##test_all##SFX, PFX##test_any##SFX, PFX##test_some##SFX,    \
            PFX##test_all_v##SFX, PFX##test_any_v##SFX, PFX##test_some_v##SFX                      \
    }

#define DEFINE_TYPE(T, NAME, SIGNED)                                                               \
    static void store_##NAME(void *arr, size_t i, long long v)                                     \
    {                                                                                              \
        ((T *)arr)[i] = (T)v;                                                                      \
    }                                                                                              \
    static int equals_##NAME(const void *arr, size_t i, long long v)                               \
    {                                                                                              \
        return __atomic_load_n(&((const T *)arr)[i], __ATOMIC_ACQUIRE) == (T)v;                    \
    }                                                                                              \
    static long double load_##NAME(const void *arr, size_t i)                                      \
    {                                                                                              \
        return __atomic_load_n(&((const T *)arr)[i], __ATOMIC_ACQUIRE);                            \
    }                                                                                              \
    static void p_##NAME(void *arr, size_t i, long long v, int pe)                                 \
    {                                                                                              \
        shmem_##NAME##_p(&((T *)arr)[i], (T)v, pe);                                                \
    }                                                                                              \
    static void put_nbi_##NAME(void *arr, size_t i, long long v, int pe)                           \
    {                                                                                              \
        T val = (T)v;                                                                              \
                                                                                                   \
        shmem_##NAME##_put_nbi(&((T *)arr)[i], &val, 1, pe);                                       \
        shmem_quiet();                                                                             \
    }                                                                                              \
    DEFINE_OPS(T, NAME, , _##NAME)                                                                 \
    DEFINE_GENERIC_OPS(T, NAME)                                                                    \
    static const wtype_t type_##NAME = {                                                           \
        #NAME,       sizeof(T), SIGNED,         store_##NAME,         equals_##NAME,               \
        load_##NAME, p_##NAME,  put_nbi_##NAME, OPS_TABLE(, _##NAME), OPS_TABLE(g_, _##NAME)};
SHOAL_P2P_TYPES_SIGNED(DEFINE_TYPE)

static const wtype_t *const types[] = {
#define TYPE_ENTRY(T, NAME, SIGNED) &type_##NAME,
    SHOAL_P2P_TYPES_SIGNED(TYPE_ENTRY)
#undef TYPE_ENTRY
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

static int me, npes, round_no;
static void *heap_buf;                         /* symmetric, room for 2 * MAXPE + 8 of any type */
static uint64_t data_buf[2 * MAXPE + 8] = {1}; /* the same in the data segment */

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};

    nanosleep(&ts, NULL);
}

/* How a waker updates an entry at a target. The AMOs go through the 32- or 64-bit
 * unsigned AMO of the entry's width; 2-byte types have no AMO and use p. */
enum { M_P, M_PUT_NBI, M_AMO_SET, M_AMO_ADD, NMETHODS };
static const char *const method_names[] = {"p", "put_nbi", "atomic_set", "atomic_add"};

static void wake(const wtype_t *t, void *arr, size_t i, long long from, long long to, int method,
                 int pe)
{
    char *addr = (char *)arr + i * t->size;

    if ((method == M_AMO_SET || method == M_AMO_ADD) && t->size == 2)
        method = M_P;
    switch (method) {
    case M_P:
        t->p(arr, i, to, pe);
        break;
    case M_PUT_NBI:
        t->put_nbi(arr, i, to, pe);
        break;
    case M_AMO_SET:
        if (t->size == 4)
            shmem_uint32_atomic_set((uint32_t *)addr, (uint32_t)to, pe);
        else
            shmem_uint64_atomic_set((uint64_t *)addr, (uint64_t)to, pe);
        break;
    default: /* add the difference, modulo the width */
        if (t->size == 4)
            shmem_uint32_atomic_add((uint32_t *)addr, (uint32_t)to - (uint32_t)from, pe);
        else
            shmem_uint64_atomic_add((uint64_t *)addr, (uint64_t)to - (uint64_t)from, pe);
        break;
    }
}

/* Whether v (converted to the type) satisfies cmp against value. */
static int holds(const wtype_t *t, int cmp, long long v, long long value)
{
    int bits = (int)(8 * t->size);
    unsigned long long mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    unsigned long long a = (unsigned long long)v & mask, b = (unsigned long long)value & mask;
    int lt;

    if (t->is_signed) /* flipping the sign bit maps signed order onto unsigned order */
        lt = (a ^ ((mask >> 1) + 1)) < (b ^ ((mask >> 1) + 1));
    else
        lt = a < b;
    switch (cmp) {
    case EQ:
        return a == b;
    case NE:
        return a != b;
    case GT:
        return !lt && a != b;
    case LE:
        return lt || a == b;
    case LT:
        return lt;
    default:
        return !lt;
    }
}

/* v converted to the type, for messages. */
static long double as_type(const wtype_t *t, long long v)
{
    uint64_t tmp;

    t->store(&tmp, 0, v);
    return t->load(&tmp, 0);
}

/* For each operator: the value waited for, the initial ivar (which does not
 * satisfy it, but would under the other signedness) and the update (which does). */
typedef struct triple {
    long long value, init, wake;
} triple_t;

static triple_t triple_for(const wtype_t *t, int cmp)
{
    static const triple_t s[7] = {{0, 0, 0},   {-7, 0, -7}, {3, 3, -3}, {1, -1, 5},
                                  {-1, 1, -1}, {-1, 1, -2}, {1, -1, 1}};
    static const triple_t u[7] = {{0, 0, 0},  {-7, 0, -7}, {3, 3, -1}, {-2, 1, -1},
                                  {1, -1, 1}, {1, -1, 0},  {-2, 1, -2}};

    return t->is_signed ? s[cmp] : u[cmp];
}

/* wait_until (typed and generic) and test (polled), every operator, every way of
 * waking; the target rotates and its neighbour wakes it. */
enum { W_WAIT, W_GENERIC, W_TEST };
static const struct {
    int mode, method;
} scalar_rounds[] = {{W_WAIT, M_P}, {W_WAIT, M_AMO_SET}, {W_WAIT, M_AMO_ADD},   {W_WAIT, M_PUT_NBI},
                     {W_TEST, M_P}, {W_TEST, M_AMO_SET}, {W_GENERIC, M_AMO_ADD}};

static void scalar_waits(const wtype_t *t)
{
    size_t r;
    int c;

    for (c = 0; c < 6; c++)
        for (r = 0; r < sizeof(scalar_rounds) / sizeof(scalar_rounds[0]); r++) {
            int target = round_no++ % npes, waker = (target + 1) % npes;
            int mode = scalar_rounds[r].mode, method = scalar_rounds[r].method;
            triple_t tr = triple_for(t, cmps[c]);
            void *arr = round_no % 2 ? heap_buf : (void *)data_buf;
            const char *how = mode == W_TEST      ? "test (polled)"
                              : mode == W_GENERIC ? "shmem_wait_until"
                                                  : "wait_until";

            if (me == target) {
                t->store(arr, 0, tr.init);
                PE_CHECK(!holds(t, cmps[c], tr.init, tr.value) &&
                             holds(t, cmps[c], tr.wake, tr.value),
                         "%s %s: bad test triple", t->name, cmp_names[cmps[c]]);
                PE_CHECK(t->typed.test(arr, cmps[c], tr.value) == 0,
                         "%s test %s %lld is 1 before the update (ivar %Lg)", t->name,
                         cmp_names[cmps[c]], tr.value, t->load(arr, 0));
            }
            shmem_barrier_all();
            if (me == waker) {
                if (npes > 1)
                    sleep_us(300); /* let the target block first */
                wake(t, arr, 0, tr.init, tr.wake, method, target);
            }
            if (me == target) {
                if (mode == W_WAIT) {
                    t->typed.wait_until(arr, cmps[c], tr.value);
                } else if (mode == W_GENERIC) {
                    t->generic.wait_until(arr, cmps[c], tr.value);
                } else {
                    time_t end = time(NULL) + POLL_SECONDS;

                    while (!t->typed.test(arr, cmps[c], tr.value) && time(NULL) < end)
                        sched_yield();
                }
                PE_CHECK(t->equals(arr, 0, tr.wake),
                         "%s %s %s %lld woken by %s from PE %d: returned with ivar %Lg, "
                         "expected %Lg",
                         t->name, how, cmp_names[cmps[c]], tr.value, method_names[method], waker,
                         t->load(arr, 0), as_type(t, tr.wake));
            }
            shmem_barrier_all();
        }
}

/* The deprecated wait: returns once *ivar != value. */
#define DEFINE_DEPR_WAIT(T, NAME)                                                                  \
    static void depr_wait_##NAME(void)                                                             \
    {                                                                                              \
        T *ivar = (T *)heap_buf;                                                                   \
        int target = round_no++ % npes, waker = (target + 1) % npes;                               \
                                                                                                   \
        if (me == target)                                                                          \
            *ivar = (T)11;                                                                         \
        shmem_barrier_all();                                                                       \
        if (me == waker) {                                                                         \
            if (npes > 1)                                                                          \
                sleep_us(300);                                                                     \
            shmem_##NAME##_p(ivar, (T)12, target);                                                 \
        }                                                                                          \
        if (me == target) {                                                                        \
            shmem_##NAME##_wait(ivar, (T)11);                                                      \
            PE_CHECK(*(volatile T *)ivar == (T)12,                                                 \
                     "shmem_%s_wait(ivar, 11) returned with ivar %Lg, expected 12", #NAME,         \
                     (long double)*ivar);                                                          \
            shmem_##NAME##_wait(ivar, (T)13); /* differs already: at once */                       \
        }                                                                                          \
        shmem_barrier_all();                                                                       \
    }
SHOAL_DEPR_WAIT_TYPES(DEFINE_DEPR_WAIT)

/* The set forms. Entry 2p is PE p's to set; odd entries are masked and, for
 * any/some, already satisfy the comparison (so reporting one is caught); for all,
 * they never will (so not skipping them hangs, which the watchdog reports). */
enum { F_ALL, F_ANY, F_SOME, F_TEST_ALL, F_TEST_ANY, F_TEST_SOME, NFORMS };
static const char *const form_names[] = {"wait_until_all", "wait_until_any", "wait_until_some",
                                         "test_all",       "test_any",       "test_some"};

/* Checks a reported index of the set: in range, unmasked, even, set, new. */
static void check_reported(const wtype_t *t, const char *what, void *iv, size_t ni,
                           const int *status, size_t idx, int *seen)
{
    int ok = idx < ni && idx % 2 == 0 && status[idx] == 0 && !seen[idx];

    PE_CHECK(ok, "%s %s returned index %zu of %zu: masked, odd, repeated or out of range", t->name,
             what, idx, ni);
    if (!ok)
        return;
    seen[idx] = 1;
    PE_CHECK(t->equals(iv, idx, (long long)(idx / 2 + 1)),
             "%s %s returned index %zu, whose value is %Lg, expected %zu", t->name, what, idx,
             t->load(iv, idx), idx / 2 + 1);
}

static void set_forms(const wtype_t *t, int generic)
{
    size_t ni = 2 * (size_t)npes, i, *idx = malloc(ni * sizeof(size_t));
    int *status = malloc(ni * sizeof(int)), *seen = malloc(ni * sizeof(int));
    char *vals = malloc(ni * t->size);
    const ops_t *o = generic ? &t->generic : &t->typed;
    int form, vector, mask_ok;

    if (idx == NULL || status == NULL || seen == NULL || vals == NULL)
        abort();
    /* A masked, unsatisfied entry must not hold test_all back; where it does, the
     * blocking all forms below would hang, so they are skipped (and this fails). */
    {
        int probe_status[2] = {0, 1};
        char *probe = (char *)heap_buf + ni * 8; /* past every PE's entries */

        t->store(probe, 0, 1);
        t->store(probe, 1, 0);
        mask_ok = o->test_all(probe, 2, probe_status, GE, 1) == 1;
        PE_CHECK(mask_ok, "%s test_all: a masked unsatisfied entry holds it back", t->name);
    }
    for (form = 0; form < NFORMS; form++)
        for (vector = 0; vector < 2; vector++) {
            int target = round_no++ % npes, any_some = form != F_ALL && form != F_TEST_ALL;
            int cmp = vector ? EQ : GE;
            long long odd = any_some ? 5 : 0;
            void *iv = round_no % 2 ? heap_buf : (void *)data_buf;
            char what[96];

            snprintf(what, sizeof(what), "%s%s%s (target PE %d)", generic ? "generic " : "",
                     form_names[form], vector ? "_vector" : "", target);
            if (me == target) {
                for (i = 0; i < ni; i++) {
                    t->store(iv, i, i % 2 ? odd : 0);
                    t->store(vals, i, i % 2 ? 5 : (long long)(i / 2 + 1));
                    status[i] = (int)(i % 2);
                    seen[i] = 0;
                }
                /* Nothing unmasked is satisfied yet. */
                PE_CHECK((vector ? o->test_all_v(iv, ni, status, cmp, vals)
                                 : o->test_all(iv, ni, status, cmp, 1)) == 0,
                         "%s: test_all is 1 before any update", what);
                PE_CHECK((vector ? o->test_any_v(iv, ni, status, cmp, vals)
                                 : o->test_any(iv, ni, status, cmp, 1)) == SIZE_MAX,
                         "%s: test_any found an entry before any update", what);
                PE_CHECK((vector ? o->test_some_v(iv, ni, idx, status, cmp, vals)
                                 : o->test_some(iv, ni, idx, status, cmp, 1)) == 0,
                         "%s: test_some found entries before any update", what);
            }
            shmem_barrier_all();
            /* Every PE sets its entry, staggered, each way in turn. */
            if (npes > 1 && me != target)
                sleep_us(100 * (me + 1));
            wake(t, iv, 2 * (size_t)me, 0, me + 1, (me + form + vector) % NMETHODS, target);

            if (me == target) {
                size_t got = 0, n, k, calls = 0;
                time_t end = time(NULL) + POLL_SECONDS;

                switch (form) {
                case F_ALL:
                case F_TEST_ALL:
                    if (!mask_ok)
                        break;
                    if (form == F_ALL && vector)
                        o->wait_all_v(iv, ni, status, cmp, vals);
                    else if (form == F_ALL)
                        o->wait_all(iv, ni, status, cmp, 1);
                    else
                        while (!(vector ? o->test_all_v(iv, ni, status, cmp, vals)
                                        : o->test_all(iv, ni, status, cmp, 1)) &&
                               time(NULL) < end)
                            sched_yield();
                    for (i = 0; i < ni; i += 2)
                        PE_CHECK(t->equals(iv, i, (long long)(i / 2 + 1)),
                                 "%s returned, but entry %zu is %Lg, expected %zu", what, i,
                                 t->load(iv, i), i / 2 + 1);
                    break;
                case F_ANY:
                case F_TEST_ANY:
                    /* One entry per call, each masked once reported. */
                    for (got = 0; got < (size_t)npes; got++) {
                        size_t r;

                        if (form == F_ANY)
                            r = vector ? o->wait_any_v(iv, ni, status, cmp, vals)
                                       : o->wait_any(iv, ni, status, cmp, 1);
                        else
                            while ((r = vector ? o->test_any_v(iv, ni, status, cmp, vals)
                                               : o->test_any(iv, ni, status, cmp, 1)) == SIZE_MAX &&
                                   time(NULL) < end)
                                sched_yield();
                        check_reported(t, what, iv, ni, status, r, seen);
                        if (r >= ni)
                            break;
                        status[r] = 1;
                    }
                    break;
                default:
                    /* Some per call; unique, and masked once reported. */
                    while (got < (size_t)npes && calls++ <= (size_t)npes) {
                        if (form == F_SOME)
                            n = vector ? o->wait_some_v(iv, ni, idx, status, cmp, vals)
                                       : o->wait_some(iv, ni, idx, status, cmp, 1);
                        else
                            while ((n = vector ? o->test_some_v(iv, ni, idx, status, cmp, vals)
                                               : o->test_some(iv, ni, idx, status, cmp, 1)) == 0 &&
                                   time(NULL) < end)
                                sched_yield();
                        PE_CHECK(n >= 1 && n <= (size_t)npes - got,
                                 "%s returned %zu indices with %zu of %d left", what, n,
                                 (size_t)npes - got, npes);
                        if (n < 1 || n > (size_t)npes - got)
                            break;
                        for (k = 0; k < n; k++)
                            check_reported(t, what, iv, ni, status, idx[k], seen);
                        for (k = 0; k < n; k++)
                            if (idx[k] < ni)
                                status[idx[k]] = 1;
                        got += n;
                    }
                    PE_CHECK(got == (size_t)npes, "%s: %zu of %d entries reported", what, got,
                             npes);
                    break;
                }
                /* Now every entry is masked: the empty-set answers, at once. */
                for (i = 0; i < ni; i++)
                    status[i] = 1;
                if (form == F_ANY || form == F_TEST_ANY)
                    PE_CHECK((vector ? o->wait_any_v(iv, ni, status, cmp, vals)
                                     : o->wait_any(iv, ni, status, cmp, 1)) == SIZE_MAX,
                             "%s: wait_until_any with all masked is not SIZE_MAX", what);
                if (form == F_SOME || form == F_TEST_SOME)
                    PE_CHECK((vector ? o->wait_some_v(iv, ni, idx, status, cmp, vals)
                                     : o->wait_some(iv, ni, idx, status, cmp, 1)) == 0,
                             "%s: wait_until_some with all masked is not 0", what);
            }
            shmem_barrier_all();
        }
    free(vals);
    free(seen);
    free(status);
    free(idx);
}

/* nelems 0 and all masked, on unsatisfied ivars: every form answers at once. The
 * test forms go first, so that a wrong answer is reported rather than hanging. */
static void empty_sets(const wtype_t *t, const ops_t *o, const char *names)
{
    int status[4] = {1, 1, 1, 1}, c;
    size_t idx[4] = {77, 77, 77, 77}, n;
    uint64_t vals[4];
    void *iv = heap_buf;

    for (c = 0; c < 6; c++) {
        triple_t tr = triple_for(t, cmps[c]);

        for (n = 0; n < 4; n++) {
            t->store(iv, n, tr.init);
            t->store(vals, n, tr.value);
        }
        for (n = 0; n <= 4; n += 4) { /* nelems 0, then 4 all masked */
            const int *st = n ? status : NULL;
            int ok_all = o->test_all(iv, n, st, cmps[c], tr.value) == 1 &&
                         o->test_all_v(iv, n, st, cmps[c], vals) == 1;
            int ok_any = o->test_any(iv, n, st, cmps[c], tr.value) == SIZE_MAX &&
                         o->test_any_v(iv, n, st, cmps[c], vals) == SIZE_MAX;
            int ok_some = o->test_some(iv, n, idx, st, cmps[c], tr.value) == 0 &&
                          o->test_some_v(iv, n, idx, st, cmps[c], vals) == 0;

            PE_CHECK(ok_all && ok_any && ok_some,
                     "%s %s test forms on an empty set (nelems %zu, %s): test_all %s, "
                     "test_any %s, test_some %s",
                     names, t->name, n, cmp_names[cmps[c]], ok_all ? "1" : "wrong",
                     ok_any ? "SIZE_MAX" : "wrong", ok_some ? "0" : "wrong");
            if (!(ok_all && ok_any && ok_some))
                continue;
            o->wait_all(iv, n, st, cmps[c], tr.value);
            o->wait_all_v(iv, n, st, cmps[c], vals);
            PE_CHECK(o->wait_any(iv, n, st, cmps[c], tr.value) == SIZE_MAX &&
                         o->wait_any_v(iv, n, st, cmps[c], vals) == SIZE_MAX,
                     "%s %s wait_until_any on an empty set (nelems %zu) is not SIZE_MAX", names,
                     t->name, n);
            PE_CHECK(o->wait_some(iv, n, idx, st, cmps[c], tr.value) == 0 &&
                         o->wait_some_v(iv, n, idx, st, cmps[c], vals) == 0,
                     "%s %s wait_until_some on an empty set (nelems %zu) is not 0", names, t->name,
                     n);
            PE_CHECK(idx[0] == 77, "%s %s: an empty set wrote indices[0] = %zu", names, t->name,
                     idx[0]);
        }
    }
}

/* Fairness: every PE sets its share of nf entries on every PE; then, with all of
 * them satisfied and nothing masked, nf calls of wait_until_any (and of test_any,
 * and of the vector form) must report every index: a scan that always starts at 0
 * starves all but the first. Then, masking each reported entry, each exactly once. */
static void fairness(const wtype_t *t)
{
    size_t nf = (size_t)npes + 3, i, k, r;
    int *status = calloc(nf, sizeof(int)), *seen = calloc(nf, sizeof(int)), pass, pe;
    uint64_t zeros[MAXPE + 3] = {0};
    void *iv = heap_buf;
    static const char *const pass_names[] = {"wait_until_any", "test_any", "wait_until_any_vector",
                                             "test_any_vector"};

    if (status == NULL || seen == NULL)
        abort();
    for (i = 0; i < nf; i++)
        t->store(iv, i, 0);
    shmem_barrier_all();
    for (i = (size_t)me; i < nf; i += (size_t)npes)
        for (pe = 0; pe < npes; pe++)
            t->p(iv, i, (long long)(i + 1), pe);
    shmem_barrier_all();
    for (pass = 0; pass < 4; pass++) {
        size_t missing = 0, first_missing = 0;

        memset(seen, 0, nf * sizeof(int));
        for (k = 0; k < nf; k++) {
            switch (pass) {
            case 0:
                r = t->typed.wait_any(iv, nf, NULL, NE, 0);
                break;
            case 1:
                r = t->typed.test_any(iv, nf, NULL, NE, 0);
                break;
            case 2:
                r = t->typed.wait_any_v(iv, nf, NULL, NE, zeros);
                break;
            default:
                r = t->typed.test_any_v(iv, nf, NULL, NE, zeros);
                break;
            }
            PE_CHECK(r < nf, "%s %s with every entry satisfied returned %zu", t->name,
                     pass_names[pass], r);
            if (r < nf)
                seen[r]++;
        }
        for (i = 0; i < nf; i++)
            if (!seen[i] && missing++ == 0)
                first_missing = i;
        PE_CHECK(missing == 0,
                 "%s %s: %zu calls with all %zu entries satisfied never reported %zu "
                 "entries, the first %zu (highest %zu): starvation",
                 t->name, pass_names[pass], nf, nf, missing, first_missing, nf - 1);
    }
    /* No mask at all (status NULL): all returns, some reports every entry once. */
    {
        size_t *idx = malloc(nf * sizeof(size_t)), n1, n2, n3, n4;

        if (idx == NULL)
            abort();
        t->typed.wait_all(iv, nf, NULL, NE, 0);
        t->typed.wait_all_v(iv, nf, NULL, NE, zeros);
        PE_CHECK(t->typed.test_all(iv, nf, NULL, NE, 0) == 1 &&
                     t->typed.test_all_v(iv, nf, NULL, NE, zeros) == 1,
                 "%s test_all with every entry satisfied and no mask is not 1", t->name);
        n1 = t->typed.wait_some(iv, nf, idx, NULL, NE, 0);
        memset(seen, 0, nf * sizeof(int));
        for (k = 0; k < n1 && k < nf; k++)
            if (idx[k] < nf)
                seen[idx[k]]++;
        for (i = 0, r = 0; i < nf; i++)
            r += seen[i] == 1;
        n2 = t->typed.wait_some_v(iv, nf, idx, NULL, NE, zeros);
        n3 = t->typed.test_some(iv, nf, idx, NULL, NE, 0);
        n4 = t->typed.test_some_v(iv, nf, idx, NULL, NE, zeros);
        PE_CHECK(n1 == nf && r == nf && n2 == nf && n3 == nf && n4 == nf,
                 "%s with all %zu entries satisfied and no mask: wait_until_some %zu (%zu "
                 "distinct), its vector form %zu, test_some %zu, its vector form %zu",
                 t->name, nf, n1, r, n2, n3, n4);
        free(idx);
    }
    /* Masking each reported entry: every entry exactly once, then SIZE_MAX. */
    memset(seen, 0, nf * sizeof(int));
    for (k = 0; k < nf; k++) {
        r = t->typed.wait_any(iv, nf, status, NE, 0);
        PE_CHECK(r < nf && !status[r], "%s wait_until_any with mask returned %zu", t->name, r);
        if (r >= nf)
            break;
        status[r] = 1;
    }
    PE_CHECK(t->typed.wait_any(iv, nf, status, NE, 0) == SIZE_MAX,
             "%s wait_until_any with every entry masked is not SIZE_MAX", t->name);
    shmem_barrier_all();
    free(seen);
    free(status);
}

int main(void)
{
    size_t i;

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    pe_test_upto("pe_wait", MAXPE);
    heap_buf = shmem_calloc(2 * MAXPE + 8, sizeof(uint64_t));
    PE_CHECK(heap_buf != NULL, "shmem_calloc is %p", heap_buf);
    if (heap_buf == NULL)
        return pe_test_finish("pe_wait");

    for (i = 0; i < NTYPES; i++) {
        scalar_waits(types[i]);
        set_forms(types[i], (int)(i % 2)); /* typed names, or the generic ones */
        empty_sets(types[i], &types[i]->typed, "typed");
        empty_sets(types[i], &types[i]->generic, "generic");
        fairness(types[i]);
    }
#define CALL(T, NAME) depr_wait_##NAME();
    SHOAL_DEPR_WAIT_TYPES(CALL)
#undef CALL
    shmem_free(heap_buf);
    return pe_test_finish("pe_wait");
}
