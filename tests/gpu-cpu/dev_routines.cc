/* Every generated nvshmem_ device routine, for every type and size (the list in
 * gen/dev_routines.h), and the hand-written ones of gpu/device/device.cu, called
 * on the CPU engine and checked. One kernel of two threads per PE: thread 0 calls
 * each routine on its right-hand neighbour (on itself where that heap is out of
 * reach: SHOAL_TRANSPORT=ucx) and checks what it did through nvshmem_ptr; for
 * the waits, thread 1 sets the ivars one at a time, a millisecond apart, once
 * each wait is posted, so a wait that returns early sees them unset. Exit 0 pass,
 * 99 fail. */
#include "gpu_test.h"
#include "gen/dev_routines.h"

#include <stdint.h>
#include <string.h>

#include <type_traits>

#define N_ELEMS 5   /* RMA elements: odd, so the byte counts take every copy width */
#define MAX_ELEM 16 /* the widest element: put128 */
#define N_IVARS 4
#define SETTER_PAUSE_MS 1
/* signal_wait_until, signal_fetch, my_pe, n_pes, ptr, fence, quiet, nvshmemx_signal_op,
 * team_my_pe, team_n_pes */
#define N_HANDWRITTEN 10

/* One per PE, in the symmetric heap. rma, amo and put_sig are the left-hand
 * neighbour's targets; ivars and sig are this PE's own waits. */
typedef struct area {
    alignas(16) unsigned char rma[N_ELEMS * MAX_ELEM + 8]; /* + 8: an overrun shows */
    alignas(8) unsigned char amo[8];
    alignas(8) unsigned char ivars[N_IVARS * 8];
    uint64_t sig;
    uint64_t put_sig; /* the signal of the neighbour's put_signal and signal_op */
} area_t;

/* What thread 0 asks thread 1 to store, one entry after another. */
typedef struct job {
    int seq;  /* posted jobs; -1: no more */
    int done; /* the last job stored */
    int n;
    size_t size;
    void *addr[N_IVARS];
    uint64_t bits[N_IVARS]; /* the value's bytes, first size of them */
} job_t;

typedef struct kctx {
    area_t *a;
    int me, n_pes, target;
    int shared_me, shared_n, node_me, node_n; /* what the team queries must return */
    job_t job;
    int routines; /* routines checked */
    int failures;
} kctx_t;

/* Entry 1 is out of every set. */
static const int mask[N_IVARS] = {0, 1, 0, 0};

/* Each check quiets first, as a program must before it reads what a put or an
 * AMO delivered: with SHOAL_GPU_PROXY=all the host proxy carries every routine,
 * and a blocking put returns once its source may be reused, not once it landed. */
