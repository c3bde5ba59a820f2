/* The deprecated names OpenSHMEM 1.5 still lists, through <mpp/shmem.h>: the
 * _SHMEM_ constants, shmalloc/shfree/shrealloc/shmemalign, the active-set
 * collectives and _to_all reductions (complex ones included, beside the C11
 * selection of the complex team reductions), the 1.4 AMO and wait names, the
 * cache routines (no-ops) and shmem_pcontrol at each level. Every result is
 * compared with a value computed here. */
#include <mpp/shmem.h>
#include <mpp/shmemx.h>
#ifndef SHMEM_H
#error "<mpp/shmem.h> did not bring in <shmem.h>"
#endif
#ifndef SHMEMX_H
#error "<mpp/shmemx.h> did not bring in <shmemx.h>"
#endif
#include "pe_test.h"

#include <complex.h>
#include <stdint.h>

_Static_assert(_SHMEM_SYNC_VALUE == SHMEM_SYNC_VALUE, "_SHMEM_SYNC_VALUE");
_Static_assert(_SHMEM_BARRIER_SYNC_SIZE == SHMEM_BARRIER_SYNC_SIZE, "_SHMEM_BARRIER_SYNC_SIZE");
_Static_assert(_SHMEM_BCAST_SYNC_SIZE == SHMEM_BCAST_SYNC_SIZE, "_SHMEM_BCAST_SYNC_SIZE");
_Static_assert(_SHMEM_COLLECT_SYNC_SIZE == SHMEM_COLLECT_SYNC_SIZE, "_SHMEM_COLLECT_SYNC_SIZE");
_Static_assert(_SHMEM_REDUCE_SYNC_SIZE == SHMEM_REDUCE_SYNC_SIZE, "_SHMEM_REDUCE_SYNC_SIZE");
_Static_assert(_SHMEM_REDUCE_MIN_WRKDATA_SIZE == SHMEM_REDUCE_MIN_WRKDATA_SIZE, "_WRKDATA");
_Static_assert(_SHMEM_MAJOR_VERSION == 1 && _SHMEM_MINOR_VERSION == 6, "_SHMEM_*_VERSION");
_Static_assert(_SHMEM_MAX_NAME_LEN == SHMEM_MAX_NAME_LEN, "_SHMEM_MAX_NAME_LEN");
_Static_assert(_SHMEM_CMP_EQ == SHMEM_CMP_EQ && _SHMEM_CMP_NE == SHMEM_CMP_NE &&
                   _SHMEM_CMP_LT == SHMEM_CMP_LT && _SHMEM_CMP_LE == SHMEM_CMP_LE &&
                   _SHMEM_CMP_GT == SHMEM_CMP_GT && _SHMEM_CMP_GE == SHMEM_CMP_GE,
               "_SHMEM_CMP_*");

#define MAXPE 64
#define N 64 /* longs in the shmalloc'd block */

/* One pSync per call, so that none is reused before every PE has left it. */
static long ps_bar[_SHMEM_BARRIER_SYNC_SIZE], ps_sync[_SHMEM_BARRIER_SYNC_SIZE];
static long ps_bcast[_SHMEM_BCAST_SYNC_SIZE], ps_coll[_SHMEM_COLLECT_SYNC_SIZE];
static long ps_fcoll[_SHMEM_COLLECT_SYNC_SIZE], ps_a2a[SHMEM_ALLTOALL_SYNC_SIZE];
static long ps_a2as[SHMEM_ALLTOALLS_SYNC_SIZE], ps_red[_SHMEM_REDUCE_SYNC_SIZE];
static long ps_cred[_SHMEM_REDUCE_SYNC_SIZE];

