// The OpenSHMEM headers from C++ (built as C++11 and C++17 with -pedantic
// -Werror: pe_cxx11, pe_cxx17): the complex reductions, which ISO C++ lacks and
// g++/clang++ take as an extension, called on std::complex arrays (the same
// layout as _Complex) and checked against a serial computation here.
// Exit 0 pass, 99 fail.
#include <mpp/shmem.h>
#include <shmemx.h>

#include <complex>
#include <cstdio>
#include <unistd.h>

// The C types the routines take, named once: _Complex is an extension in C++.
__extension__ typedef double _Complex complexd_t;
__extension__ typedef float _Complex complexf_t;
static_assert(sizeof(std::complex<double>) == sizeof(complexd_t), "complexd layout");
static_assert(sizeof(std::complex<float>) == sizeof(complexf_t), "complexf layout");

#define NR 4 // elements reduced

static std::complex<double> dsrc[NR], ddst[NR];
static std::complex<float> fsrc[NR], fdst[NR], fwrk[NR / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long psync[SHMEM_REDUCE_SYNC_SIZE];
static int failures[1024];

static int me, npes, failed;

template <typename T>
static void check(const char *what, int i, std::complex<T> want, std::complex<T> got)
{
    if (want != got) {
        std::fprintf(stderr, "FAIL PE %d: %s[%d]: expected (%g, %g), found (%g, %g)\n", me, what, i,
                     (double)want.real(), (double)want.imag(), (double)got.real(),
                     (double)got.imag());
        failed++;
    }
}

int main()
{
    alarm(120);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > 1024)
        shmem_global_exit(77);

    // Team sum of (pe + 1, i * pe): ((n(n+1)/2, i * n(n-1)/2)), exact in double.
    for (int i = 0; i < NR; i++)
        dsrc[i] = std::complex<double>(me + 1, (double)i * me);
    int rc = shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, reinterpret_cast<complexd_t *>(ddst),
                                       reinterpret_cast<const complexd_t *>(dsrc), NR);
    if (rc != 0) {
        std::fprintf(stderr, "FAIL PE %d: shmem_complexd_sum_reduce returned %d\n", me, rc);
        failed++;
    }
    for (int i = 0; i < NR; i++)
        check("shmem_complexd_sum_reduce", i,
              std::complex<double>(npes * (npes + 1) / 2.0, (double)i * npes * (npes - 1) / 2.0),
              ddst[i]);

    // Active-set product of i (even PEs) and 1 - i (odd ones): components stay
    // integers, so the product in PE order here is exact.
    std::complex<float> want(1, 0);
    for (int pe = 0; pe < npes; pe++)
        want *= pe % 2 == 0 ? std::complex<float>(0, 1) : std::complex<float>(1, -1);
    for (int i = 0; i < NR; i++)
        fsrc[i] = me % 2 == 0 ? std::complex<float>(0, 1) : std::complex<float>(1, -1);
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_complexf_prod_to_all(reinterpret_cast<complexf_t *>(fdst),
                               reinterpret_cast<const complexf_t *>(fsrc), NR, 0, 0, npes,
                               reinterpret_cast<complexf_t *>(fwrk), psync);
    for (int i = 0; i < NR; i++)
        check("shmem_complexf_prod_to_all", i, want, fdst[i]);

    // Every PE reports to PE 0, which speaks for the job.
    shmem_int_p(&failures[me], failed, 0);
    shmem_barrier_all();
    if (me == 0) {
        int total = 0;
        for (int pe = 0; pe < npes; pe++)
            total += failures[pe];
        std::printf("pe_cxx (C++%ld): %s over %d PEs\n", (long)(__cplusplus / 100 % 100),
                    total == 0 ? "passed" : "FAILED", npes);
    }
    shmem_finalize();
    return failed == 0 ? 0 : 99;
}
