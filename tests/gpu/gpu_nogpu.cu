/* Without a GPU (CI), a program linked with libshoal_gpu works as a host program:
 * shmem_init says there is no GPU and goes on, and the nvshmem_ host names are
 * the shmem_ routines. Skips (77) where there is a GPU: the other tests run there. */
#include "gpu_test.h"

#include <stdint.h>

int main(void)
{
    int me, npes, next, i;
    int *a, *b;
    long *c;

    nvshmem_init();
    alarm(GPU_TEST_TIMEOUT);
    if (gpu_test_have_gpu()) {
        if (shmem_my_pe() == 0)
            printf("gpu_nogpu: there is a GPU: skipped\n");
        nvshmem_finalize();
        return 77;
    }
    me = nvshmem_my_pe();
    npes = nvshmem_n_pes();
    next = (me + 1) % npes;
    GPU_CHECK_EQ("nvshmem_my_pe", shmem_my_pe(), me);
    GPU_CHECK_EQ("nvshmem_n_pes", shmem_n_pes(), npes);
    /* The predefined teams: without a GPU the shared team is this PE alone. */
    GPU_CHECK_EQ("nvshmem_team_my_pe(NVSHMEM_TEAM_WORLD)", me,
                 nvshmem_team_my_pe(NVSHMEM_TEAM_WORLD));
    GPU_CHECK_EQ("nvshmem_team_n_pes(NVSHMEM_TEAM_WORLD)", npes,
                 nvshmem_team_n_pes(NVSHMEM_TEAM_WORLD));
    GPU_CHECK_EQ("nvshmem_team_my_pe(NVSHMEM_TEAM_SHARED)", 0,
                 nvshmem_team_my_pe(NVSHMEM_TEAM_SHARED));
    GPU_CHECK_EQ("nvshmem_team_n_pes(NVSHMEM_TEAM_SHARED)", 1,
                 nvshmem_team_n_pes(NVSHMEM_TEAM_SHARED));
    GPU_CHECK_EQ("nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE)", shmem_team_my_pe(SHMEM_TEAM_SHARED),
                 nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE));
    GPU_CHECK_EQ("nvshmem_team_n_pes(NVSHMEMX_TEAM_NODE)", shmem_team_n_pes(SHMEM_TEAM_SHARED),
                 nvshmem_team_n_pes(NVSHMEMX_TEAM_NODE));
    GPU_CHECK_EQ("nvshmem_team_my_pe(NVSHMEM_TEAM_INVALID)", -1,
                 nvshmem_team_my_pe(NVSHMEM_TEAM_INVALID));
    GPU_CHECK_EQ("nvshmem_team_n_pes(NVSHMEM_TEAM_INVALID)", -1,
                 nvshmem_team_n_pes(NVSHMEM_TEAM_INVALID));

    a = (int *)nvshmem_malloc(16 * sizeof(int));
    b = (int *)nvshmem_calloc(16, sizeof(int));
    c = (long *)nvshmem_align(4096, 8 * sizeof(long));
    GPU_CHECK(a != NULL && b != NULL && c != NULL, "a %p b %p c %p", (void *)a, (void *)b,
              (void *)c);
    GPU_CHECK(((uintptr_t)c & 4095) == 0, "nvshmem_align: %p is not 4096-aligned", (void *)c);
    for (i = 0; i < 16; i++)
        GPU_CHECK_EQ("nvshmem_calloc zeroes", 0, b[i]);
    /* Without a GPU, nvshmem_ptr is shmem_ptr. */
    GPU_CHECK(nvshmem_ptr(a, next) == shmem_ptr(a, next), "nvshmem_ptr %p, shmem_ptr %p",
              nvshmem_ptr(a, next), shmem_ptr(a, next));

    for (i = 0; i < 16; i++)
        a[i] = -1;
    nvshmem_barrier_all();
    for (i = 0; i < 16; i++)
        shmem_int_p(&a[i], me * 100 + i, next);
    nvshmem_fence();
    shmem_long_atomic_add(&c[0], me + 1, next);
    nvshmem_quiet();
    nvshmem_sync_all(); /* the host's sync_all: the quiet above completed the puts */
    for (i = 0; i < 16; i++)
        GPU_CHECK_EQ("a[i] from the previous PE", ((me + npes - 1) % npes) * 100 + i, a[i]);
    GPU_CHECK_EQ("c[0] added by the previous PE", (me + npes - 1) % npes + 1, c[0]);

    nvshmem_barrier_all();
    nvshmem_free(a);
    nvshmem_free(b);
    nvshmem_free(c);
    return gpu_test_finish("gpu_nogpu");
}