#define DEV_CHECK(c, routine, cond, fmt, ...)                                                      \
    do {                                                                                           \
        nvshmem_quiet();                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL PE %d %s: %s: " fmt "\n", (c)->me, (routine), #cond,             \
                    __VA_ARGS__);                                                                  \
            (c)->failures++;                                                                       \
        }                                                                                          \
    } while (0)

template <typename T> static T make(int k)
{
    /* Small and non-zero: every type holds it, and a float holds it exactly. */
    if (std::is_floating_point<T>::value)
        return (T)(k % 100 + 1.5);
    return (T)(k % 100 + 1);
}

template <typename T> static int same(T a, T b)
{
    return memcmp(&a, &b, sizeof(T)) == 0;
}

static unsigned char pattern(int salt, size_t j)
{
    return (unsigned char)(salt * 31 + j * 7 + 1);
}

/* Thread 1: makes each posted job's stores, a pause before each. */
static void setter(kctx_t *c)
{
    job_t *job = &c->job;
    int seen = 0, seq, i;

    for (;;) {
        while ((seq = __atomic_load_n(&job->seq, __ATOMIC_ACQUIRE)) == seen)
            gpu_test_sleep_ms(0);
        if (seq < 0)
            return;
        for (i = 0; i < job->n; i++) {
            gpu_test_sleep_ms(SETTER_PAUSE_MS);
            nvshmem_putmem(job->addr[i], &job->bits[i], job->size, c->me);
            nvshmem_quiet();
        }
        seen = seq;
        __atomic_store_n(&job->done, seq, __ATOMIC_RELEASE);
    }
}

/* Thread 0: has thread 1 store vals[k] into ivars[idx[k]] in turn, from now on. */
template <typename T> static void post(kctx_t *c, int n, const int *idx, const T *vals)
{
    T *iv = (T *)c->a->ivars;
    int k;

    c->job.n = n;
    c->job.size = sizeof(T);
    for (k = 0; k < n; k++) {
        c->job.addr[k] = &iv[idx[k]];
        memcpy(&c->job.bits[k], &vals[k], sizeof(T));
    }
    __atomic_store_n(&c->job.seq, c->job.seq + 1, __ATOMIC_RELEASE);
}

static void await_setter(kctx_t *c)
{
    while (__atomic_load_n(&c->job.done, __ATOMIC_ACQUIRE) != c->job.seq)
        gpu_test_sleep_ms(0);
}

template <typename T> static T *ivars_reset(kctx_t *c)
{
    memset(c->a->ivars, 0, sizeof(c->a->ivars));
    return (T *)c->a->ivars;
}

template <typename T> static T load(const T *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* RMA: byte for byte, so the sized forms (T void) and floats check alike. */

template <typename T, typename F>
static void put_common(kctx_t *c, const char *name, F fn, size_t size, int nbi)
{
    unsigned char src[N_ELEMS * MAX_ELEM];
    unsigned char *remote = (unsigned char *)nvshmem_ptr(c->a->rma, c->target);
    size_t bytes = N_ELEMS * size, j;

    c->routines++;
    for (j = 0; j < bytes; j++)
        src[j] = pattern(c->routines, j);
    memset(remote, 0, sizeof(c->a->rma));
    fn((T *)c->a->rma, (const T *)src, N_ELEMS, c->target);
    if (nbi)
        nvshmem_quiet();
    for (j = 0; j < sizeof(c->a->rma); j++)
        DEV_CHECK(c, name, remote[j] == (j < bytes ? src[j] : 0), "byte %zu: expected %d, found %d",
                  j, j < bytes ? src[j] : 0, remote[j]);
}

template <typename T, typename F>
static void get_common(kctx_t *c, const char *name, F fn, size_t size, int nbi)
{
    unsigned char dst[N_ELEMS * MAX_ELEM + 8];
    unsigned char *remote = (unsigned char *)nvshmem_ptr(c->a->rma, c->target);
    size_t bytes = N_ELEMS * size, j;

    c->routines++;
    for (j = 0; j < bytes; j++)
        remote[j] = pattern(c->routines, j);
    memset(dst, 0, sizeof(dst));
    fn((T *)dst, (const T *)c->a->rma, N_ELEMS, c->target);
    if (nbi)
        nvshmem_quiet();
    for (j = 0; j < sizeof(dst); j++)
        DEV_CHECK(c, name, dst[j] == (j < bytes ? remote[j] : 0), "byte %zu: expected %d, found %d",
                  j, j < bytes ? remote[j] : 0, dst[j]);
}

/* Put with signal: the data, then the signal set to a value of this routine's,
 * then the same put again with an ADD of 5 on top. */
template <typename T, typename F>
static void put_signal_common(kctx_t *c, const char *name, F fn, size_t size, int nbi)
{
    unsigned char src[N_ELEMS * MAX_ELEM];
    unsigned char *remote = (unsigned char *)nvshmem_ptr(c->a->rma, c->target);
    uint64_t *rsig = (uint64_t *)nvshmem_ptr(&c->a->put_sig, c->target), set, got;
    size_t bytes = N_ELEMS * size, j;
    int k;

    c->routines++;
    set = 1000 + (uint64_t)c->routines;
    for (j = 0; j < bytes; j++)
        src[j] = pattern(c->routines, j);
    memset(remote, 0, sizeof(c->a->rma));
    __atomic_store_n(rsig, 0, __ATOMIC_RELEASE);
    for (k = 0; k < 2; k++) {
        fn((T *)c->a->rma, (const T *)src, N_ELEMS, &c->a->put_sig, k == 0 ? set : 5,
           k == 0 ? NVSHMEM_SIGNAL_SET : NVSHMEM_SIGNAL_ADD, c->target);
        if (nbi)
            nvshmem_quiet();
        for (j = 0; j < sizeof(c->a->rma); j++)
            DEV_CHECK(c, name, remote[j] == (j < bytes ? src[j] : 0),
                      "byte %zu: expected %d, found %d", j, j < bytes ? src[j] : 0, remote[j]);
        got = load(rsig);
        DEV_CHECK(c, name, got == set + (k == 0 ? 0 : 5), "signal %s: expected %llu, found %llu",
                  k == 0 ? "SET" : "ADD", (unsigned long long)(set + (k == 0 ? 0 : 5)),
                  (unsigned long long)got);
    }
}

template <typename T, typename F>
static void check_put_signal(kctx_t *c, const char *n, F fn, size_t s)
{
    put_signal_common<T>(c, n, fn, s, 0);
}

template <typename T, typename F>
static void check_put_signal_nbi(kctx_t *c, const char *n, F fn, size_t s)
{
    put_signal_common<T>(c, n, fn, s, 1);
}

template <typename T, typename F> static void check_put(kctx_t *c, const char *n, F fn, size_t s)
{
    put_common<T>(c, n, fn, s, 0);
}

template <typename T, typename F>
static void check_put_nbi(kctx_t *c, const char *n, F fn, size_t s)
{
    put_common<T>(c, n, fn, s, 1);
}

template <typename T, typename F> static void check_get(kctx_t *c, const char *n, F fn, size_t s)
{
    get_common<T>(c, n, fn, s, 0);
}

template <typename T, typename F>
static void check_get_nbi(kctx_t *c, const char *n, F fn, size_t s)
{
    get_common<T>(c, n, fn, s, 1);
}

template <typename T, typename F> static void check_p(kctx_t *c, const char *name, F fn, size_t)
{
    unsigned char *remote = (unsigned char *)nvshmem_ptr(c->a->rma, c->target);
    T v = make<T>(++c->routines);
    size_t j;

    memset(remote, 0, sizeof(c->a->rma));
    fn((T *)c->a->rma, v, c->target);
    DEV_CHECK(c, name, memcmp(remote, &v, sizeof(T)) == 0, "the value (%d bytes) differs",
              (int)sizeof(T));
    for (j = sizeof(T); j < sizeof(c->a->rma); j++)
        DEV_CHECK(c, name, remote[j] == 0, "byte %zu past the value is %d", j, remote[j]);
}

template <typename T, typename F> static void check_g(kctx_t *c, const char *name, F fn, size_t)
{
    T *remote = (T *)nvshmem_ptr(c->a->rma, c->target);
    T v = make<T>(++c->routines), got;

    *remote = v;
    got = fn((const T *)c->a->rma, c->target);
    DEV_CHECK(c, name, same(got, v), "expected %lld, found %lld", (long long)v, (long long)got);
}

/* Atomics, on the target's amo word. */

template <typename T> static T *amo_remote(kctx_t *c, T value)
{
    T *remote = (T *)nvshmem_ptr(c->a->amo, c->target);

    c->routines++;
    *remote = value;
    return remote;
}

#define AMO_EQ(c, name, what, expected, found)                                                     \
    DEV_CHECK(c, name, same<T>((expected), (found)), "%s: expected %lld, found %lld", what,        \
              (long long)(expected), (long long)(found))

template <typename T, typename F>
static void check_atomic_compare_swap(kctx_t *c, const char *name, F fn, size_t)
{
    T *remote = amo_remote<T>(c, 5), old;

    old = fn((T *)c->a->amo, (T)6, (T)9, c->target); /* cond differs: no swap */
    AMO_EQ(c, name, "old value, cond not met", (T)5, old);
    AMO_EQ(c, name, "word, cond not met", (T)5, *remote);
    old = fn((T *)c->a->amo, (T)5, (T)9, c->target);
    AMO_EQ(c, name, "old value, cond met", (T)5, old);
    AMO_EQ(c, name, "word, cond met", (T)9, *remote);
}

template <typename T, typename F>
static void check_atomic_fetch_inc(kctx_t *c, const char *name, F fn, size_t)
{
    T *remote = amo_remote<T>(c, 5), old = fn((T *)c->a->amo, c->target);

    AMO_EQ(c, name, "old value", (T)5, old);
    AMO_EQ(c, name, "word", (T)6, *remote);
}

template <typename T, typename F>
static void check_atomic_inc(kctx_t *c, const char *name, F fn, size_t)
{
    T *remote = amo_remote<T>(c, 5);

    fn((T *)c->a->amo, c->target);
    AMO_EQ(c, name, "word", (T)6, *remote);
}

template <typename T, typename F>
static void check_atomic_fetch_add(kctx_t *c, const char *name, F fn, size_t)
{
    T *remote = amo_remote<T>(c, 5), old = fn((T *)c->a->amo, (T)3, c->target);

    AMO_EQ(c, name, "old value", (T)5, old);
    AMO_EQ(c, name, "word", (T)8, *remote);
    old = fn((T *)c->a->amo, (T)-10, c->target); /* below zero, or round the word */
    AMO_EQ(c, name, "old value", (T)8, old);
    AMO_EQ(c, name, "word after adding -10", (T)((T)8 + (T)-10), *remote);
}

template <typename T, typename F>
static void check_atomic_add(kctx_t *c, const char *name, F fn, size_t)
{
    T *remote = amo_remote<T>(c, 5);

    fn((T *)c->a->amo, (T)3, c->target);
    AMO_EQ(c, name, "word", (T)8, *remote);
}

template <typename T, typename F>
static void check_atomic_fetch(kctx_t *c, const char *name, F fn, size_t)
{
    T v = make<T>(c->routines + 1), *remote = amo_remote<T>(c, v);

    AMO_EQ(c, name, "value", v, fn((const T *)c->a->amo, c->target));
    AMO_EQ(c, name, "word", v, *remote);
}

template <typename T, typename F>
static void check_atomic_set(kctx_t *c, const char *name, F fn, size_t)
{
    T v = make<T>(c->routines + 1), *remote = amo_remote<T>(c, 0);

    fn((T *)c->a->amo, v, c->target);
    AMO_EQ(c, name, "word", v, *remote);
}

template <typename T, typename F>
static void check_atomic_swap(kctx_t *c, const char *name, F fn, size_t)
{
    T v = make<T>(c->routines + 1), w = make<T>(c->routines + 2);
    T *remote = amo_remote<T>(c, v), old = fn((T *)c->a->amo, w, c->target);

    AMO_EQ(c, name, "old value", v, old);
    AMO_EQ(c, name, "word", w, *remote);
}

/* The bitwise ones: 12 (1100) with 10 (1010). */
template <typename T, typename F> static void bitwise(kctx_t *c, const char *name, F fn, T expected)
{
    T *remote = amo_remote<T>(c, 12);

    fn((T *)c->a->amo, (T)10, c->target);
    AMO_EQ(c, name, "word", expected, *remote);
}

template <typename T, typename F>
static void fetch_bitwise(kctx_t *c, const char *name, F fn, T expected)
{
    T *remote = amo_remote<T>(c, 12), old = fn((T *)c->a->amo, (T)10, c->target);

    AMO_EQ(c, name, "old value", (T)12, old);
    AMO_EQ(c, name, "word", expected, *remote);
}

template <typename T, typename F>
static void check_atomic_and(kctx_t *c, const char *n, F fn, size_t)
{
    bitwise<T>(c, n, fn, (T)8);
}

template <typename T, typename F>
static void check_atomic_or(kctx_t *c, const char *n, F fn, size_t)
{
    bitwise<T>(c, n, fn, (T)14);
}

template <typename T, typename F>
static void check_atomic_xor(kctx_t *c, const char *n, F fn, size_t)
{
    bitwise<T>(c, n, fn, (T)6);
}

template <typename T, typename F>
static void check_atomic_fetch_and(kctx_t *c, const char *n, F fn, size_t)
{
    fetch_bitwise<T>(c, n, fn, (T)8);
}

template <typename T, typename F>
static void check_atomic_fetch_or(kctx_t *c, const char *n, F fn, size_t)
{
    fetch_bitwise<T>(c, n, fn, (T)14);
}

template <typename T, typename F>
static void check_atomic_fetch_xor(kctx_t *c, const char *n, F fn, size_t)
{
    fetch_bitwise<T>(c, n, fn, (T)6);
}

/* Waits: on this PE's ivars, which thread 1 sets once the wait has begun. */

#define IV_EQ(c, name, i, expected)                                                                \
    DEV_CHECK(c, name, load(&iv[i]) == (T)(expected), "ivars[%d]: expected %lld, found %lld", (i), \
              (long long)(expected), (long long)load(&iv[i]))

/* indices[0..n) must be ascending and each one of a or b. */
static void check_indices(kctx_t *c, const char *name, const size_t *idx, size_t n, size_t a,
                          size_t b)
{
    size_t k;

    for (k = 0; k < n; k++)
        DEV_CHECK(c, name, (idx[k] == a || idx[k] == b) && (k == 0 || idx[k] > idx[k - 1]),
                  "indices[%zu] is %zu, expected %zu or %zu, ascending", k, idx[k], a, b);
}

template <typename T, typename F>
static void check_wait_until(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c), want = make<T>(++c->routines);
    const int idx[] = {0};

    post<T>(c, 1, idx, &want);
    fn(&iv[0], NVSHMEM_CMP_EQ, want);
    IV_EQ(c, name, 0, want);
    await_setter(c);
    fn(&iv[0], NVSHMEM_CMP_EQ, want); /* met already: returns at once */
}

template <typename T, typename F> static void check_wait(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c), want = make<T>(++c->routines);
    const int idx[] = {0};

    post<T>(c, 1, idx, &want);
    fn(&iv[0], (T)0); /* until ivar != 0 */
    IV_EQ(c, name, 0, want);
    await_setter(c);
}

