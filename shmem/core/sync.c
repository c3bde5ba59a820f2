/* Ordering (fence, quiet) and the back-off of every wait loop. The wait loop
 * drives UCX progress and backs off (pause, then yield) so that PEs sharing a
 * core do not starve each other. */
#include "shoal_core.h"
#include "shoal_shm.h"
#include "shoal_status.h"
#include "shoal_ucx.h"

#include <limits.h>
#include <sched.h>
#include <time.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

void shoal_core_progress(void)
{
    if (shoal_g.ucx != NULL)
        shoal_ucx_progress(shoal_g.ucx);
}

static shoal_ucx_worker_t *worker_of(shoal_ctx_t *ctx)
{
    return ctx->worker != NULL ? ctx->worker : shoal_g.ucx_main;
}

void shoal_core_quiet(shoal_ctx_t *ctx)
{
    shoal_ucx_worker_t *w = worker_of(ctx);

    shoal_shm_quiet();
    if (w != NULL && shoal_ucx_quiet(w) != SHOAL_OK)
        shoal_fatal("shmem_quiet: the UCX transport failed to complete outstanding operations");
}

void shoal_core_fence(shoal_ctx_t *ctx)
{
    shoal_ucx_worker_t *w = worker_of(ctx);

    shoal_shm_fence();
    if (w != NULL && shoal_ucx_fence(w) != SHOAL_OK)
        shoal_fatal("shmem_fence: the UCX transport failed to order operations");
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
    if (++*spins <= shoal_g.spins_before_yield)
        cpu_relax();
    else
        sched_yield();
}


/* Shared (not process-private) futexes: the word is in a mapping other PEs share,
 * so the kernel keys it by file and offset, whatever address each PE sees. */
void shoal_core_sleep(const void *word, uint32_t expect, long timeout_ns)
{
#ifdef __linux__
    struct timespec ts = {timeout_ns / 1000000000L, timeout_ns % 1000000000L};

    syscall(SYS_futex, word, FUTEX_WAIT, expect, &ts, NULL, 0);
#else
    (void)word;
    (void)expect;
    (void)timeout_ns;
    sched_yield();
#endif
}

void shoal_core_wake(const void *word)
{
#ifdef __linux__
    syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
#else
    (void)word;
#endif
}
