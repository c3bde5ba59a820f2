// The type-generic names from C++ (the overloads of shoal_typed.h, shmemx_typed.h,
// shmem.h and shmemx.h), built as C++11 and C++17 with -pedantic -Werror
// (pe_cxx_generic11, pe_cxx_generic17): each family called for several types,
// with and without a context, and every value checked, so that an overload that
// reached another type's routine (another size, signedness or operation) fails.
// check_cxx_generic (tests/unit) checks every name and type without a job.
// Exit 0 pass, 99 fail.
#include <shmemx.h>

#include <complex>
#include <cstdio>
#include <type_traits>
#include <unistd.h>

#define N 8 // elements per PE in the RMA and collective tests

static int me, npes, failed;

static void check(const char *what, const char *type, int i, long double want, long double got)
{
    if (want != got) {
        std::fprintf(stderr, "FAIL PE %d: %s on %s [%d]: expected %Lg, found %Lg\n", me, what, type,
                     i, want, got);
        failed++;
    }
}

// A value for element i of PE pe that differs in every byte a wrong routine
// would copy: wide types get values above 255, floating ones a fraction.
template <typename T> static T val(int pe, int i)
{
    long v = (pe * 37 + i * 11 + 5) % 100 + (sizeof(T) > 1 ? 300 : 0);
    return (T)(v + (std::is_floating_point<T>::value ? 0.5 : 0));
}

template <typename T> static T *sym(size_t n)
{
    T *p = static_cast<T *>(shmem_calloc(n, sizeof(T)));
    if (!p) {
        std::fprintf(stderr, "FAIL PE %d: shmem_calloc of %zu bytes\n", me, n * sizeof(T));
        shmem_global_exit(99);
    }
    return p;
}

template <typename T> static void clear(T *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = T();
}

