/* The host proxy: a thread of the PE that carries out what kernels post to the
 * ring (shoal_proxy.h) with Shoal's own host routines, on a context of its own,
 * in ticket order. So a kernel reaches PEs on other nodes (UCX), and its atomics
 * and the CPU's share one atomicity domain: the host does them all (on the GPU
 * heap, the host routines hand them to the GPU that owns the word). While idle
 * it also serves peers' requests on this PE's GPU heap (gheap_remote.cu). Pure host
 * code: it builds with nvcc into libshoal_gpu and with g++ into the CPU engine,
 * where the ring is plain memory. */
#include "shoal_gpu.h"
#include "shoal_env.h" /* SHOAL_GPU_PROXY_* */
#include "shoal_log.h" /* SHOAL_LOG_* levels only */
#include "shoal_proxy.h"
#include "shoal_symm.h" /* shoal_amo_op_t */

#include "shmem.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Idle polling: SPINS empty looks at the ring, then sleeps that double from
 * SLEEP_MIN_NS to SLEEP_MAX_NS, so an idle proxy costs little CPU and a request
 * after a pause waits at most about SLEEP_MAX_NS. (Linux's timer slack
 * stretches the short sleeps to some 50 us: a thread that sleeps shorter only
 * takes CPU time from the PEs that share the core.) */
#define SPINS 1024
#define PROGRESS_EVERY 64
#define SLEEP_MIN_NS 1000
#define SLEEP_MAX_NS 200000

typedef struct proxy {
    shoal_proxy_ring_t *ring; /* at its host address */
    shmem_ctx_t ctx;
    pthread_t thread;
    int running;
    /* The main thread asks for a drain by raising want; the proxy answers by
     * setting done to it once every request posted before is complete. */
    unsigned long drain_want, drain_done;
    int stop;
    uint64_t head;         /* the next ticket to carry out (written by the proxy) */
    unsigned long carried; /* requests carried out, for the log */
} proxy_t;

static proxy_t proxy;

/* A nap of ns at most. The proxy's thread passes its head slot's posted word,
 * last read as seen: on the CPU engine it sleeps on that word, which a kernel
 * thread's post wakes (shoal_proxy_wake), so a request after a pause is
 * taken at once; a GPU's kernel cannot wake a host thread, so there (and for
 * the main thread's drain, posted NULL) it is a plain sleep. */
static void nap(const volatile uint64_t *posted, uint64_t seen, long ns)
{
    struct timespec ts = {0, ns};

#ifdef SHOAL_DEV_ON_CPU
    if (posted != NULL) {
        shoal_dev_cpu_park(posted, seen, ns);
        return;
    }
#endif
    (void)posted;
    (void)seen;
    nanosleep(&ts, NULL);
}

/* Between looks at the ring: a spin or a sleep, and now and then a pass of UCX
 * progress for the peers (this PE's main thread may sit in
 * cudaDeviceSynchronize, and without it only the progress thread would serve
 * them, every SHOAL_PROGRESS_US). A pass is a system call on TCP: one every
 * PROGRESS_EVERY spins, and one per sleep, keeps the spinning cheap for PEs that
 * share the CPUs. */
static void idle(unsigned *spins, long *ns, const volatile uint64_t *posted, uint64_t seen)
{
    /* Peers' requests on this PE's GPU heap (gheap_remote.cu): one load per PE. */
    if (shoal_gpu_gheap_serve() > 0) {
        *spins = 0;
        *ns = 0;
        return;
    }
    if (*spins % PROGRESS_EVERY == 0)
        (void)shoal_gpu.env->progress();
    if (++*spins < SPINS)
        return;
    *ns = *ns == 0 ? SLEEP_MIN_NS : (*ns * 2 < SLEEP_MAX_NS ? *ns * 2 : SLEEP_MAX_NS);
    nap(posted, seen, *ns);
    (void)shoal_gpu.env->progress();
}

/* One AMO of a width: the fetching form where the kernel waits for the old value,
 * else the non-fetching one (over UCX it need not wait for the target). */
