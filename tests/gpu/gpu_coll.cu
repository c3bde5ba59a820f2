/* The device collectives against the host's: every generated typed broadcast,
 * fcollect, alltoall and reduction (every type and op), in its nvshmem_ form
 * (one thread), its nvshmemx_ _block form (a block of 40 threads: a full warp and
 * a partial one), its _warp form and its nvshmemx_..._on_stream form (with
 * nvshmemx_barrier_on_stream and _team_sync_on_stream), its host form (the
 * nvshmem_ name called on the host: a device collective on a stream of its own,
 * waited for), and the byte forms, on the world team and on a strided team (world PEs 1, 3, ...; at
 * 2 PEs a team of one), with several element counts (600 longs span two pieces of a reduction's 4
 * KiB scratch; the strided team takes 7 and 600). One kernel calls them all, each on its own source
 * and dest; then the host calls each one's host twin (shmem_TYPENAME_OP_reduce,
 * shmem_TYPENAME_broadcast,
 * ...) on the same source and a host team of the same PEs, and every byte of the
 * two dests must match. Sources hold small whole numbers, so that float sums and
 * products are exact whatever the order. gpu_coll.sh runs it at 2 and 4 PEs,
 * both transports. Exit 0 pass, 77 without a GPU, 99 fail. */
#include "gpu_test.h"

#include <string.h>

#include "../gpu-cpu/gen/dev_routines.h" /* SHOAL_DEV_COLL_ROUTINES */

#define THREADS 40
#define MAX_PES 8
#define MAX_NELEMS 600
/* The byte forms: broadcast, fcollect and alltoall, each thread, block, warp. */
#define N_MEM 9
#define N_ROUTINES (SHOAL_DEV_COLL_ROUTINES_COUNT + N_MEM)
#define AREA (MAX_PES * MAX_NELEMS * 8) /* bytes of one routine's source or dest */

/* Host helpers instantiated once per routine stay calls: inlined into the
 * functions that call all 609, they took g++ -g -O2 53 s (13 s as calls). */
#define NOINLINE __attribute__((noinline))

enum { THREAD, BLOCK, WARP };

/* Whether this thread calls a routine made by who. */
static __device__ int calls(int who)
{
    return who == BLOCK || (who == WARP && threadIdx.x < 32) || threadIdx.x == 0;
}

/* The device calls, by op. */
template <typename T, typename F>
static __device__ void dev_broadcast(F f, nvshmem_team_t team, void *d, const void *s, size_t n,
                                     int root)
{
    f(team, (T *)d, (const T *)s, n, root);
}

template <typename T, typename F>
static __device__ void dev_plain(F f, nvshmem_team_t team, void *d, const void *s, size_t n, int)
{
    f(team, (T *)d, (const T *)s, n);
}

#define dev_fcollect dev_plain
#define dev_alltoall dev_plain
#define dev_and_reduce dev_plain
#define dev_or_reduce dev_plain
#define dev_xor_reduce dev_plain
#define dev_max_reduce dev_plain
#define dev_min_reduce dev_plain
#define dev_sum_reduce dev_plain
#define dev_prod_reduce dev_plain

__global__ void k_coll(nvshmem_team_t team, char *dest, const char *src, size_t n, int size)
{
    int k = 0;

#define X(op, type, who, routine, host)                                                            \
    if (calls(who))                                                                                \
        dev_##op<type>(routine, team, dest + (size_t)k * AREA, src + (size_t)k * AREA, n,          \
                       k % size);                                                                  \
    k++;
    SHOAL_DEV_COLL_ROUTINES(X)
#undef X
#define MEM(who, bcast, fcollect, alltoall)                                                        \
    if (calls(who)) {                                                                              \
        bcast(team, dest + (size_t)k * AREA, src + (size_t)k * AREA, n * 8, k % size);             \
        fcollect(team, dest + (size_t)(k + 1) * AREA, src + (size_t)(k + 1) * AREA, n * 8);        \
        alltoall(team, dest + (size_t)(k + 2) * AREA, src + (size_t)(k + 2) * AREA, n * 8);        \
    }                                                                                              \
    k += 3;
    MEM(THREAD, nvshmem_broadcastmem, nvshmem_fcollectmem, nvshmem_alltoallmem)
    MEM(BLOCK, nvshmemx_broadcastmem_block, nvshmemx_fcollectmem_block, nvshmemx_alltoallmem_block)
    MEM(WARP, nvshmemx_broadcastmem_warp, nvshmemx_fcollectmem_warp, nvshmemx_alltoallmem_warp)
#undef MEM
}

/* The host twins, by op: each returns the bytes of dest it writes. */
template <typename T, typename F>
static NOINLINE size_t host_broadcast(F f, shmem_team_t team, void *d, const void *s, size_t n,
                                      int root)
{
    f(team, (T *)d, (const T *)s, n, root);
    return n * sizeof(T);
}