// put, get, p, g, iput, iget, the _nbi forms, ibput and ibget, each once with
// the default context and once with SHMEM_CTX_DEFAULT passed.
template <typename T> static void rma(const char *type)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    T *src = sym<T>(N), *dst = sym<T>(N);
    T local[N];
    const T *csrc = src;

    for (int i = 0; i < N; i++)
        src[i] = val<T>(me, i);
    for (int form = 0; form < 2; form++) {
        clear(dst, N);
        shmem_barrier_all();
        if (form == 0)
            shmem_put(dst, src, N, right);
        else
            shmem_put(SHMEM_CTX_DEFAULT, dst, src, N, right);
        shmem_barrier_all();
        for (int i = 0; i < N; i++)
            check("shmem_put", type, i, val<T>(left, i), dst[i]);

        clear(local, N);
        if (form == 0)
            shmem_get(local, src, N, right);
        else
            shmem_get(SHMEM_CTX_DEFAULT, local, src, N, right);
        for (int i = 0; i < N; i++)
            check("shmem_get", type, i, val<T>(right, i), local[i]);

        // p writes element 1 of the right neighbour; g reads through const.
        shmem_barrier_all();
        if (form == 0)
            shmem_p(&dst[1], val<T>(me, 50), right);
        else
            shmem_p(SHMEM_CTX_DEFAULT, &dst[1], val<T>(me, 50), right);
        shmem_barrier_all();
        check("shmem_p", type, 1, val<T>(left, 50), dst[1]);
        T g = form == 0 ? shmem_g(&csrc[3], right) : shmem_g(SHMEM_CTX_DEFAULT, &src[3], right);
        check("shmem_g", type, 3, val<T>(right, 3), g);

        // iput: source elements 0, 1, 2 to dest elements 0, 3, 6.
        clear(dst, N);
        shmem_barrier_all();
        if (form == 0)
            shmem_iput(dst, src, 3, 1, 3, right);
        else
            shmem_iput(SHMEM_CTX_DEFAULT, dst, src, 3, 1, 3, right);
        shmem_barrier_all();
        for (int i = 0; i < N; i++)
            check("shmem_iput", type, i, i % 3 == 0 ? val<T>(left, i / 3) : T(), dst[i]);
        // iget: source elements 1, 3, 5, 7 to local 0, 1, 2, 3.
        clear(local, N);
        if (form == 0)
            shmem_iget(local, &src[1], 1, 2, 4, right);
        else
            shmem_iget(SHMEM_CTX_DEFAULT, local, &src[1], 1, 2, 4, right);
        for (int i = 0; i < 4; i++)
            check("shmem_iget", type, i, val<T>(right, 2 * i + 1), local[i]);

        clear(dst, N);
        clear(local, N);
        shmem_barrier_all();
        if (form == 0) {
            shmem_put_nbi(dst, src, N, right);
            shmem_get_nbi(local, src, N, left);
            shmem_quiet();
        } else {
            shmem_put_nbi(SHMEM_CTX_DEFAULT, dst, src, N, right);
            shmem_get_nbi(SHMEM_CTX_DEFAULT, local, src, N, left);
            shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
        }
        shmem_barrier_all();
        for (int i = 0; i < N; i++) {
            check("shmem_put_nbi", type, i, val<T>(left, i), dst[i]);
            check("shmem_get_nbi", type, i, val<T>(left, i), local[i]);
        }

        // ibput: 2 blocks of 2, source stride 3, dest stride 4: source 0 1, 3 4
        // to dest 0 1, 4 5. ibget back from the right neighbour the same way.
        clear(dst, N);
        shmem_barrier_all();
        if (form == 0)
            shmem_ibput(dst, src, 4, 3, 2, 2, right);
        else
            shmemx_ibput(SHMEM_CTX_DEFAULT, dst, src, 4, 3, 2, 2, right);
        shmem_barrier_all();
        for (int i = 0; i < N; i++) {
            int from = i % 4 < 2 ? i / 4 * 3 + i % 4 : -1;
            check(form == 0 ? "shmem_ibput" : "shmemx_ibput", type, i,
                  from < 0 ? T() : val<T>(left, from), dst[i]);
        }
        clear(local, N);
        if (form == 0)
            shmem_ibget(local, src, 4, 3, 2, 2, right);
        else
            shmem_ibget(SHMEM_CTX_DEFAULT, local, src, 4, 3, 2, 2, right);
        for (int i = 0; i < N; i++) {
            int from = i % 4 < 2 ? i / 4 * 3 + i % 4 : -1;
            check("shmem_ibget", type, i, from < 0 ? T() : val<T>(right, from), local[i]);
        }
    }
    shmem_barrier_all();
    shmem_free(dst);
    shmem_free(src);
}

// The standard AMOs on PE 0's counter and on each right neighbour's slot.
template <typename T> static void amo_std(const char *type)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    T *ctr = sym<T>(1), *slot = sym<T>(3);
    T fetched = T();

    shmem_barrier_all();
    // Each PE adds me + 1 twice (once through the context form), then
    // increments 3 times: 0's counter ends at npes(npes + 1) + 3 npes.
    shmem_atomic_fetch_add(ctr, (T)(me + 1), 0);
    shmem_atomic_add(SHMEM_CTX_DEFAULT, ctr, (T)(me + 1), 0);
    shmem_atomic_inc(ctr, 0);
    shmem_atomic_fetch_inc(SHMEM_CTX_DEFAULT, ctr, 0);
    shmem_atomic_fetch_inc_nbi(&fetched, ctr, 0);
    shmem_quiet();
    shmem_barrier_all();
    if (me == 0)
        check("shmem_atomic_fetch_add/add/inc/fetch_inc", type, 0, npes * (npes + 1) + 3 * npes,
              *ctr);

    // compare_swap on the right neighbour's slot 0, which only this PE changes:
    // 0 -> me + 1 -> me + 2, each form also tried with a stale condition.
    T old = shmem_atomic_compare_swap(&slot[0], T(), (T)(me + 1), right);
    check("shmem_atomic_compare_swap (fetched)", type, 0, 0, old);
    old = shmem_atomic_compare_swap(&slot[0], T(), (T)(me + 7), right);
    check("shmem_atomic_compare_swap stale (fetched)", type, 0, me + 1, old);
    old = shmem_atomic_compare_swap(SHMEM_CTX_DEFAULT, &slot[0], (T)(me + 1), (T)(me + 2), right);
    check("shmem_atomic_compare_swap ctx (fetched)", type, 0, me + 1, old);
    old = shmem_atomic_compare_swap(SHMEM_CTX_DEFAULT, &slot[0], T(), (T)(me + 9), right);
    check("shmem_atomic_compare_swap ctx stale (fetched)", type, 0, me + 2, old);
    shmem_atomic_compare_swap_nbi(&fetched, &slot[1], T(), (T)(me + 300), right);
    shmem_quiet();
    shmem_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, &old, &slot[1], (T)1, right);
    shmem_quiet();
    shmem_barrier_all();
    check("shmem_atomic_compare_swap", type, 0, left + 2, slot[0]);
    check("shmem_atomic_compare_swap_nbi and fetch_add_nbi", type, 1, left + 301, slot[1]);
    check("shmem_atomic_compare_swap_nbi (fetched)", type, 1, 0, fetched);
    check("shmem_atomic_fetch_add_nbi (fetched)", type, 1, me + 300, old);
    // fetch_add on the right neighbour's slot 2, which only this PE changes.
    check("shmem_atomic_fetch_add (fetched)", type, 2, 0,
          shmem_atomic_fetch_add(&slot[2], (T)(me + 5), right));
    check("shmem_atomic_fetch_add (fetched)", type, 2, me + 5,
          shmem_atomic_fetch_add(SHMEM_CTX_DEFAULT, &slot[2], (T)(me + 5), right));
    check("shmem_atomic_fetch_inc (fetched)", type, 2, 2 * me + 10,
          shmem_atomic_fetch_inc(&slot[2], right));
    shmem_barrier_all();
    shmem_free(slot);
    shmem_free(ctr);
}