template <typename T, typename F>
static void check_wait_until_all(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c);
    const int idx[] = {3, 0, 2};
    const T vals[] = {5, 3, 4};

    c->routines++;
    post<T>(c, 3, idx, vals);
    fn(iv, N_IVARS, mask, NVSHMEM_CMP_GE, (T)3); /* entry 1 stays 0: masked */
    IV_EQ(c, name, 0, 3);
    IV_EQ(c, name, 2, 4);
    IV_EQ(c, name, 3, 5);
    await_setter(c);
}

template <typename T, typename F>
static void check_wait_until_any(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c);
    const int idx[] = {1, 3};
    const T vals[] = {7, 9};
    size_t found;

    c->routines++;
    post<T>(c, 2, idx, vals);
    found = fn(iv, N_IVARS, mask, NVSHMEM_CMP_NE, (T)0);
    DEV_CHECK(c, name, found == 3, "returned %zu, expected 3 (1 is masked)", found);
    await_setter(c);
}

template <typename T, typename F>
static void check_wait_until_some(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c);
    const int idx[] = {1, 2, 0};
    const T vals[] = {7, 8, 9};
    size_t found[N_IVARS], n;

    c->routines++;
    post<T>(c, 3, idx, vals);
    n = fn(iv, N_IVARS, found, mask, NVSHMEM_CMP_GT, (T)0);
    DEV_CHECK(c, name, n >= 1 && n <= 2, "returned %zu, expected 1 or 2", n);
    check_indices(c, name, found, n, 0, 2);
    await_setter(c);
    n = fn(iv, N_IVARS, found, mask, NVSHMEM_CMP_GT, (T)0);
    DEV_CHECK(c, name, n == 2 && found[0] == 0 && found[1] == 2, "returned %zu once both are set",
              n);
}