static uint64_t src64[MAXPE * 8], dst64[MAXPE * 8];
static uint32_t src32[MAXPE * 8], dst32[MAXPE * MAXPE];
static int isrc[5], idst[5], iwrk[5 / 2 + 1 + _SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static double _Complex csrc[3], cdst[3], cwrk[3 / 2 + 1 + _SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static float _Complex fsrc[2], fdst[2];

static int ai, winners[MAXPE], wi;
static long al, al2, wl, wl2;
static long long all;
static float af;
static double ad;
static int cs;

static int me, npes;

static void heap_names(void)
{
    long *a = shmalloc(N * sizeof(long)), *b;
    char *c = shmemalign(4096, 100);
    int i, left = (me + npes - 1) % npes, right = (me + 1) % npes;

    PE_CHECK(a != NULL && shmem_addr_accessible(a, right), "shmalloc gave %p", (void *)a);
    PE_CHECK(c != NULL && ((uintptr_t)c & 4095) == 0, "shmemalign(4096) gave %p", (void *)c);
    PE_CHECK(shmalloc(0) == NULL, "%s", "shmalloc(0) is not NULL");
    if (a == NULL || c == NULL)
        return;
    for (i = 0; i < N; i++)
        shmem_long_p(&a[i], 1000L * me + i, right);
    shmem_char_p(&c[99], (char)('a' + me % 26), right);
    shmem_barrier_all();
    for (i = 0; i < N; i++)
        PE_CHECK_EQ("shmalloc block put by the left PE", 1000L * left + i, a[i]);
    PE_CHECK_EQ("shmemalign block put by the left PE", 'a' + left % 26, c[99]);

    /* Grown: the first N longs stay, the rest is usable by remote puts. */
    b = shrealloc(a, 4 * N * sizeof(long));
    PE_CHECK(b != NULL, "%s", "shrealloc returned NULL");
    if (b == NULL)
        return;
    for (i = 0; i < N; i++)
        PE_CHECK_EQ("shrealloc kept the contents", 1000L * left + i, b[i]);
    shmem_long_p(&b[4 * N - 1], 7L * me, right);
    shmem_barrier_all();
    PE_CHECK_EQ("shrealloc'd tail put by the left PE", 7L * left, b[4 * N - 1]);
    shfree(b);
    shfree(c);
    shfree(NULL);
}

static void collectives(void)
{
    int i, j, pe, root = npes - 1, nmine = me + 1, off = 0, sum = 0;

    /* barrier: a put before it is seen after it; sync after a quiet likewise. */
    shmem_int_p(&winners[me], me + 10, (me + 1) % npes);
    shmem_barrier(0, 0, npes, ps_bar);
    PE_CHECK_EQ("put before shmem_barrier", (me + npes - 1) % npes + 10,
                winners[(me + npes - 1) % npes]);
    shmem_barrier_all(); /* everyone has read before the next put */
    shmem_int_p(&winners[me], me + 20, (me + 1) % npes);
    shmem_quiet();
    shmem_sync(0, 0, npes, ps_sync); /* four arguments: the active-set form */
    PE_CHECK_EQ("put, quiet, active-set shmem_sync", (me + npes - 1) % npes + 20,
                winners[(me + npes - 1) % npes]);
    shmem_barrier_all();
    winners[(me + npes - 1) % npes] = 0;

    for (i = 0; i < MAXPE * 8; i++) {
        src64[i] = 100u * (unsigned)me + (unsigned)i;
        dst64[i] = UINT64_MAX;
        src32[i] = 100u * (unsigned)me + (unsigned)i;
    }
    for (i = 0; i < MAXPE * MAXPE; i++)
        dst32[i] = UINT32_MAX;
    shmem_barrier_all();

    shmem_broadcast64(dst64, src64, 5, root, 0, 0, npes, ps_bcast);
    for (i = 0; i < 5; i++)
        PE_CHECK_EQ("broadcast64", me == root ? UINT64_MAX : 100u * (unsigned)root + i, dst64[i]);
    shmem_barrier_all();

    /* collect32: PE p gives p + 1 elements. */
    shmem_collect32(dst32, src32, (size_t)nmine, 0, 0, npes, ps_coll);
    for (pe = 0; pe < npes; pe++)
        for (j = 0; j <= pe; j++, off++)
            PE_CHECK_EQ("collect32", 100u * (unsigned)pe + j, dst32[off]);
    PE_CHECK_EQ("collect32 past the end", UINT32_MAX, dst32[off]);
    shmem_barrier_all();

    shmem_fcollect64(dst64, src64, 3, 0, 0, npes, ps_fcoll);
    for (pe = 0; pe < npes; pe++)
        for (j = 0; j < 3; j++)
            PE_CHECK_EQ("fcollect64", 100u * (unsigned)pe + j, dst64[pe * 3 + j]);
    shmem_barrier_all();

    /* alltoall32: PE p's block j (2 elements) lands in block p on PE j. */
    shmem_alltoall32(dst32, src32, 2, 0, 0, npes, ps_a2a);
    for (pe = 0; pe < npes; pe++)
        for (j = 0; j < 2; j++)
            PE_CHECK_EQ("alltoall32", 100u * (unsigned)pe + 2u * (unsigned)me + j,
                        dst32[pe * 2 + j]);
    shmem_barrier_all();

    /* alltoalls64, dst 2 and sst 3: element k for PE j is source[(2j + k) * 3]. */
    for (i = 0; i < MAXPE * 8; i++)
        dst64[i] = UINT64_MAX;
    shmem_barrier_all();
    shmem_alltoalls64(dst64, src64, 2, 3, 2, 0, 0, npes, ps_a2as);
    for (pe = 0; pe < npes; pe++)
        for (j = 0; j < 2; j++) {
            PE_CHECK_EQ("alltoalls64", 100u * (unsigned)pe + (2u * (unsigned)me + j) * 3,
                        dst64[(pe * 2 + j) * 2]);
            PE_CHECK_EQ("alltoalls64 gap", UINT64_MAX, dst64[(pe * 2 + j) * 2 + 1]);
        }
    shmem_barrier_all();

    for (i = 0; i < 5; i++)
        isrc[i] = me + i;
    shmem_int_sum_to_all(idst, isrc, 5, 0, 0, npes, iwrk, ps_red);
    for (pe = 0; pe < npes; pe++)
        sum += pe;
    for (i = 0; i < 5; i++)
        PE_CHECK_EQ("int_sum_to_all", sum + npes * i, idst[i]);
}

/* Components stay small integers or +-1, so every sum and product is exact. */
static void complex_reductions(void)
{
    double _Complex prod = 1, want;
    float _Complex fprod = 1;
    int i, pe, status;

    for (pe = 0; pe < npes; pe++)
        prod *= pe % 2 == 0 ? I : 1.0 - I;
    for (i = 0; i < 3; i++)
        csrc[i] = me % 2 == 0 ? I : 1.0 - I;
    shmem_complexd_prod_to_all(cdst, csrc, 3, 0, 0, npes, cwrk, ps_cred);
    for (i = 0; i < 3; i++) {
        PE_CHECK_EQ("complexd_prod_to_all real", creal(prod), creal(cdst[i]));
        PE_CHECK_EQ("complexd_prod_to_all imag", cimag(prod), cimag(cdst[i]));
    }
    shmem_barrier_all();

    /* The C11 names pick the complex routines. */
    PE_CHECK(SHOAL_SELECT_sum_reduce((double _Complex *)0) == shmem_complexd_sum_reduce, "%s",
             "shmem_sum_reduce on double _Complex");
    PE_CHECK(SHOAL_SELECT_prod_reduce((float _Complex *)0) == shmem_complexf_prod_reduce, "%s",
             "shmem_prod_reduce on float _Complex");
    for (i = 0; i < 3; i++)
        csrc[i] = (me + 1) + (double)i * me * I;
    status = shmem_sum_reduce(SHMEM_TEAM_WORLD, cdst, csrc, 3);
    PE_CHECK_EQ("shmem_sum_reduce status", 0, status);
    for (i = 0; i < 3; i++) {
        want = npes * (npes + 1) / 2 + (double)i * npes * (npes - 1) / 2 * I;
        PE_CHECK_EQ("shmem_sum_reduce complexd real", creal(want), creal(cdst[i]));
        PE_CHECK_EQ("shmem_sum_reduce complexd imag", cimag(want), cimag(cdst[i]));
    }
    for (pe = 0; pe < npes; pe++)
        fprod *= pe % 2 == 0 ? 1.0f + 1.0f * I : -1.0f;
    for (i = 0; i < 2; i++)
        fsrc[i] = me % 2 == 0 ? 1.0f + 1.0f * I : -1.0f;
    status = shmem_prod_reduce(SHMEM_TEAM_WORLD, fdst, fsrc, 2);
    PE_CHECK_EQ("shmem_prod_reduce status", 0, status);
    for (i = 0; i < 2; i++) {
        PE_CHECK_EQ("shmem_prod_reduce complexf real", crealf(fprod), crealf(fdst[i]));
        PE_CHECK_EQ("shmem_prod_reduce complexf imag", cimagf(fprod), cimagf(fdst[i]));
    }
}

static void amo_and_wait_names(void)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes, old, pe, won = 0, total = 0;
    long fetched;
    double swapped;
    float got;

    old = shmem_int_fadd(&ai, me + 1, 0);
    PE_CHECK(old >= 0 && old < npes * (npes + 1) / 2, "int_fadd fetched %d", old);
    fetched = shmem_long_finc(&al, 0);
    PE_CHECK(fetched >= 0 && fetched < npes, "long_finc fetched %ld", fetched);
    shmem_inc(&al2, 0);
    shmem_add(&all, 2LL, 0);
    old = shmem_cswap(&cs, 0, me + 1, 0);
    shmem_int_p(&winners[me], old == 0, 0);
    shmem_set(&af, 2.5f + (float)me, right);
    swapped = shmem_swap(&ad, (double)me, right);
    PE_CHECK_EQ("double swap fetched the initial value", 0.0, swapped);
    shmem_barrier_all();
    if (me == 0) {
        PE_CHECK_EQ("int_fadd total", npes * (npes + 1) / 2, ai);
        PE_CHECK_EQ("long_finc total", npes, al);
        PE_CHECK_EQ("shmem_inc total", npes, al2);
        PE_CHECK_EQ("shmem_add total", 2LL * npes, all);
        for (pe = 0; pe < npes; pe++) {
            total += winners[pe];
            won = winners[pe] ? pe : won;
        }
        PE_CHECK_EQ("cswap winners", 1, total);
        PE_CHECK_EQ("cswap value is the winner's", won + 1, cs);
    }
    PE_CHECK_EQ("shmem_set from the left PE", 2.5f + (float)left, af);
    got = shmem_fetch(&af, right);
    PE_CHECK_EQ("shmem_fetch of the right PE's", 2.5f + (float)me, got);
    PE_CHECK_EQ("double swap from the left PE", (double)left, ad);
    shmem_barrier_all();

    /* The 1.4 waits: each PE's left neighbour sets its variables by AMO. */
    shmem_long_atomic_set(&wl, 7L, right);
    shmem_int_atomic_set(&wi, 3, right);
    shmem_long_atomic_set(&wl2, 9L, right);
    shmem_wait(&wl, 0L);
    shmem_int_wait(&wi, 0);
    (shmem_wait_until)(&wl2, _SHMEM_CMP_GE, 9L); /* the untyped long routine */
    shmem_wait_until(&wl2, _SHMEM_CMP_EQ, 9L);   /* the C11 selection */
    PE_CHECK_EQ("shmem_wait", 7L, wl);
    PE_CHECK_EQ("shmem_int_wait", 3, wi);
    PE_CHECK_EQ("shmem_wait_until (untyped)", 9L, wl2);
}

int main(void)
{
    char name[_SHMEM_MAX_NAME_LEN];
    int major, minor, level;

    shmem_pcontrol(0); /* callable before shmem_init */
    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > MAXPE) {
        if (me == 0)
            printf("pe_deprecated: more than %d PEs, skipped\n", MAXPE);
        shmem_finalize();
        return 77;
    }
    shmem_info_get_name(name);
    PE_CHECK(strcmp(name, _SHMEM_VENDOR_STRING) == 0, "name %s, _SHMEM_VENDOR_STRING %s", name,
             _SHMEM_VENDOR_STRING);
    shmem_info_get_version(&major, &minor);
    PE_CHECK_EQ("_SHMEM_MAJOR_VERSION", _SHMEM_MAJOR_VERSION, major);
    PE_CHECK_EQ("_SHMEM_MINOR_VERSION", _SHMEM_MINOR_VERSION, minor);

    /* pSync starts at _SHMEM_SYNC_VALUE everywhere before first use. */
    shmem_barrier_all();

    /* Every level is accepted, with the extra arguments a profiler may define. */
    for (level = -1; level <= 3; level++)
        shmem_pcontrol(level);
    shmem_pcontrol(4, "region", 42);
    shmem_pcontrol(1);

    /* The cache routines are no-ops: memory is the same before and after. */
    al = 5;
    shmem_set_cache_inv();
    shmem_set_cache_line_inv(&al);
    shmem_udcflush();
    shmem_udcflush_line(&al);
    shmem_clear_cache_line_inv(&al);
    shmem_clear_cache_inv();
    PE_CHECK_EQ("cache routines leave memory alone", 5L, al);
    al = 0;
    shmem_barrier_all();

    heap_names();
    collectives();
    shmem_barrier_all();
    complex_reductions();
    shmem_barrier_all();
    amo_and_wait_names();
    return pe_test_finish("pe_deprecated");
}
