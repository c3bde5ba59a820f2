/* Must fail: a shmem_ reduction on GPU-heap buffers over a team that
 * shmem_team_split_strided made, which has no device twin (nvshmem_team_split_
 * strided makes those); the GPU library refuses it with one line naming the
 * routine and what to do. 77 without a GPU (tests/gpu-cpu runs it on the CPU
 * engine). */
#include "gpu_test.h"

int main(void)
{
    shmem_team_t team;
    long *g;

    shmem_init();
    gpu_test_start("err_gpu_gheap_coll_team", 0);
    g = (long *)nvshmem_malloc(2 * sizeof(long));
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &team);
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_long_sum_reduce(team, g, g + 1, 1);
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-gpu-err.sh reports */
}