template <typename T, typename F>
static NOINLINE size_t host_gather(F f, shmem_team_t team, void *d, const void *s, size_t n, int)
{
    f(team, (T *)d, (const T *)s, n);
    return n * sizeof(T) * (size_t)shmem_team_n_pes(team);
}

template <typename T, typename F>
static NOINLINE size_t host_reduce(F f, shmem_team_t team, void *d, const void *s, size_t n, int)
{
    f(team, (T *)d, (const T *)s, n);
    return n * sizeof(T);
}

#define host_fcollect host_gather
#define host_alltoall host_gather
#define host_and_reduce host_reduce
#define host_or_reduce host_reduce
#define host_xor_reduce host_reduce
#define host_max_reduce host_reduce
#define host_min_reduce host_reduce
#define host_sum_reduce host_reduce
#define host_prod_reduce host_reduce

/* Small whole numbers, different on each PE and element, and never zero (a
 * product of zeros would hide a missing factor). */
template <typename T> static NOINLINE void fill(void *area, size_t count, int pe, int k)
{
    T *a = (T *)area;
    size_t i;

    for (i = 0; i < count; i++)
        a[i] = (T)(1 + (pe * 7 + (int)i * 3 + k) % 5 + (i % 3 == 0 ? 8 * (pe + 1) : 0));
}

/* The byte forms' host twins into areas k, k + 1 and k + 2 of ref: broadcastmem
 * (root k % size), fcollectmem and alltoallmem of n longs; their byte counts in
 * bytes. */
static void host_mem_twins(shmem_team_t hteam, char *ref, const char *src, int k, size_t n,
                           int size, size_t *bytes)
{
    shmem_broadcastmem(hteam, ref + (size_t)k * AREA, src + (size_t)k * AREA, n * 8, k % size);
    shmem_fcollectmem(hteam, ref + (size_t)(k + 1) * AREA, src + (size_t)(k + 1) * AREA, n * 8);
    shmem_alltoallmem(hteam, ref + (size_t)(k + 2) * AREA, src + (size_t)(k + 2) * AREA, n * 8);
    bytes[k] = n * 8;
    bytes[k + 1] = bytes[k + 2] = n * 8 * (size_t)size;
}

/* Each of the count areas of dest against its host twin's in ref: the number
 * that differ, the first five reported with their first differing byte. */
static int compare_areas(const char *dest, const char *ref, const size_t *bytes,
                         const char *const *names, int count, const char *what, size_t n)
{
    int k, bad = 0;

    for (k = 0; k < count; k++) {
        const char *d = dest + (size_t)k * AREA, *r = ref + (size_t)k * AREA;

        if (memcmp(d, r, bytes[k]) != 0 && bad++ < 5) {
            size_t b = 0;

            while (d[b] == r[b])
                b++;
            GPU_CHECK(0,
                      "%s, %s, nelems %zu: byte %zu of %zu is 0x%02x, the host's twin "
                      "wrote 0x%02x",
                      names[k], what, n, b, bytes[k], (unsigned char)d[b], (unsigned char)r[b]);
        }
    }
    return bad;
}

static int check_all(nvshmem_team_t team, shmem_team_t hteam, size_t n, char *src, char *dest,
                     char *ref, const char *what)
{
    int me = shmem_my_pe(), size = nvshmem_team_n_pes(team), k = 0;
    size_t bytes[N_ROUTINES];
    const char *names[N_ROUTINES];

    memset(dest, 0, (size_t)N_ROUTINES * AREA);
    memset(ref, 0, (size_t)N_ROUTINES * AREA);
#define X(op, type, who, routine, host)                                                            \
    fill<type>(src + (size_t)k * AREA, AREA / sizeof(type), me, k);                                \
    k++;
    SHOAL_DEV_COLL_ROUTINES(X)
#undef X
    for (; k < N_ROUTINES; k++)
        fill<long>(src + (size_t)k * AREA, AREA / sizeof(long), me, k);
    /* The kernel's first barrier (a fenced one) orders each member's fill before
     * the others' reads of it. */
    GPU_LAUNCH(k_coll, 1, THREADS, team, dest, src, n, size);
    GPU_CUDA(cudaGetLastError());
    GPU_CUDA(cudaDeviceSynchronize());
    k = 0;
#define X(op, type, who, routine, host)                                                            \
    names[k] = #routine;                                                                           \
    bytes[k] =                                                                                     \
        host_##op<type>(host, hteam, ref + (size_t)k * AREA, src + (size_t)k * AREA, n, k % size); \
    k++;
    SHOAL_DEV_COLL_ROUTINES(X)
#undef X
    for (int w = 0; w < 3; w++, k += 3) {
        static const char *const mem[3][3] = {
            {"nvshmem_broadcastmem", "nvshmem_fcollectmem", "nvshmem_alltoallmem"},
            {"nvshmemx_broadcastmem_block", "nvshmemx_fcollectmem_block",
             "nvshmemx_alltoallmem_block"},
            {"nvshmemx_broadcastmem_warp", "nvshmemx_fcollectmem_warp",
             "nvshmemx_alltoallmem_warp"}};

        host_mem_twins(hteam, ref, src, k, n, size, bytes);
        for (int j = 0; j < 3; j++)
            names[k + j] = mem[w][j];
    }
    /* No member refills its source while another's host twin may read it. */
    shmem_team_sync(hteam);
    return compare_areas(dest, ref, bytes, names, N_ROUTINES, what, n);
}

