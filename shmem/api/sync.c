/* Memory ordering and whole-job synchronisation. */
#include "shmem.h"
#include "shoal_check.h"

void shmem_fence(void)
{
    shoal_check_init("shmem_fence");
    shoal_core_fence(&shoal_ctx_default);
}

void shmem_quiet(void)
{
    shoal_check_init("shmem_quiet");
    shoal_core_quiet(&shoal_ctx_default);
}

void shmem_barrier_all(void)
{
    shoal_check_init("shmem_barrier_all");
    shoal_core_gpu_check();
    shoal_coll_barrier(&shoal_team_world.pset, 1, "shmem_barrier_all");
}

void shmem_sync_all(void)
{
    shoal_check_init("shmem_sync_all");
    shoal_coll_barrier(&shoal_team_world.pset, 0, "shmem_sync_all");
}