// The extended AMOs: set, fetch (through const), swap, and the _nbi forms.
template <typename T> static void amo_ext(const char *type)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    T *slot = sym<T>(2);
    const T *cslot = slot;
    T fetched = T();

    shmem_barrier_all();
    shmem_atomic_set(&slot[0], val<T>(me, 1), right);
    shmem_atomic_set(SHMEM_CTX_DEFAULT, &slot[1], val<T>(me, 2), right);
    shmem_barrier_all();
    check("shmem_atomic_set", type, 0, val<T>(left, 1), slot[0]);
    check("shmem_atomic_fetch", type, 0, val<T>(me, 1), shmem_atomic_fetch(cslot, right));
    check("shmem_atomic_fetch", type, 1, val<T>(me, 2),
          shmem_atomic_fetch(SHMEM_CTX_DEFAULT, &slot[1], right));
    shmem_atomic_fetch_nbi(&fetched, cslot, left);
    shmem_quiet();
    check("shmem_atomic_fetch_nbi", type, 0, val<T>((left + npes - 1) % npes, 1), fetched);
    shmem_barrier_all();
    check("shmem_atomic_swap", type, 0, val<T>(me, 1),
          shmem_atomic_swap(&slot[0], val<T>(me, 3), right));
    shmem_atomic_swap_nbi(SHMEM_CTX_DEFAULT, &fetched, &slot[1], val<T>(me, 4), right);
    shmem_quiet();
    check("shmem_atomic_swap_nbi (fetched)", type, 1, val<T>(me, 2), fetched);
    shmem_barrier_all();
    check("shmem_atomic_swap", type, 0, val<T>(left, 3), slot[0]);
    check("shmem_atomic_swap_nbi", type, 1, val<T>(left, 4), slot[1]);
    shmem_barrier_all();
    shmem_free(slot);
}

