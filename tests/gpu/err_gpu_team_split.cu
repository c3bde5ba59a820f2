/* Must fail: the last PE splits team 9, which names no team; it prints one line
 * naming nvshmem_team_split_strided, the argument parent_team and its value, and
 * the job ends. The host routine needs no GPU, but the test keeps gpu_test_start's
 * rule (77 without one; tests/gpu-cpu runs it on the CPU engine). */
#include "gpu_test.h"

int main(void)
{
    nvshmem_team_t team;

    shmem_init();
    gpu_test_start("err_gpu_team_split", 0);
    if (shmem_my_pe() == shmem_n_pes() - 1)
        nvshmem_team_split_strided(9, 0, 1, 1, NULL, 0, &team);
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-gpu-err.sh reports */
}
