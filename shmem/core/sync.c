/* Ordering (fence, quiet), the local wait loop and the barrier. The wait loop
 * drives UCX progress and backs off (pause, then yield) so that PEs sharing a
 * core do not starve each other. */
#include "shoal_core.h"
#include "shoal_shm.h"
#include "shoal_status.h"
#include "shoal_ucx.h"

#include <sched.h>

#define BARRIER_ROUNDS 32 /* rounds of dissemination: up to 2^32 PEs */
#define FLAG_STRIDE 64    /* one cache line per flag */
#define SPINS_BEFORE_YIELD 64

void shoal_core_progress(void)
{
    if (shoal_g.ucx != NULL)
        shoal_ucx_progress(shoal_g.ucx);
}

void shoal_core_quiet(void)
{
    shoal_shm_quiet();
    if (shoal_g.ucx != NULL && shoal_ucx_quiet(shoal_g.ucx) != SHOAL_OK)
        shoal_fatal("shmem_quiet: the UCX transport failed to complete outstanding operations");
}

void shoal_core_fence(void)
{
    shoal_shm_fence();
    if (shoal_g.ucx != NULL && shoal_ucx_fence(shoal_g.ucx) != SHOAL_OK)
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
    if (++*spins < SPINS_BEFORE_YIELD)
        cpu_relax();
    else
        sched_yield();
}

void shoal_core_wait_u64_ge(const uint64_t *addr, uint64_t value)
{
    unsigned spins = 0;

    while (__atomic_load_n(addr, __ATOMIC_ACQUIRE) < value)
        shoal_core_backoff(&spins);
}

int shoal_core_barrier_setup(void)
{
    shoal_g.barrier_seq = 0;
    return shoal_heap_alloc(&shoal_g.heap, BARRIER_ROUNDS * FLAG_STRIDE, FLAG_STRIDE,
                            &shoal_g.barrier_off);
}

/* Dissemination: in round k each PE signals PE me+2^k and waits for PE me-2^k.
 * Each flag has exactly one writer and only ever grows (it holds the barrier's
 * sequence number), so no flag needs resetting and back-to-back barriers are safe. */
void shoal_core_barrier(int complete_puts)
{
    uint64_t seq = ++shoal_g.barrier_seq;
    int n = shoal_g.n_pes, me = shoal_g.my_pe, round = 0, dist;

    if (complete_puts)
        shoal_core_quiet();
    for (dist = 1; dist < n; dist <<= 1, round++) {
        int to = (me + dist) % n;
        size_t off = shoal_g.barrier_off + (size_t)round * FLAG_STRIDE;
        shoal_peer_t *peer = shoal_peer(to);

        if (peer->ops->put_flag(peer->state, SHOAL_SEG_HEAP, off, seq) != SHOAL_OK)
            shoal_fatal("shmem_barrier_all: cannot signal PE %d", to);
        shoal_core_wait_u64_ge((const uint64_t *)(shoal_g.seg[SHOAL_SEG_HEAP].base + off), seq);
    }
}