// The bitwise AMOs on PE 0's words: each PE sets bit me with the or and xor
// forms, then clears it with the and and xor forms; any order gives the same.
template <typename T> static void amo_bit(const char *type)
{
    T *word = sym<T>(5);
    T bit = (T)(1u << me), all = (T)((1u << npes) - 1), f[5];

    shmem_barrier_all();
    shmem_atomic_or(&word[0], bit, 0);
    shmem_atomic_fetch_or(SHMEM_CTX_DEFAULT, &word[1], bit, 0);
    shmem_atomic_xor(&word[2], bit, 0);
    shmem_atomic_fetch_or_nbi(&f[3], &word[3], bit, 0);
    shmem_atomic_fetch_xor_nbi(SHMEM_CTX_DEFAULT, &f[4], &word[4], bit, 0);
    shmem_quiet();
    shmem_barrier_all();
    if (me == 0)
        for (int i = 0; i < 5; i++)
            check("shmem_atomic_or/fetch_or/xor/fetch_or_nbi/fetch_xor_nbi", type, i, all, word[i]);
    shmem_barrier_all();
    // Each fetch sees bit me still set: only this PE clears it.
    f[0] = shmem_atomic_fetch_and(&word[0], (T)~bit, 0);
    shmem_atomic_and(SHMEM_CTX_DEFAULT, &word[1], (T)~bit, 0);
    f[2] = shmem_atomic_fetch_xor(SHMEM_CTX_DEFAULT, &word[2], bit, 0);
    shmem_atomic_fetch_and_nbi(&f[3], &word[3], (T)~bit, 0);
    shmem_atomic_fetch_xor_nbi(&f[4], &word[4], bit, 0);
    shmem_quiet();
    for (int i = 0; i < 5; i++)
        if (i != 1)
            check("shmem_atomic_fetch_and/fetch_xor/_nbi (bit me fetched)", type, i, bit,
                  f[i] & bit);
    shmem_barrier_all();
    if (me == 0)
        for (int i = 0; i < 5; i++)
            check("shmem_atomic_fetch_and/and/fetch_xor/_nbi", type, i, 0, word[i]);
    shmem_barrier_all();
    shmem_free(word);
}

// Point-to-point: the left neighbour's put_signal sets a uint64_t flag, and the
// p2p family waits on typed flags set by shmem_p.
template <typename T> static void p2p(const char *type)
{
    int right = (me + 1) % npes;
    T *flags = sym<T>(4);
    T cmp[4];
    int status[4] = {0, 0, 0, 0}, one[4] = {1, 1, 0, 1}; // one: only index 2 is active
    size_t idx[4];

    shmem_barrier_all();
    for (int i = 0; i < 4; i++)
        shmem_p(&flags[i], (T)(i + 1), right);
    shmem_quiet();
    shmem_wait_until(&flags[0], SHMEM_CMP_EQ, (T)1);
    shmem_wait_until_all(flags, 4, status, SHMEM_CMP_GT, T());
    size_t any = shmem_wait_until_any(flags, 4, status, SHMEM_CMP_EQ, (T)3);
    check("shmem_wait_until_any", type, 0, 2, any);
    size_t some = shmem_wait_until_some(flags, 4, idx, status, SHMEM_CMP_GE, (T)3);
    check("shmem_wait_until_some (count)", type, 0, 2, some);
    check("shmem_wait_until_some (index)", type, 0, 2, idx[0]);
    for (int i = 0; i < 4; i++)
        cmp[i] = (T)(i + 1);
    shmem_wait_until_all_vector(flags, 4, status, SHMEM_CMP_EQ, cmp);
    check("shmem_wait_until_any_vector", type, 0, 2,
          shmem_wait_until_any_vector(flags, 4, one, SHMEM_CMP_EQ, cmp));
    check("shmem_wait_until_some_vector", type, 0, 4,
          shmem_wait_until_some_vector(flags, 4, idx, status, SHMEM_CMP_LE, cmp));
    check("shmem_test", type, 0, 1, shmem_test(&flags[3], SHMEM_CMP_EQ, (T)4));
    check("shmem_test (false)", type, 0, 0, shmem_test(&flags[3], SHMEM_CMP_EQ, (T)5));
    check("shmem_test_all", type, 0, 1, shmem_test_all(flags, 4, status, SHMEM_CMP_LT, (T)5));
    check("shmem_test_any", type, 0, 3, shmem_test_any(flags, 4, status, SHMEM_CMP_EQ, (T)4));
    check("shmem_test_some", type, 0, 1,
          shmem_test_some(flags, 4, idx, status, SHMEM_CMP_EQ, (T)2));
    check("shmem_test_all_vector", type, 0, 1,
          shmem_test_all_vector(flags, 4, status, SHMEM_CMP_EQ, cmp));
    check("shmem_test_any_vector", type, 0, 2,
          shmem_test_any_vector(flags, 4, one, SHMEM_CMP_EQ, cmp));
    check("shmem_test_some_vector", type, 0, 4,
          shmem_test_some_vector(flags, 4, idx, status, SHMEM_CMP_GE, cmp));
    shmem_barrier_all();
    shmem_free(flags);
}