static const long long vec[N_IVARS] = {21, 22, 23, 24};

template <typename T> static const T *cmp_values(T *buf)
{
    for (int i = 0; i < N_IVARS; i++)
        buf[i] = (T)vec[i];
    return buf;
}

template <typename T, typename F>
static void check_wait_until_all_vector(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c), buf[N_IVARS];
    const int idx[] = {2, 0, 3};
    const T vals[] = {23, 21, 24};

    c->routines++;
    post<T>(c, 3, idx, vals);
    fn(iv, N_IVARS, mask, NVSHMEM_CMP_EQ, cmp_values(buf));
    IV_EQ(c, name, 0, 21);
    IV_EQ(c, name, 2, 23);
    IV_EQ(c, name, 3, 24);
    await_setter(c);
}

template <typename T, typename F>
static void check_wait_until_any_vector(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c), buf[N_IVARS];
    const int idx[] = {0, 1, 3};
    const T vals[] = {99, 22, 24}; /* 0 is not its value, 1 is masked */
    size_t found;

    c->routines++;
    post<T>(c, 3, idx, vals);
    found = fn(iv, N_IVARS, mask, NVSHMEM_CMP_EQ, cmp_values(buf));
    DEV_CHECK(c, name, found == 3, "returned %zu, expected 3", found);
    await_setter(c);
}

