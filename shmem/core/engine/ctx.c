/* Communication contexts. Where UCX carries traffic each context gets a worker
 * of its own and its own endpoints, made on first use, so that a quiet on one
 * context flushes only that worker. Same-node load/store needs nothing: those
 * operations are complete when issued. A context never outlives shmem_finalize.
 * A destroyed context's worker and endpoints, quiet, are parked for the next
 * create (up to CTX_PARKED_MAX): making a UCX worker costs milliseconds and
 * thousands of system calls, and each endpoint a connection. */
#include "shoal_core.h"
#include "shoal_session.h"
#include "shoal_status.h"

#include <stdlib.h>

shoal_ctx_t shoal_ctx_default; /* its team: shoal_ctx_setup */

static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static shoal_handles_t handles = SHOAL_HANDLES_INIT(SHOAL_HANDLE_CTX_TAG);
static shoal_ctx_t **live; /* every context but the default */
static int nlive, maxlive;

/* Quiet workers of destroyed contexts, each with its endpoints, to be reused. */
#define CTX_PARKED_MAX 8
typedef struct parked {
    shoal_transport_worker_t *worker;
    void **net_peers;
} parked_t;
static parked_t parked[CTX_PARKED_MAX];
static int nparked;

/* A worker and endpoint table for a new context: a parked pair, else new ones.
 * Called with ctx_lock held. */
static shoal_status_t net_take(shoal_ctx_t *ctx)
{
    shoal_status_t status;

    if (nparked > 0) {
        nparked--;
        ctx->worker = parked[nparked].worker;
        ctx->net_peers = parked[nparked].net_peers;
        return SHOAL_OK;
    }
    ctx->net_peers = calloc((size_t)shoal_core_state.n_pes, sizeof(void *));
    if (ctx->net_peers == NULL)
        return SHOAL_ERR_NO_MEMORY;
    status = shoal_core_net->worker_create(shoal_core_state.net, &ctx->worker);
    if (status != SHOAL_OK) {
        free(ctx->net_peers);
        ctx->net_peers = NULL;
    }
    return status;
}

static void net_destroy(shoal_transport_worker_t *worker, void **net_peers)
{
    int i;

    for (i = 0; net_peers != NULL && i < shoal_core_state.n_pes; i++)
        if (net_peers[i] != NULL)
            shoal_core_net->ops->destroy(net_peers[i]);
    if (worker != NULL)
        shoal_core_net->worker_destroy(worker);
    free(net_peers);
}

/* Parks a quiet context's worker and endpoints while there is room (ctx_lock
 * held). Returns whether it did; if not, the caller destroys them. */
static int net_park(shoal_ctx_t *ctx)
{
    if (ctx->worker == NULL || nparked == CTX_PARKED_MAX)
        return 0;
    parked[nparked].worker = ctx->worker;
    parked[nparked].net_peers = ctx->net_peers;
    nparked++;
    return 1;
}

static int count_locked(const struct shoal_team *team)
{
    int i, n = 0;

    for (i = 0; i < nlive; i++)
        n += team == NULL || live[i]->team == team;
    return n;
}

static shoal_status_t track(shoal_ctx_t *ctx)
{
    if (nlive == maxlive) {
        int want = maxlive ? 2 * maxlive : 16;
        shoal_ctx_t **grown = realloc(live, (size_t)want * sizeof(*grown));

        if (grown == NULL)
            return SHOAL_ERR_NO_MEMORY;
        live = grown;
        maxlive = want;
    }
    live[nlive++] = ctx;
    return SHOAL_OK;
}

shoal_status_t shoal_ctx_create(struct shoal_team *team, int team_max, long options,
                                shoal_ctx_t **ctx_out)
{
    shoal_ctx_t *ctx;
    int status = SHOAL_ERR_NO_RESOURCE;

    pthread_mutex_lock(&ctx_lock);
    if ((size_t)count_locked(NULL) >= shoal_core_state.settings.ctx_max ||
        (team_max >= 0 && count_locked(team) >= team_max))
        goto err_unlock;
    status = SHOAL_ERR_NO_MEMORY;
    ctx = calloc(1, sizeof(*ctx));
    if (ctx == NULL)
        goto err_unlock;
    ctx->options = options;
    ctx->team = team;
    if (shoal_core_state.net != NULL) {
        status = net_take(ctx);
        if (status != SHOAL_OK)
            goto err_free;
    }
    status = shoal_handle_add(&handles, ctx, &ctx->handle);
    if (status != SHOAL_OK)
        goto err_worker;
    status = track(ctx);
    if (status != SHOAL_OK)
        goto err_handle;
    pthread_mutex_unlock(&ctx_lock);
    *ctx_out = ctx;
    return SHOAL_OK;

err_handle:
    shoal_handle_remove(&handles, ctx->handle);
err_worker:
    if (!net_park(ctx))
        net_destroy(ctx->worker, ctx->net_peers);
err_free:
    free(ctx);
err_unlock:
    pthread_mutex_unlock(&ctx_lock);
    return status;
}