// put_signal: data of type T and a signal the right neighbour waits for with
// the generic wait_until on its uint64_t flag; then the _nbi form, the context
// forms, and shmem_signal_add and shmem_signal_set with a context.
template <typename T> static void signal(const char *type)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    T *dst = sym<T>(N), *src = sym<T>(N);
    uint64_t *sig = sym<uint64_t>(1);

    for (int i = 0; i < N; i++)
        src[i] = val<T>(me, i);
    shmem_barrier_all();
    shmem_put_signal(dst, src, N, sig, 1, SHMEM_SIGNAL_SET, right);
    shmem_wait_until(sig, SHMEM_CMP_EQ, (uint64_t)1);
    for (int i = 0; i < N; i++)
        check("shmem_put_signal", type, i, val<T>(left, i), dst[i]);
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        src[i] = val<T>(me, i + 20);
    shmem_put_signal_nbi(SHMEM_CTX_DEFAULT, dst, src, 2, sig, 2, SHMEM_SIGNAL_ADD, right);
    shmem_quiet();
    shmem_wait_until(sig, SHMEM_CMP_EQ, (uint64_t)3);
    for (int i = 0; i < 2; i++)
        check("shmem_put_signal_nbi (ctx)", type, i, val<T>(left, i + 20), dst[i]);
    shmem_barrier_all();
    shmem_signal_add(SHMEM_CTX_DEFAULT, sig, 4, right);
    shmem_quiet();
    shmem_wait_until(sig, SHMEM_CMP_EQ, (uint64_t)7);
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        src[i] = val<T>(me, i + 40);
    shmem_put_signal(SHMEM_CTX_DEFAULT, dst, src, N, sig, 9, SHMEM_SIGNAL_SET, right);
    shmem_wait_until(sig, SHMEM_CMP_EQ, (uint64_t)9);
    for (int i = 0; i < N; i++)
        check("shmem_put_signal (ctx)", type, i, val<T>(left, i + 40), dst[i]);
    shmem_barrier_all();
    shmem_signal_set(SHMEM_CTX_DEFAULT, sig, 11, right);
    shmem_quiet();
    shmem_wait_until(sig, SHMEM_CMP_EQ, (uint64_t)11);
    check("shmem_signal_set (ctx)", type, 0, 11, shmem_signal_fetch(sig));
    shmem_barrier_all();
    shmem_free(sig);
    shmem_free(src);
    shmem_free(dst);
}

// broadcast, collect, fcollect, alltoall, alltoalls on SHMEM_TEAM_WORLD.
template <typename T> static void coll(const char *type)
{
    int root = npes - 1;
    T *src = sym<T>(N * npes), *dst = sym<T>(N * npes);
    int rc;

    for (int i = 0; i < N * npes; i++)
        src[i] = val<T>(me, i);
    shmem_barrier_all();
    rc = shmem_broadcast(SHMEM_TEAM_WORLD, dst, src, N, root);
    check("shmem_broadcast (returned)", type, 0, 0, rc);
    for (int i = 0; i < N; i++)
        check("shmem_broadcast", type, i, val<T>(root, i), dst[i]);
    shmem_barrier_all();
    rc = shmem_fcollect(SHMEM_TEAM_WORLD, dst, src, N);
    check("shmem_fcollect (returned)", type, 0, 0, rc);
    for (int i = 0; i < N * npes; i++)
        check("shmem_fcollect", type, i, val<T>(i / N, i % N), dst[i]);
    shmem_barrier_all();
    // collect: PE p gives p % 2 + 1 elements.
    clear(dst, N * npes);
    rc = shmem_collect(SHMEM_TEAM_WORLD, dst, src, me % 2 + 1);
    check("shmem_collect (returned)", type, 0, 0, rc);
    for (int p = 0, at = 0; p < npes; at += p % 2 + 1, p++)
        for (int i = 0; i < p % 2 + 1; i++)
            check("shmem_collect", type, at + i, val<T>(p, i), dst[at + i]);
    shmem_barrier_all();
    rc = shmem_alltoall(SHMEM_TEAM_WORLD, dst, src, N);
    check("shmem_alltoall (returned)", type, 0, 0, rc);
    for (int p = 0; p < npes; p++)
        for (int i = 0; i < N; i++)
            check("shmem_alltoall", type, p * N + i, val<T>(p, me * N + i), dst[p * N + i]);
    shmem_barrier_all();
    // alltoalls: one element to each PE, source stride 2, dest stride 1.
    clear(dst, N * npes);
    shmem_barrier_all();
    rc = shmem_alltoalls(SHMEM_TEAM_WORLD, dst, src, 1, 2, 1);
    check("shmem_alltoalls (returned)", type, 0, 0, rc);
    for (int p = 0; p < npes; p++)
        check("shmem_alltoalls", type, p, val<T>(p, 2 * me), dst[p]);
    shmem_barrier_all();
    shmem_free(dst);
    shmem_free(src);
}

