/* Context routines: create (from the world or a team), destroy, the per-context
 * fence and quiet, and the sessions (OpenSHMEM 1.6). */
#include "shmemx.h"
#include "shoal_api.h"
#include "shoal_check.h"
#include "shoal_status.h"
#include "shoal_profile.h"
#include "shoal_session.h"

#define CTX_OPTIONS (SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE)

static int ctx_create(shmem_team_t team_handle, long options, shmem_ctx_t *ctx, const char *routine)
{
    shoal_team_t *team;
    shoal_ctx_t *made;
    int status;

    /* The spec gives these a return code, and lets a program retry with other
     * options: every failure is reported through it, never by ending the job.
     * Arguments no correct program passes also print a warning; running out of
     * contexts, which a program may expect and handle, only a SHMEM_DEBUG line. */
    shoal_check_init(routine);
    team = shoal_check_team_handle(team_handle, routine, "team");
    if (ctx == NULL) {
        shoal_log_warn("%s: argument ctx is NULL, expected the address of a shmem_ctx_t; no "
                       "context made, returning -1",
                       routine);
        return -1;
    }
    *ctx = SHMEM_CTX_INVALID;
    if (options & ~CTX_OPTIONS) {
        shoal_log_warn("%s: argument options is %#lx; the valid bits are SHMEM_CTX_PRIVATE "
                       "(%#lx), SHMEM_CTX_SERIALIZED (%#lx) and SHMEM_CTX_NOSTORE (%#lx); no "
                       "context made, returning -1",
                       routine, options, SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED,
                       SHMEM_CTX_NOSTORE);
        return -1;
    }
    if (team == NULL)
        return -1;
    status = shoal_ctx_create(team, team->num_contexts, options, &made);
    if (status != SHOAL_OK) {
        if (team->num_contexts == SHOAL_TEAM_CTX_ANY)
            shoal_log_debug("%s: no context made: %s (SHOAL_CTX_MAX is %zu)", routine,
                            shoal_status_string(status), shoal_core_settings()->ctx_max);
        else
            shoal_log_debug("%s: no context made: %s (SHOAL_CTX_MAX is %zu; the team was made "
                            "with num_contexts %d)",
                            routine, shoal_status_string(status), shoal_core_settings()->ctx_max,
                            team->num_contexts);
        return -1;
    }
    *ctx = (shmem_ctx_t)made->handle;
    return 0;
}

int pshmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    return ctx_create(SHMEM_TEAM_WORLD, options, ctx, "shmem_ctx_create");
}
SHOAL_PROFILED(shmem_ctx_create);

int pshmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    return ctx_create(team, options, ctx, "shmem_team_create_ctx");
}
SHOAL_PROFILED(shmem_team_create_ctx);

void pshmem_ctx_destroy(shmem_ctx_t ctx)
{
    shoal_check_init("shmem_ctx_destroy");
    if (ctx == SHMEM_CTX_INVALID)
        return;
    if ((uintptr_t)ctx == SHOAL_CTX_DEFAULT_HANDLE)
        shoal_log_fatal("shmem_ctx_destroy: argument ctx is SHMEM_CTX_DEFAULT, which cannot be "
                        "destroyed");
    shoal_ctx_destroy(shoal_check_ctx(ctx, "shmem_ctx_destroy"));
}
SHOAL_PROFILED(shmem_ctx_destroy);

int pshmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
    shoal_check_init("shmem_ctx_get_team");
    if (team == NULL)
        return -1;
    *team = SHMEM_TEAM_INVALID;
    if (ctx == SHMEM_CTX_INVALID)
        return -1;
    *team = (shmem_team_t)shoal_check_ctx(ctx, "shmem_ctx_get_team")->team->handle;
    return 0;
}
SHOAL_PROFILED(shmem_ctx_get_team);

/* Fence and quiet on SHMEM_CTX_INVALID do nothing, as the spec says (a context
 * whose creation failed has nothing outstanding); destroyed ones still end the job. */
void pshmem_ctx_fence(shmem_ctx_t ctx)
{
    shoal_check_init("shmem_ctx_fence");
    if (ctx != SHMEM_CTX_INVALID)
        shoal_core_fence(shoal_check_ctx(ctx, "shmem_ctx_fence"));
}
SHOAL_PROFILED(shmem_ctx_fence);

void pshmem_ctx_quiet(shmem_ctx_t ctx)
{
    shoal_check_init("shmem_ctx_quiet");
    if (ctx != SHMEM_CTX_INVALID)
        shoal_core_quiet(shoal_check_ctx(ctx, "shmem_ctx_quiet"));
}
SHOAL_PROFILED(shmem_ctx_quiet);

/* Sessions (shmem_ctx_session_start/_stop) are hints that change no semantics. A
 * SHMEM_CTX_SESSION_BATCH session holds the context's non-fetching AMOs to PEs
 * reached through UCX, one combined value per word, until the context's fence or
 * quiet, the session's end or a wait (shmem/core/engine/session.c); other options
 * change nothing. */
void pshmem_ctx_session_start(shmem_ctx_t ctx, long options,
                              const shmem_ctx_session_config_t *config, long config_mask)
{
    static const char routine[] = "shmem_ctx_session_start";
    shoal_ctx_t *c;

    shoal_check_init(routine);
    if (ctx == SHMEM_CTX_INVALID)
        return;
    c = shoal_check_ctx(ctx, routine);
    if (config_mask & ~SHMEM_CTX_SESSION_TOTAL_OPS)
        shoal_log_fatal("%s: argument config_mask is %#lx, expected SHMEM_CTX_SESSION_TOTAL_OPS "
                        "or 0",
                        routine, config_mask);
    if (config_mask != 0 && config == NULL)
        shoal_log_fatal("%s: argument config is NULL, but config_mask is %#lx; pass the "
                        "configuration it names",
                        routine, config_mask);
    /* No combination of options is wrong (the spec's words); a session that
     * cannot get its table is a hint not taken. */
    if ((options & SHMEM_CTX_SESSION_BATCH) && shoal_core_net_up())
        (void)shoal_session_start(
            c, config_mask & SHMEM_CTX_SESSION_TOTAL_OPS ? (long)config->total_ops : 0);
}
SHOAL_PROFILED(shmem_ctx_session_start);
SHOAL_PROFILED_ALIAS(shmemx_ctx_session_start, shmem_ctx_session_start);

void pshmem_ctx_session_stop(shmem_ctx_t ctx)
{
    shoal_check_init("shmem_ctx_session_stop");
    if (ctx != SHMEM_CTX_INVALID)
        shoal_session_stop(shoal_check_ctx(ctx, "shmem_ctx_session_stop"),
                           "shmem_ctx_session_stop");
}
SHOAL_PROFILED(shmem_ctx_session_stop);
SHOAL_PROFILED_ALIAS(shmemx_ctx_session_stop, shmem_ctx_session_stop);