template <typename T, typename F>
static void check_wait_until_some_vector(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c), buf[N_IVARS];
    const int idx[] = {1, 0, 2};
    const T vals[] = {22, 21, 23};
    size_t found[N_IVARS], n;

    c->routines++;
    post<T>(c, 3, idx, vals);
    n = fn(iv, N_IVARS, found, mask, NVSHMEM_CMP_EQ, cmp_values(buf));
    DEV_CHECK(c, name, n >= 1 && n <= 2, "returned %zu, expected 1 or 2", n);
    check_indices(c, name, found, n, 0, 2);
    await_setter(c);
}

/* Tests: no waiting, so thread 0 sets the ivars itself. */

template <typename T, typename F> static void check_test(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c), want = make<T>(++c->routines);
    int r;

    DEV_CHECK(c, name, (r = fn(&iv[0], NVSHMEM_CMP_EQ, want)) == 0, "unset: returned %d", r);
    iv[0] = want;
    DEV_CHECK(c, name, (r = fn(&iv[0], NVSHMEM_CMP_EQ, want)) == 1, "set: returned %d", r);
    iv[0] = (T)-1; /* the comparison is signed exactly for the signed types */
    DEV_CHECK(c, name, (r = fn(&iv[0], NVSHMEM_CMP_LT, (T)0)) == std::is_signed<T>::value,
              "-1 < 0 returned %d", r);
}