// sum_reduce and the scans for a type: element i of PE p is p + i + 1
// (sums stay exact and small).
template <typename T> static void sums(const char *type)
{
    T *src = sym<T>(N), *dst = sym<T>(N);
    int rc;

    for (int i = 0; i < N; i++)
        src[i] = (T)(me + i + 1);
    shmem_barrier_all();
    rc = shmem_sum_reduce(SHMEM_TEAM_WORLD, dst, src, N);
    check("shmem_sum_reduce (returned)", type, 0, 0, rc);
    for (int i = 0; i < N; i++)
        check("shmem_sum_reduce", type, i, npes * (npes - 1) / 2 + npes * (i + 1), dst[i]);
    shmem_barrier_all();
    rc = shmem_sum_inscan(SHMEM_TEAM_WORLD, dst, src, N);
    check("shmem_sum_inscan (returned)", type, 0, 0, rc);
    for (int i = 0; i < N; i++)
        check("shmem_sum_inscan", type, i, me * (me + 1) / 2 + (me + 1) * (i + 1), dst[i]);
    shmem_barrier_all();
    rc = shmemx_sum_exscan(SHMEM_TEAM_WORLD, dst, src, N);
    check("shmemx_sum_exscan (returned)", type, 0, 0, rc);
    for (int i = 0; i < N; i++)
        check("shmemx_sum_exscan", type, i, me * (me - 1) / 2 + me * (i + 1), dst[i]);
    shmem_barrier_all();
    shmem_free(dst);
    shmem_free(src);
}

// The other reductions on one type each: max, min, prod, and, or, xor.
static void reductions(void)
{
    long *lsrc = sym<long>(2), *ldst = sym<long>(2);
    unsigned *usrc = sym<unsigned>(3), *udst = sym<unsigned>(3);
    double *dsrc = sym<double>(1), *ddst = sym<double>(1);

    lsrc[0] = 1000 + me;
    lsrc[1] = -1000 - me;
    usrc[0] = ~(1u << me);
    usrc[1] = 1u << me;
    usrc[2] = 1u << me;
    dsrc[0] = me % 2 == 0 ? 2.0 : 0.5;
    shmem_barrier_all();
    shmem_max_reduce(SHMEM_TEAM_WORLD, ldst, lsrc, 2);
    check("shmem_max_reduce", "long", 0, 1000 + npes - 1, ldst[0]);
    check("shmem_max_reduce", "long", 1, -1000, ldst[1]);
    shmem_barrier_all();
    shmem_min_reduce(SHMEM_TEAM_WORLD, ldst, lsrc, 2);
    check("shmem_min_reduce", "long", 0, 1000, ldst[0]);
    check("shmem_min_reduce", "long", 1, -1000 - (npes - 1), ldst[1]);
    shmem_barrier_all();
    shmem_and_reduce(SHMEM_TEAM_WORLD, udst, usrc, 1);
    check("shmem_and_reduce", "unsigned int", 0, ~((1u << npes) - 1), udst[0]);
    shmem_barrier_all();
    shmem_or_reduce(SHMEM_TEAM_WORLD, udst, usrc + 1, 1);
    check("shmem_or_reduce", "unsigned int", 0, (1u << npes) - 1, udst[0]);
    shmem_barrier_all();
    shmem_xor_reduce(SHMEM_TEAM_WORLD, udst, usrc + 2, 1);
    check("shmem_xor_reduce", "unsigned int", 0, (1u << npes) - 1, udst[0]);
    shmem_barrier_all();
    double want = 1;
    for (int p = 0; p < npes; p++)
        want *= p % 2 == 0 ? 2.0 : 0.5;
    shmem_prod_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, 1);
    check("shmem_prod_reduce", "double", 0, want, ddst[0]);
    shmem_barrier_all();
    shmem_free(ddst);
    shmem_free(dsrc);
    shmem_free(udst);
    shmem_free(usrc);
    shmem_free(ldst);
    shmem_free(lsrc);
}