/* The stream forms and the host forms, by op: they take what the device forms
 * take, the stream forms a stream too (in st). */
template <typename T, typename F, typename... S>
static NOINLINE int nv_broadcast(F f, nvshmem_team_t team, void *d, const void *s, size_t n,
                                 int root, S... st)
{
    return f(team, (T *)d, (const T *)s, n, root, st...);
}

template <typename T, typename F, typename... S>
static NOINLINE int nv_plain(F f, nvshmem_team_t team, void *d, const void *s, size_t n, int,
                             S... st)
{
    return f(team, (T *)d, (const T *)s, n, st...);
}

#define nv_fcollect nv_plain
#define nv_alltoall nv_plain
#define nv_and_reduce nv_plain
#define nv_or_reduce nv_plain
#define nv_xor_reduce nv_plain
#define nv_max_reduce nv_plain
#define nv_min_reduce nv_plain
#define nv_sum_reduce nv_plain
#define nv_prod_reduce nv_plain

#define N_STREAM (SHOAL_STREAM_COLL_ROUTINES_COUNT + 3)
static_assert(SHOAL_HOST_COLL_ROUTINES_COUNT == SHOAL_STREAM_COLL_ROUTINES_COUNT,
              "the host forms are the stream forms' rows, in the same order");

/* The nvshmemx_..._on_stream forms (on_host 0), all enqueued on one stream
 * between a nvshmemx_barrier_on_stream and a nvshmemx_team_sync_on_stream; or
 * the typed collectives called on the host (on_host 1: each runs on a stream of
 * its own and returns when done); then compared with their host twins as
 * check_all does. */
static int check_stream(nvshmem_team_t team, shmem_team_t hteam, size_t n, char *src, char *dest,
                        char *ref, const char *what, int on_host)
{
    static const char *host_names[] = {
#define X(op, type, routine, host) #routine,
        SHOAL_HOST_COLL_ROUTINES(X)
#undef X
    };
    int me = shmem_my_pe(), size = nvshmem_team_n_pes(team), k = 0;
    int count = on_host ? SHOAL_HOST_COLL_ROUTINES_COUNT : N_STREAM;
    size_t bytes[N_STREAM];
    const char *names[N_STREAM];
    cudaStream_t st = NULL;

    memset(dest, 0, (size_t)N_STREAM * AREA);
    memset(ref, 0, (size_t)N_STREAM * AREA);
#define X(op, type, routine, host)                                                                 \
    fill<type>(src + (size_t)k * AREA, AREA / sizeof(type), me, k);                                \
    k++;
    SHOAL_STREAM_COLL_ROUTINES(X)
#undef X
    for (; k < N_STREAM; k++)
        fill<long>(src + (size_t)k * AREA, AREA / sizeof(long), me, k);
    k = 0;
    if (on_host) {
        shmem_team_sync(hteam); /* every member's sources are filled */
#define X(op, type, routine, host)                                                                 \
    GPU_CHECK_EQ(#routine "'s return on the host", 0,                                              \
                 nv_##op<type>(routine, team, dest + (size_t)k * AREA, src + (size_t)k * AREA, n,  \
                               k % size));                                                         \
    k++;
        SHOAL_HOST_COLL_ROUTINES(X)
#undef X
    } else {
        GPU_CUDA(cudaStreamCreate(&st));
        nvshmemx_barrier_on_stream(team, st);
#define X(op, type, routine, host)                                                                 \
    nv_##op<type>(routine, team, dest + (size_t)k * AREA, src + (size_t)k * AREA, n, k % size,     \
                  st);                                                                             \
    k++;
        SHOAL_STREAM_COLL_ROUTINES(X)
