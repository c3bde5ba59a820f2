/* Ordering (fence, quiet) and the back-off of every wait loop. The wait loop
 * drives UCX progress and backs off (pause, then yield) so that PEs sharing a
 * core do not starve each other. */
#include "shoal_core.h"
#include "shoal_session.h"
#include "shoal_status.h"

#include <sched.h>

void shoal_core_progress(void)
{
    if (shoal_core_state.net != NULL) {
        shoal_session_send_mine(); /* a PE never waits on an AMO it holds */
        shoal_core_net->progress(shoal_core_state.net);
    }
}

static shoal_transport_worker_t *worker_of(shoal_ctx_t *ctx)
{
    return ctx->worker != NULL ? ctx->worker : shoal_core_state.net_main;
}

/* The network's part of a quiet: what a session holds goes out (only PEs reached
 * through the network component are held, so there is nothing to send without
 * one), then the component completes the worker's operations. Out of line: on
 * one node, quiet is a fence and two loads. */
static void quiet_net(shoal_ctx_t *ctx, shoal_transport_worker_t *w, int with_tokens)
{
    shoal_status_t status;

    if (ctx->session != NULL)
        shoal_session_send(ctx, "shmem_quiet");
    if ((status = shoal_core_net->quiet(w, with_tokens)) != SHOAL_OK)
        shoal_peer_fail("shmem_quiet", shoal_core_net->stuck_pe(w), "a quiet", status);
}

static inline void quiet(shoal_ctx_t *ctx, int with_tokens)
{
    shoal_transport_worker_t *w = worker_of(ctx);

    shoal_core_direct_quiet();
    if (w != NULL)
        quiet_net(ctx, w, with_tokens);
}

void shoal_core_quiet(shoal_ctx_t *ctx)
{
    quiet(ctx, 0);
}

void shoal_core_quiet_tokens(void)
{
    quiet(&shoal_ctx_default, 1);
}

void shoal_core_untracked(int on)
{
    if (shoal_core_state.net_main != NULL)
        shoal_core_net->untracked(on);
}

/* As quiet_net, for a fence. */
static void fence_net(shoal_ctx_t *ctx, shoal_transport_worker_t *w)
{
    if (ctx->session != NULL)
        shoal_session_send(ctx, "shmem_fence");
    if (shoal_core_net->fence(w) != SHOAL_OK)
        shoal_peer_fail("shmem_fence", -1, "a fence", SHOAL_ERR_TRANSPORT);
}

void shoal_core_fence(shoal_ctx_t *ctx)
{
    shoal_transport_worker_t *w = worker_of(ctx);

    shoal_core_direct_fence();
    if (w != NULL)
        fence_net(ctx, w);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* One turn of a wait loop: progress, then pause, then (when that did not help)
 * give the core to a PE that shares it. */
void shoal_core_backoff(unsigned *spins)
{
    shoal_core_progress();
    if (++*spins <= shoal_core_state.spins_before_yield)
        cpu_relax();
    else
        sched_yield();
}