template <typename T, typename F>
static void check_test_all(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c);
    int r;

    c->routines++;
    iv[0] = 3;
    iv[3] = 5;
    DEV_CHECK(c, name, (r = fn(iv, N_IVARS, mask, NVSHMEM_CMP_GE, (T)3)) == 0,
              "entry 2 unset: returned %d", r);
    iv[2] = 4;
    DEV_CHECK(c, name, (r = fn(iv, N_IVARS, mask, NVSHMEM_CMP_GE, (T)3)) == 1,
              "all set but the masked one: returned %d", r);
}

template <typename T, typename F>
static void check_test_any(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c);
    size_t r;

    c->routines++;
    iv[1] = 7;
    DEV_CHECK(c, name, (r = fn(iv, N_IVARS, mask, NVSHMEM_CMP_NE, (T)0)) == SIZE_MAX,
              "only the masked one set: returned %zu", r);
    iv[2] = 1;
    DEV_CHECK(c, name, (r = fn(iv, N_IVARS, mask, NVSHMEM_CMP_NE, (T)0)) == 2,
              "entry 2 set: returned %zu", r);
}

template <typename T, typename F>
static void check_test_some(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c);
    size_t found[N_IVARS], r;

    c->routines++;
    iv[1] = 7;
    DEV_CHECK(c, name, (r = fn(iv, N_IVARS, found, mask, NVSHMEM_CMP_GT, (T)0)) == 0,
              "only the masked one set: returned %zu", r);
    iv[0] = 1;
    iv[3] = 2;
    r = fn(iv, N_IVARS, found, mask, NVSHMEM_CMP_GT, (T)0);
    DEV_CHECK(c, name, r == 2 && found[0] == 0 && found[1] == 3, "returned %zu, expected 0 and 3",
              r);
}