#undef X
        nvshmemx_broadcastmem_on_stream(team, dest + (size_t)k * AREA, src + (size_t)k * AREA,
                                        n * 8, k % size, st);
        nvshmemx_fcollectmem_on_stream(team, dest + (size_t)(k + 1) * AREA,
                                       src + (size_t)(k + 1) * AREA, n * 8, st);
        nvshmemx_alltoallmem_on_stream(team, dest + (size_t)(k + 2) * AREA,
                                       src + (size_t)(k + 2) * AREA, n * 8, st);
        GPU_CHECK_EQ("nvshmemx_team_sync_on_stream's return", 0,
                     nvshmemx_team_sync_on_stream(team, st));
        GPU_CUDA(cudaStreamSynchronize(st));
    }
    k = 0;
#define X(op, type, routine, host)                                                                 \
    names[k] = on_host ? host_names[k] : #routine;                                                 \
    bytes[k] =                                                                                     \
        host_##op<type>(host, hteam, ref + (size_t)k * AREA, src + (size_t)k * AREA, n, k % size); \
    k++;
    SHOAL_STREAM_COLL_ROUTINES(X)
#undef X
    if (!on_host) {
        host_mem_twins(hteam, ref, src, k, n, size, bytes);
        names[k] = "nvshmemx_broadcastmem_on_stream";
        names[k + 1] = "nvshmemx_fcollectmem_on_stream";
        names[k + 2] = "nvshmemx_alltoallmem_on_stream";
        GPU_CUDA(cudaStreamDestroy(st));
    }
    shmem_team_sync(hteam);
    return compare_areas(dest, ref, bytes, names, count, what, n);
}

int main(void)
{
    /* GPU_COLL_COUNTS=k takes the first k (gpu_coll.sh: fewer through the proxy
     * at 4 PEs, where each get and arrival is a round trip through a host thread). */
    static const size_t counts[] = {7, MAX_NELEMS, 1};
    int me, n_pes, bad = 0, runs = 0, ncounts;
    nvshmem_team_t strided;
    shmem_team_t hstrided;
    char *src, *dest, *ref;

    shmem_init();
    gpu_test_start_upto("gpu_coll", MAX_PES);
    me = shmem_my_pe();
    n_pes = shmem_n_pes();
    ncounts = gpu_test_count("GPU_COLL_COUNTS", 3);
    src = (char *)shmem_malloc((size_t)N_ROUTINES * AREA);
    dest = (char *)shmem_malloc((size_t)N_ROUTINES * AREA);
    ref = (char *)shmem_malloc((size_t)N_ROUTINES * AREA);
    GPU_CHECK(src != NULL && dest != NULL && ref != NULL, "shmem_malloc of 3 x %d bytes",
              N_ROUTINES * AREA);
    if (src == NULL || dest == NULL || ref == NULL)
        shmem_global_exit(99); /* nothing to test in: end the job, not a segfault */
    /* World PEs 1, 3, ...: the device team and the host team of the same PEs. */
    nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, 1, 2, n_pes / 2, NULL, 0, &strided);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n_pes / 2, NULL, 0, &hstrided);
    for (int c = 0; c < ncounts && c < 3; c++) {
        bad += check_all(NVSHMEM_TEAM_WORLD, SHMEM_TEAM_WORLD, counts[c], src, dest, ref,
                         "NVSHMEM_TEAM_WORLD");
        runs++;
        if (strided != NVSHMEM_TEAM_INVALID && c < 2) {
            bad += check_all(strided, hstrided, counts[c], src, dest, ref,
                             "the strided team (world PEs 1, 3, ...)");
            runs++;
        }
        shmem_barrier_all();
    }
    /* The stream forms (on_host 0), then the host forms (1): the world team with
     * the first count, the strided team with count 1 + on_host (600 elements,
     * then 1) where the counts reach it. */
    for (int on_host = 0; on_host < 2; on_host++) {
        static const char *const world[] = {"NVSHMEM_TEAM_WORLD, on a stream",
                                            "NVSHMEM_TEAM_WORLD, on the host"};
        static const char *const split[] = {"the strided team, on a stream",
                                            "the strided team, on the host"};

        bad += check_stream(NVSHMEM_TEAM_WORLD, SHMEM_TEAM_WORLD, counts[0], src, dest, ref,
                            world[on_host], on_host);
        runs++;
        if (strided != NVSHMEM_TEAM_INVALID && ncounts > 1 + on_host) {
            bad += check_stream(strided, hstrided, counts[1 + on_host], src, dest, ref,
                                split[on_host], on_host);
            runs++;
        }
    }
    shmem_barrier_all();
    GPU_CHECK(bad == 0, "%d device collectives differ from their host twins", bad);
    if (me == 0)
        printf("gpu_coll: %d device collectives (%d typed, %d byte forms), %d stream forms "
               "and %d host forms checked against the host's in %d runs at %d PEs\n",
               N_ROUTINES, SHOAL_DEV_COLL_ROUTINES_COUNT, N_MEM, N_STREAM,
               SHOAL_HOST_COLL_ROUTINES_COUNT, runs, n_pes);
    return gpu_test_finish("gpu_coll");
}