void shoal_ctx_destroy(shoal_ctx_t *ctx)
{
    int i, kept;

    shoal_session_stop(ctx, "shmem_ctx_destroy");
    shoal_core_quiet(ctx);
    shoal_handle_remove(&handles, ctx->handle);
    pthread_mutex_lock(&ctx_lock);
    for (i = 0; i < nlive; i++) {
        if (live[i] == ctx) {
            live[i] = live[--nlive];
            break;
        }
    }
    kept = net_park(ctx);
    pthread_mutex_unlock(&ctx_lock);
    if (!kept)
        net_destroy(ctx->worker, ctx->net_peers);
    free(ctx);
}

/* A destroyed team takes its contexts with it. */
void shoal_ctx_destroy_team(const struct shoal_team *team)
{
    int i;

    for (;;) {
        shoal_ctx_t *victim = NULL;

        pthread_mutex_lock(&ctx_lock);
        for (i = 0; i < nlive && victim == NULL; i++)
            if (live[i]->team == team)
                victim = live[i];
        pthread_mutex_unlock(&ctx_lock);
        if (victim == NULL)
            return;
        shoal_ctx_destroy(victim);
    }
}

/* At finalize: what the program did not destroy. */
void shoal_ctx_cleanup(void)
{
    while (nlive > 0)
        shoal_ctx_destroy(live[nlive - 1]);
    while (nparked > 0) {
        nparked--;
        net_destroy(parked[nparked].worker, parked[nparked].net_peers);
    }
    shoal_session_stop(&shoal_ctx_default, "shmem_finalize");
    free(live);
    live = NULL;
    maxlive = 0;
    shoal_handle_cleanup(&handles);
}

shoal_status_t shoal_ctx_setup(struct shoal_team *world)
{
    int status;

    shoal_ctx_default.team = world;
    status = shoal_handle_add(&handles, &shoal_ctx_default, &shoal_ctx_default.handle);
    if (status == SHOAL_OK && shoal_ctx_default.handle != SHOAL_CTX_DEFAULT_HANDLE)
        status = SHOAL_ERR_INVALID_ARG; /* SHMEM_CTX_DEFAULT would name nothing */
    return status;
}

shoal_ctx_t *shoal_ctx_find(uintptr_t handle, shoal_handle_state_t *state_out)
{
    return shoal_handle_find(&handles, handle, state_out);
}

void shoal_core_quiet_all(void)
{
    int i;

    shoal_core_quiet(&shoal_ctx_default);
    pthread_mutex_lock(&ctx_lock);
    for (i = 0; i < nlive; i++)
        shoal_core_quiet(live[i]);
    pthread_mutex_unlock(&ctx_lock);
}

void *shoal_ctx_net_peer(shoal_ctx_t *ctx, int pe)
{
    void *state = __atomic_load_n(&ctx->net_peers[pe], __ATOMIC_ACQUIRE);
    int status = SHOAL_OK;

    if (state != NULL)
        return state;
    pthread_mutex_lock(&shoal_core_state.connect_lock);
    if (ctx->net_peers[pe] == NULL) {
        status = shoal_peer_net_attach(pe, ctx->worker, &state);
        if (status == SHOAL_OK)
            __atomic_store_n(&ctx->net_peers[pe], state, __ATOMIC_RELEASE);
    }
    state = ctx->net_peers[pe];
    pthread_mutex_unlock(&shoal_core_state.connect_lock);
    if (status != SHOAL_OK)
        shoal_log_fatal("cannot reach PE %d from a context: %s", pe, shoal_status_string(status));
    return state;
}
