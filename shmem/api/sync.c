/* Memory ordering and whole-job synchronisation. */
#include "shmem.h"
#include "shoal_check.h"
#include "shoal_profile.h"

void pshmem_fence(void)
{
    shoal_check_init("shmem_fence");
    shoal_core_fence(&shoal_ctx_default);
}
SHOAL_PROFILED(shmem_fence);

void pshmem_quiet(void)
{
    shoal_check_init("shmem_quiet");
    shoal_core_quiet(&shoal_ctx_default);
}
SHOAL_PROFILED(shmem_quiet);

void pshmem_barrier_all(void)
{
    shoal_check_init("shmem_barrier_all");
    shoal_core_gpu_check();
    shoal_coll_barrier(&shoal_team_world.pset, 1, "shmem_barrier_all");
}
SHOAL_PROFILED(shmem_barrier_all);

void pshmem_sync_all(void)
{
    shoal_check_init("shmem_sync_all");
    shoal_coll_barrier(&shoal_team_world.pset, 0, "shmem_sync_all");
}
SHOAL_PROFILED(shmem_sync_all);