#define PROXY_AMO(bits)                                                                          \
    static uint64_t amo##bits(shmem_ctx_t ctx, int op, uint##bits##_t *d, uint##bits##_t v,      \
                              uint##bits##_t c, int reply, int pe)                               \
    {                                                                                            \
        switch (op) {                                                                            \
        case SHOAL_AMO_FETCH: return shmem_ctx_uint##bits##_atomic_fetch(ctx, d, pe);            \
        case SHOAL_AMO_SWAP: return shmem_ctx_uint##bits##_atomic_swap(ctx, d, v, pe);           \
        case SHOAL_AMO_CSWAP: return shmem_ctx_uint##bits##_atomic_compare_swap(ctx, d, c, v, pe); \
        case SHOAL_AMO_SET: shmem_ctx_uint##bits##_atomic_set(ctx, d, v, pe); return 0;          \
        }                                                                                        \
        if (!reply) {                                                                            \
            switch (op) {                                                                        \
            case SHOAL_AMO_ADD: shmem_ctx_uint##bits##_atomic_add(ctx, d, v, pe); return 0;      \
            case SHOAL_AMO_AND: shmem_ctx_uint##bits##_atomic_and(ctx, d, v, pe); return 0;      \
            case SHOAL_AMO_OR: shmem_ctx_uint##bits##_atomic_or(ctx, d, v, pe); return 0;        \
            case SHOAL_AMO_XOR: shmem_ctx_uint##bits##_atomic_xor(ctx, d, v, pe); return 0;      \
            }                                                                                    \
        }                                                                                        \
        switch (op) {                                                                            \
        case SHOAL_AMO_ADD: return shmem_ctx_uint##bits##_atomic_fetch_add(ctx, d, v, pe);       \
        case SHOAL_AMO_AND: return shmem_ctx_uint##bits##_atomic_fetch_and(ctx, d, v, pe);       \
        case SHOAL_AMO_OR: return shmem_ctx_uint##bits##_atomic_fetch_or(ctx, d, v, pe);         \
        case SHOAL_AMO_XOR: return shmem_ctx_uint##bits##_atomic_fetch_xor(ctx, d, v, pe);       \
        }                                                                                        \
        shoal_gpu.env->fatal("GPU proxy: AMO op %d has no case (a bug in Shoal: please report "  \
                             "it)", op);                                                         \
    }
PROXY_AMO(32)
PROXY_AMO(64)

/* Carries out r. Returns whether the kernel waits for a reply. */
static int carry(shoal_proxy_req_t *r)
{
    void *addr = (void *)(uintptr_t)r->addr;
    uint64_t *sig = (uint64_t *)(uintptr_t)r->sig_addr;

    switch (r->op) {
    case SHOAL_PROXY_PUT:
        shmem_ctx_putmem(proxy.ctx, addr, r->payload, r->bytes, r->pe);
        break;
    case SHOAL_PROXY_PUT_SIGNAL:
        /* Earlier pieces of the same put went as plain puts: they land first. */
        shmem_ctx_fence(proxy.ctx);
        shmem_ctx_putmem_signal(proxy.ctx, addr, r->payload, r->bytes, sig, r->signal, r->sig_op,
                                r->pe);
        break;
    case SHOAL_PROXY_GET:
        shmem_ctx_getmem(proxy.ctx, r->payload, addr, r->bytes, r->pe);
        break;
    case SHOAL_PROXY_AMO:
        r->result = r->size == 8 ? amo64(proxy.ctx, r->amo_op, (uint64_t *)addr, r->operand,
                                         r->compare, r->reply, r->pe)
                                 : amo32(proxy.ctx, r->amo_op, (uint32_t *)addr,
                                         (uint32_t)r->operand, (uint32_t)r->compare, r->reply,
                                         r->pe);
        break;
    case SHOAL_PROXY_QUIET:
        shmem_ctx_quiet(proxy.ctx);
        break;
    default:
        shoal_gpu.env->fatal("GPU proxy: request op %d has no case (a bug in Shoal: please "
                             "report it)", r->op);
    }
    return r->reply;
}

static void *proxy_main(void *arg)
{
    uint64_t head = 0;
    unsigned spins = 0;
    long ns = 0;

    (void)arg;
    for (;;) {
        shoal_proxy_req_t *r = &proxy.ring->req[head % SHOAL_PROXY_SLOTS];
        unsigned long want;

        uint64_t posted = __atomic_load_n(&r->posted, __ATOMIC_ACQUIRE);

        if (posted == head + 1) {
            int quiet = r->op == SHOAL_PROXY_QUIET;

            if (carry(r)) {
                __atomic_store_n(&r->done, head + 1, __ATOMIC_RELEASE);
                shoal_proxy_wake(&r->done);
            } else
                __atomic_store_n(&r->turn, head + SHOAL_PROXY_SLOTS, __ATOMIC_RELEASE);
            if (quiet) /* the ring's order: every ticket before this one is covered */
                __atomic_store_n(&proxy.ring->quieted, head + 1, __ATOMIC_RELEASE);
            head++;
            __atomic_store_n(&proxy.head, head, __ATOMIC_RELEASE);
            proxy.carried++;
            spins = 0;
            ns = 0;
            continue;
        }
        want = __atomic_load_n(&proxy.drain_want, __ATOMIC_ACQUIRE);
        if (want != proxy.drain_done) {
            shmem_ctx_quiet(proxy.ctx);
            __atomic_store_n(&proxy.ring->quieted, head, __ATOMIC_RELEASE);
            __atomic_store_n(&proxy.drain_done, want, __ATOMIC_RELEASE);
            continue;
        }
        if (__atomic_load_n(&proxy.stop, __ATOMIC_ACQUIRE))
            break;
        idle(&spins, &ns, &r->posted, posted);
    }
    return NULL;
}