template <typename T, typename F>
static void check_test_all_vector(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c), buf[N_IVARS];
    int r;

    c->routines++;
    iv[0] = 21;
    iv[2] = 23;
    DEV_CHECK(c, name, (r = fn(iv, N_IVARS, mask, NVSHMEM_CMP_EQ, cmp_values(buf))) == 0,
              "entry 3 unset: returned %d", r);
    iv[3] = 24;
    DEV_CHECK(c, name, (r = fn(iv, N_IVARS, mask, NVSHMEM_CMP_EQ, cmp_values(buf))) == 1,
              "all set but the masked one: returned %d", r);
}

template <typename T, typename F>
static void check_test_any_vector(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c), buf[N_IVARS];
    size_t r;

    c->routines++;
    iv[0] = 99;
    iv[1] = 22;
    DEV_CHECK(c, name, (r = fn(iv, N_IVARS, mask, NVSHMEM_CMP_EQ, cmp_values(buf))) == SIZE_MAX,
              "none equal to its value but the masked one: returned %zu", r);
    iv[2] = 23;
    DEV_CHECK(c, name, (r = fn(iv, N_IVARS, mask, NVSHMEM_CMP_EQ, cmp_values(buf))) == 2,
              "entry 2 set: returned %zu", r);
}

template <typename T, typename F>
static void check_test_some_vector(kctx_t *c, const char *name, F fn, size_t)
{
    T *iv = ivars_reset<T>(c), buf[N_IVARS];
    size_t found[N_IVARS], r;

    c->routines++;
    iv[0] = 21;
    iv[1] = 22;
    iv[2] = 99;
    iv[3] = 24;
    r = fn(iv, N_IVARS, found, mask, NVSHMEM_CMP_EQ, cmp_values(buf));
    DEV_CHECK(c, name, r == 2 && found[0] == 0 && found[1] == 3, "returned %zu, expected 0 and 3",
              r);
}

/* The hand-written routines of device.cu; returns how many it called. */
static int check_handwritten(kctx_t *c)
{
    uint64_t *sig = &c->a->sig, *remote, got;
    int n = 0;

    n++;
    DEV_CHECK(c, "nvshmem_my_pe", nvshmem_my_pe() == c->me, "returned %d", nvshmem_my_pe());
    n++;
    DEV_CHECK(c, "nvshmem_n_pes", nvshmem_n_pes() == c->n_pes, "returned %d", nvshmem_n_pes());
    n++;
    DEV_CHECK(c, "nvshmem_ptr", nvshmem_ptr(c->a, c->me) == (void *)c->a,
              "this PE's own heap at %p, not %p", nvshmem_ptr(c->a, c->me), (void *)c->a);

    /* fence and quiet order and complete; then the last value is there. */
    remote = (uint64_t *)nvshmem_ptr(c->a->amo, c->target);
    nvshmem_uint64_p((uint64_t *)c->a->amo, 1, c->target);
    nvshmem_fence();
    nvshmem_uint64_p((uint64_t *)c->a->amo, 2, c->target);
    nvshmem_quiet();
    n += 2;
    DEV_CHECK(c, "nvshmem_fence and nvshmem_quiet", *remote == 2, "found %llu",
              (unsigned long long)*remote);

    *sig = 5;
    n++;
    DEV_CHECK(c, "nvshmem_signal_fetch", (got = nvshmem_signal_fetch(sig)) == 5, "returned %llu",
              (unsigned long long)got);
    /* Thread 1 raises the signal to 7 once the wait has begun. */
    c->job.n = 1;
    c->job.size = sizeof(*sig);
    c->job.addr[0] = sig;
    c->job.bits[0] = 7;
    __atomic_store_n(&c->job.seq, c->job.seq + 1, __ATOMIC_RELEASE);
    got = nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, 7);
    n++;
    DEV_CHECK(c, "nvshmem_signal_wait_until", got == 7, "returned %llu", (unsigned long long)got);
    await_setter(c);

    /* The signal update alone, on the neighbour: a SET, then an ADD. */
    remote = (uint64_t *)nvshmem_ptr(&c->a->put_sig, c->target);
    nvshmemx_signal_op(&c->a->put_sig, 3, NVSHMEM_SIGNAL_SET, c->target);
    nvshmemx_signal_op(&c->a->put_sig, 4, NVSHMEM_SIGNAL_ADD, c->target);
    nvshmem_quiet();
    n++;
    DEV_CHECK(c, "nvshmemx_signal_op", (got = load(remote)) == 7, "SET 3 then ADD 4 left %llu",
              (unsigned long long)got);

    /* The predefined teams, as the host worked them out. */
    {
        static const nvshmem_team_t teams[] = {NVSHMEM_TEAM_WORLD, NVSHMEM_TEAM_SHARED,
                                               NVSHMEMX_TEAM_NODE, NVSHMEM_TEAM_INVALID};
        const int my[] = {c->me, c->shared_me, c->node_me, -1};
        const int size[] = {c->n_pes, c->shared_n, c->node_n, -1};
        int t;

        n += 2;
        for (t = 0; t < 4; t++) {
            DEV_CHECK(c, "nvshmem_team_my_pe", nvshmem_team_my_pe(teams[t]) == my[t],
                      "team %d: returned %d, expected %d", teams[t],
                      nvshmem_team_my_pe(teams[t]), my[t]);
            DEV_CHECK(c, "nvshmem_team_n_pes", nvshmem_team_n_pes(teams[t]) == size[t],
                      "team %d: returned %d, expected %d", teams[t],
                      nvshmem_team_n_pes(teams[t]), size[t]);
        }
    }
    return n;
}

