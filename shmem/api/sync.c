/* Memory ordering and whole-job synchronisation. */
#include "shmem.h"
#include "shoal_check.h"

void shmem_fence(void)
{
    shoal_check_init("shmem_fence");
    shoal_core_fence();
}

void shmem_quiet(void)
{
    shoal_check_init("shmem_quiet");
    shoal_core_quiet();
}

void shmem_barrier_all(void)
{
    shoal_check_init("shmem_barrier_all");
    shoal_core_barrier(1);
}

void shmem_sync_all(void)
{
    shoal_check_init("shmem_sync_all");
    shoal_core_barrier(0);
}