// The complex overload of sum_reduce (a GNU extension in C++, as pe_cxx has it).
__extension__ typedef double _Complex complexd_t;
static void complex_sum(void)
{
    std::complex<double> *src = sym<std::complex<double>>(2), *dst = sym<std::complex<double>>(2);
    for (int i = 0; i < 2; i++)
        src[i] = std::complex<double>(me + 1, i * me);
    shmem_barrier_all();
    shmem_sum_reduce(SHMEM_TEAM_WORLD, reinterpret_cast<complexd_t *>(dst),
                     reinterpret_cast<const complexd_t *>(src), 2);
    for (int i = 0; i < 2; i++) {
        check("shmem_sum_reduce (real)", "double _Complex", i, npes * (npes + 1) / 2,
              dst[i].real());
        check("shmem_sum_reduce (imaginary)", "double _Complex", i, i * npes * (npes - 1) / 2,
              dst[i].imag());
    }
    shmem_barrier_all();
    shmem_free(dst);
    shmem_free(src);
}

int main()
{
    alarm(120);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > 16)
        shmem_global_exit(77);

    rma<int>("int");
    rma<double>("double");
    rma<long double>("long double");
    rma<unsigned char>("unsigned char");
    rma<short>("short");
    rma<int64_t>("int64_t");
    rma<size_t>("size_t");

    amo_std<int>("int");
    amo_std<unsigned long long>("unsigned long long");
    amo_std<int64_t>("int64_t");
    amo_std<ptrdiff_t>("ptrdiff_t");
    amo_ext<int>("int");
    amo_ext<float>("float");
    amo_ext<double>("double");
    amo_ext<uint64_t>("uint64_t");
    amo_bit<unsigned int>("unsigned int");
    amo_bit<uint64_t>("uint64_t");
    amo_bit<int32_t>("int32_t");

    p2p<int>("int");
    p2p<short>("short");
    p2p<unsigned long long>("unsigned long long");
    p2p<long>("long");
    signal<float>("float");
    signal<long long>("long long");

    coll<int>("int");
    coll<double>("double");
    coll<char>("char");
    coll<uint16_t>("uint16_t");
    sums<int>("int");
    sums<double>("double");
    sums<unsigned long>("unsigned long");
    sums<float>("float");
    reductions();
    complex_sum();

    // shmem_sync(team) is shmem_team_sync.
    int rc = shmem_sync(SHMEM_TEAM_WORLD);
    check("shmem_sync(team) (returned)", "shmem_team_t", 0, 0, rc);

    // Every PE reports to PE 0, which speaks for the job.
    int *failures = sym<int>(npes);
    shmem_p(&failures[me], failed, 0);
    shmem_barrier_all();
    if (me == 0) {
        int total = 0;
        for (int pe = 0; pe < npes; pe++)
            total += failures[pe];
        std::printf("pe_cxx_generic (C++%ld): %s over %d PEs\n", (long)(__cplusplus / 100 % 100),
                    total == 0 ? "passed" : "FAILED", npes);
    }
    shmem_free(failures);
    shmem_finalize();
    return failed == 0 ? 0 : 99;
}