__global__ void k_routines(kctx_t *c, int *handwritten)
{
    if (threadIdx.x == 1) {
        setter(c);
        return;
    }
    *handwritten = check_handwritten(c);
#define X(op, type, size, routine) check_##op<type>(c, #routine, routine, size);
    SHOAL_DEV_ROUTINES(X)
#undef X
    __atomic_store_n(&c->job.seq, -1, __ATOMIC_RELEASE); /* thread 1 may end */
}

int main(void)
{
    int me, right, handwritten = 0;
    kctx_t *c;

    shmem_init();
    gpu_test_start("dev_routines", 0);
    me = shmem_my_pe();
    right = (me + 1) % shmem_n_pes();
    c = gpu_test_results<kctx_t>(1);
    c->a = (area_t *)shmem_calloc(1, sizeof(area_t));
    c->me = me;
    c->n_pes = shmem_n_pes();
    /* nvshmem_ptr is NULL for a heap out of the engine's reach (UCX only). */
    c->target = nvshmem_ptr(c->a, right) != NULL ? right : me;
    /* The shared team: the PEs whose heaps the engine reaches; node: the host's. */
    for (int pe = 0; pe < c->n_pes; pe++) {
        if (nvshmem_ptr(c->a, pe) == NULL)
            continue;
        c->shared_me += pe < me;
        c->shared_n++;
    }
    c->node_me = shmem_team_my_pe(SHMEM_TEAM_SHARED);
    c->node_n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    GPU_LAUNCH(k_routines, 1, 2, c, &handwritten);
    GPU_CUDA(cudaGetLastError());
    GPU_CUDA(cudaDeviceSynchronize());

    gpu_test_failures += c->failures;
    GPU_CHECK_EQ("generated routines checked (gen/dev_routines.h)", SHOAL_DEV_ROUTINES_COUNT,
                 c->routines);
    GPU_CHECK_EQ("hand-written routines checked", N_HANDWRITTEN, handwritten);
    if (me == 0)
        printf("dev_routines: %d generated device routines and %d hand-written ones called and "
               "checked, on PE %d's heap (%s)\n",
               c->routines, handwritten, c->target,
               c->target != me ? "the neighbour's"
               : c->n_pes == 1 ? "its own: the only PE"
                               : "its own: the neighbour's is out of reach");
    return gpu_test_finish("dev_routines");
}
