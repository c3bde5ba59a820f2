/* Memory ordering (fence, quiet, and the per-PE quiet, shmem_pe_quiet) and whole-job
 * synchronisation. */
#include "shmem.h"
#include "shoal_check.h"
#include "shoal_core_gpu.h"
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
    shoal_coll_barrier_program(&shoal_team_world.pset, 1, "shmem_barrier_all");
}
SHOAL_PROFILED(shmem_barrier_all);

void pshmem_sync_all(void)
{
    shoal_check_init("shmem_sync_all");
    shoal_coll_barrier_program(&shoal_team_world.pset, 0, "shmem_sync_all");
}
SHOAL_PROFILED(shmem_sync_all);

/* shmem_pe_quiet: completion of the operations to some PEs. Shoal completes the
 * whole context, which includes them (the spec allows more, never less); the PEs
 * are still checked, in the context's team. SHMEM_CTX_INVALID does nothing. */
static void pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes, const char *routine)
{
    shoal_ctx_t *c;
    size_t i;

    shoal_check_init(routine);
    if (ctx == SHMEM_CTX_INVALID)
        return;
    c = shoal_check_ctx(ctx, routine);
    if (npes > 0 && target_pes == NULL)
        shoal_log_fatal("%s: argument target_pes is NULL, but npes is %zu; expected an array of "
                        "npes PE numbers",
                        routine, npes);
    for (i = 0; i < npes; i++)
        if ((unsigned)target_pes[i] >= (unsigned)c->team->pset.size)
            shoal_log_fatal("%s: argument target_pes[%zu] is %d, valid range 0..%d%s", routine, i,
                            target_pes[i], c->team->pset.size - 1,
                            c->team == &shoal_team_world ? "" : " (PEs of the context's team)");
    if (npes > 0)
        shoal_core_quiet(c);
}

void pshmem_pe_quiet(const int *target_pes, size_t npes)
{
    pe_quiet(SHMEM_CTX_DEFAULT, target_pes, npes, "shmem_pe_quiet");
}
SHOAL_PROFILED(shmem_pe_quiet);
SHOAL_PROFILED_ALIAS(shmemx_pe_quiet, shmem_pe_quiet);

void pshmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes)
{
    pe_quiet(ctx, target_pes, npes, "shmem_ctx_pe_quiet");
}
SHOAL_PROFILED(shmem_ctx_pe_quiet);
SHOAL_PROFILED_ALIAS(shmemx_ctx_pe_quiet, shmem_ctx_pe_quiet);
