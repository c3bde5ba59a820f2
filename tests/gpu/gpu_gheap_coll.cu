/* The shmem_ team collectives on GPU-heap buffers (nvshmem_malloc memory): the
 * GPU library makes each with the device collective of the team's device twin.
 * On SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED: sum and max reductions, broadcast,
 * fcollect and alltoall (typed and byte forms), a source in the GPU heap with a
 * dest in the host heap and the other way round; each result read back with
 * cudaMemcpy and checked element by element. err_gpu_gheap_coll_team checks
 * the line for a team without a device twin. Exit 0 pass, 77 without a GPU, 99
 * fail. */
#include "gpu_test.h"

#define N 300 /* elements per PE and block: 2400 bytes, more than one region slot */
#define MAX_PES 8

static long value(int pe, int i)
{
    return pe * 1000L + i;
}

/* Reads n longs of GPU-heap memory at g into host and checks host[i] against
 * want(i). */
template <typename F> static void check_gheap(const char *what, const long *g, size_t n, F want)
{
    static long host[MAX_PES * N];
    size_t i, bad = 0, first = 0;

    GPU_CUDA(cudaMemcpy(host, g, n * sizeof(long), cudaMemcpyDeviceToHost));
    for (i = 0; i < n; i++)
        if (host[i] != want(i) && bad++ == 0)
            first = i;
    GPU_CHECK(bad == 0, "%s: %zu of %zu elements wrong, the first [%zu] = %ld, expected %ld", what,
              bad, n, first, host[first], want(first));
}

int main(void)
{
    static long fill[MAX_PES * N];
    int me, n_pes, i, root, shared_n;
    long *gsrc, *gdst, *hdst;

    shmem_init();
    gpu_test_start_upto("gpu_gheap_coll", MAX_PES);
    me = shmem_my_pe();
    n_pes = shmem_n_pes();
    gsrc = (long *)nvshmem_malloc(MAX_PES * N * sizeof(long));
    gdst = (long *)nvshmem_malloc(MAX_PES * N * sizeof(long));
    hdst = (long *)shmem_malloc(MAX_PES * N * sizeof(long));
    if (gsrc == NULL || gdst == NULL || hdst == NULL) {
        GPU_CHECK(0, "%s", "nvshmem_malloc or shmem_malloc returned NULL");
        shmem_global_exit(99);
    }
    /* block j of the source: what this PE sends member j (alltoall) */
    for (i = 0; i < MAX_PES * N; i++)
        fill[i] = value(me, i);
    GPU_CUDA(cudaMemcpy(gsrc, fill, sizeof(fill), cudaMemcpyHostToDevice));
    shmem_barrier_all();

    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, gdst, gsrc, N);
    check_gheap("shmem_long_sum_reduce", gdst, N,
                [&](size_t i) { return 1000L * n_pes * (n_pes - 1) / 2 + (long)i * n_pes; });
    root = n_pes - 1;
    shmem_long_broadcast(SHMEM_TEAM_WORLD, gdst, gsrc, N, root);
    check_gheap("shmem_long_broadcast", gdst, N, [&](size_t i) { return value(root, (int)i); });
    shmem_long_fcollect(SHMEM_TEAM_WORLD, gdst, gsrc, N);
    check_gheap("shmem_long_fcollect", gdst, (size_t)n_pes * N,
                [&](size_t i) { return value((int)(i / N), (int)(i % N)); });
    shmem_long_alltoall(SHMEM_TEAM_WORLD, gdst, gsrc, N);
    check_gheap("shmem_long_alltoall", gdst, (size_t)n_pes * N,
                [&](size_t i) { return value((int)(i / N), me * N + (int)(i % N)); });
    shmem_broadcastmem(SHMEM_TEAM_WORLD, gdst, gsrc, 8 * N, 0);
    check_gheap("shmem_broadcastmem", gdst, N, [&](size_t i) { return value(0, (int)i); });

    /* a host-heap dest with a GPU-heap source, then the other way round */
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, hdst, gsrc, N);
    for (i = 0; i < N; i++)
        GPU_CHECK_EQ("shmem_long_max_reduce into the host heap", value(n_pes - 1, i), hdst[i]);
    shmem_barrier_all();
    for (i = 0; i < N; i++)
        hdst[i] = -value(me, i);
    shmem_barrier_all();
    shmem_long_min_reduce(SHMEM_TEAM_WORLD, gdst, hdst, N);
    check_gheap("shmem_long_min_reduce from the host heap", gdst, N,
                [&](size_t i) { return -value(n_pes - 1, (int)i); });

    /* the node's team (SHMEM_TEAM_SHARED: NVSHMEMX_TEAM_NODE's twin) */
    shared_n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    shmem_long_fcollect(SHMEM_TEAM_SHARED, gdst, gsrc, N);
    check_gheap(
        "shmem_long_fcollect on SHMEM_TEAM_SHARED", gdst, (size_t)shared_n * N, [&](size_t i) {
            return value(shmem_team_translate_pe(SHMEM_TEAM_SHARED, (int)(i / N), SHMEM_TEAM_WORLD),
                         (int)(i % N));
        });
    shmem_barrier_all();
    nvshmem_free(gdst);
    nvshmem_free(gsrc);
    shmem_free(hdst);
    if (me == 0)
        printf("gpu_gheap_coll: shmem_ collectives on GPU-heap buffers at %d PEs\n", n_pes);
    return gpu_test_finish("gpu_gheap_coll");
}