int shoal_gpu_proxy_plan(const shoal_gpu_env_t *env, char *const *table, int native_atomics,
                         shoal_dev_state_t *state, char *what, size_t len)
{
    int pe, unmapped = 0;

    for (pe = 0; pe < env->n_pes; pe++)
        unmapped += table[pe] == NULL;
    /* A GPU heap not mapped here: the proxy carries kernels' operations on it,
     * and serves the requests of the PEs that do not map this one's (mapping
     * goes both ways: same node, same transport). */
    unmapped += shoal_gpu_gheap_unmapped();
    state->proxy_all = env->proxy == SHOAL_GPU_PROXY_ALL;
    state->proxy_amo = env->proxy != SHOAL_GPU_PROXY_NONE && !native_atomics;
    if (env->proxy == SHOAL_GPU_PROXY_NONE) {
        snprintf(what, len, "no host proxy (SHOAL_GPU_PROXY=none)");
        return 0;
    }
    if (state->proxy_all) {
        snprintf(what, len, "a host proxy carries every put, get and atomic (SHOAL_GPU_PROXY=all)");
        return 1;
    }
    if (unmapped == 0 && !state->proxy_amo) {
        snprintf(what, len, "no host proxy needed");
        return 0;
    }
    snprintf(what, len, "a host proxy carries %s%s%s", unmapped ? "operations on unmapped PEs" : "",
             unmapped && state->proxy_amo ? " and " : "", state->proxy_amo ? "every atomic" : "");
    return 1;
}

void shoal_gpu_proxy_start(shoal_proxy_ring_t *ring)
{
    const shoal_gpu_env_t *env = shoal_gpu.env;
    int i, rc;

    memset(ring, 0, sizeof(*ring));
    for (i = 0; i < SHOAL_PROXY_SLOTS; i++)
        ring->req[i].turn = (uint64_t)i;
    proxy.ring = ring;
    /* Its own context: the main thread's quiets and fences neither wait for the
     * proxy's operations nor order them. The default one where none is left. */
    if (shmem_ctx_create(0, &proxy.ctx) != 0)
        proxy.ctx = SHMEM_CTX_DEFAULT;
    proxy.stop = 0;
    proxy.drain_want = proxy.drain_done = 0;
    proxy.carried = 0;
    proxy.head = 0;
    rc = pthread_create(&proxy.thread, NULL, proxy_main, NULL);
    if (rc != 0)
        env->fatal("shmem_init: cannot start the GPU proxy thread: %s; set SHOAL_GPU_PROXY=none "
                   "to run without it",
                   strerror(rc));
    proxy.running = 1;
}

/* Whether the proxy has carried nothing since its last quiet and nothing waits at
 * its head: then a drain has nothing to do, and a barrier need not wake it. */
static int idle_since_quiet(void)
{
    uint64_t head = __atomic_load_n(&proxy.head, __ATOMIC_ACQUIRE);
    const shoal_proxy_req_t *r = &proxy.ring->req[head % SHOAL_PROXY_SLOTS];

    return __atomic_load_n(&proxy.ring->quieted, __ATOMIC_ACQUIRE) == head &&
           __atomic_load_n(&r->posted, __ATOMIC_ACQUIRE) != head + 1;
}

void shoal_gpu_proxy_drain(void)
{
    unsigned long want;
    unsigned spins = 0;
    long ns = 0;

    if (!proxy.running || idle_since_quiet())
        return;
    want = __atomic_add_fetch(&proxy.drain_want, 1, __ATOMIC_ACQ_REL);
    while ((long)(__atomic_load_n(&proxy.drain_done, __ATOMIC_ACQUIRE) - want) < 0)
        idle(&spins, &ns, NULL, 0);
}

void shoal_gpu_proxy_stop(void)
{
    if (!proxy.running)
        return;
    __atomic_store_n(&proxy.stop, 1, __ATOMIC_RELEASE);
    pthread_join(proxy.thread, NULL);
    shoal_gpu.env->log(SHOAL_LOG_DEBUG, "GPU proxy: %lu requests carried out", proxy.carried);
    /* The context went with shmem_finalize's cleanup of every context. */
    memset(&proxy, 0, sizeof(proxy));
}

void shoal_gpu_check_and_drain(void)
{
    shoal_gpu_check();
    shoal_gpu_proxy_drain();
}
