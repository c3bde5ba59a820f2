/* The GPU heaps this PE does not map (other nodes, SHOAL_TRANSPORT=ucx), for
 * the host routines and the host proxy. A request goes into the target PE's
 * inbox in its host heap (one put with signal: header and data, then the
 * sequence number); the target's proxy thread, or any of its threads waiting
 * here, applies it with its GPU's copies and atomics (gheap_ops.cu) and answers
 * into the sender's reply slot, which the sender waits for. So UCX moves host
 * memory only: Debian's UCX has no CUDA transport. (With one, UCX could reach
 * the GPU heap itself: the cudaMalloc registered with ucp_mem_map and its rkey
 * exchanged as the host heap's.) A thread that waits here must never hold a
 * lock the serving side takes. */
#include "shoal_gpu.h"
#include "shoal_symm.h" /* shoal_amo_op_t */

#include "shmem.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAYLOAD SHOAL_PROXY_PAYLOAD

enum { REQ_PUT = 1, REQ_GET, REQ_AMO };

/* PE s's request, in slot s of the target's inbox. seq is the put's signal: a
 * new value means the rest has landed. */
typedef struct gheap_req {
    uint64_t seq;
    int32_t op, amo_op;
    uint64_t size, off, bytes, operand, compare;
    uint64_t payload[PAYLOAD / 8];
} gheap_req_t;

/* PE t's answer to seq, in slot t of the sender's replies. */
typedef struct gheap_reply {
    uint64_t seq;
    uint64_t result;
    uint64_t payload[PAYLOAD / 8];
} gheap_reply_t;

#define REQ_HEAD (offsetof(gheap_req_t, payload) - offsetof(gheap_req_t, op))

static pthread_mutex_t send_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t serve_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
    gheap_req_t *inbox;      /* n_pes slots in the host heap */
    gheap_reply_t *replies;  /* n_pes slots in the host heap */
    uint64_t *sent, *served; /* n_pes each: the last seq sent to PE t, served from PE s */
    shmem_ctx_t send_ctx;    /* used under send_lock */
    shmem_ctx_t serve_ctx;   /* used under serve_lock */
    gheap_req_t out;         /* the request being sent (send_lock) */
    gheap_reply_t back;      /* the answer being sent (serve_lock) */
    int my_pe, n_pes;
    int ready; /* the slots exist and this PE has a GPU heap to serve */
} rem;

void shoal_gpu_gheap_remote_setup(const shoal_gpu_env_t *env, int have_gpu)
{
    size_t n = (size_t)env->n_pes;

    /* Collective, as every PE's init calls it. Never freed: the heap goes with
     * shmem_finalize (as the device barrier's words). */
    rem.inbox = (gheap_req_t *)shmem_calloc(n, sizeof(gheap_req_t));
    rem.replies = (gheap_reply_t *)shmem_calloc(n, sizeof(gheap_reply_t));
    if (rem.inbox == NULL || rem.replies == NULL)
        env->fatal("shmem_init: no room in the symmetric heap for the GPU heap's %zu-byte "
                   "request slots; raise SHMEM_SYMMETRIC_SIZE",
                   n * (sizeof(gheap_req_t) + sizeof(gheap_reply_t)));
    if (!have_gpu) /* no GPU heap here: nothing to send or serve */
        return;
    rem.sent = (uint64_t *)calloc(n, sizeof(uint64_t));
    rem.served = (uint64_t *)calloc(n, sizeof(uint64_t));
    if (rem.sent == NULL || rem.served == NULL)
        env->fatal("shmem_init: out of memory for the GPU heap's request counters");
    /* Contexts of their own: the program's quiets neither wait for nor order
     * these. The default one where none is left (each is used under its lock). */
    if (shmem_ctx_create(0, &rem.send_ctx) != 0)
        rem.send_ctx = SHMEM_CTX_DEFAULT;
    if (shmem_ctx_create(0, &rem.serve_ctx) != 0)
        rem.serve_ctx = SHMEM_CTX_DEFAULT;
    rem.my_pe = env->my_pe;
    rem.n_pes = env->n_pes;
}

void shoal_gpu_gheap_remote_start(void)
{
    __atomic_store_n(&rem.ready, 1, __ATOMIC_RELEASE);
}

void shoal_gpu_gheap_remote_cleanup(void)
{
    pthread_mutex_lock(&serve_lock);
    __atomic_store_n(&rem.ready, 0, __ATOMIC_RELEASE);
    free(rem.sent);
    free(rem.served);
    /* The contexts went with shmem_finalize's cleanup of every context. */
    memset(&rem, 0, sizeof(rem));
    pthread_mutex_unlock(&serve_lock);
}

/* One request, from PE from, applied to this PE's GPU heap and answered. */
static void apply(const gheap_req_t *r, int from, uint64_t seq)
{
    static const char what[] = "a request from another PE";
    size_t size = shoal_gpu.state.gheap_size, reply = sizeof(uint64_t);
    char *p = (char *)shoal_gpu.state.gheap_base + r->off;

    if (r->off > size || r->bytes > size - r->off)
        shoal_gpu.env->fatal("GPU heap: PE %d asked for %llu bytes at offset %llu of this PE's "
                             "GPU symmetric heap, which has %zu; set SHOAL_GPU_SYMMETRIC_SIZE "
                             "alike on every PE",
                             from, (unsigned long long)r->bytes, (unsigned long long)r->off, size);
    rem.back.result = 0;
    switch (r->op) {
    case REQ_PUT:
        shoal_gpu_gheap_copy(p, r->payload, r->bytes, what);
        break;
    case REQ_GET:
        shoal_gpu_gheap_copy(rem.back.payload, p, r->bytes, what);
        reply += r->bytes;
        break;
    case REQ_AMO:
        rem.back.result =
            shoal_gpu_gheap_atomic(r->amo_op, p, r->operand, r->compare, r->size, what);
        break;
    default:
        shoal_gpu.env->fatal("GPU heap: request op %d from PE %d has no case (a bug in Shoal: "
                             "please report it)",
                             r->op, from);
    }
    shmem_ctx_putmem_signal(rem.serve_ctx, &rem.replies[rem.my_pe].result, &rem.back.result, reply,
                            &rem.replies[rem.my_pe].seq, seq, SHMEM_SIGNAL_SET, from);
}

/* Cost of a pass with nothing to do: one acquire load per PE. */
int shoal_gpu_gheap_serve(void)
{
    int s, n = 0;

    if (!__atomic_load_n(&rem.ready, __ATOMIC_ACQUIRE) || pthread_mutex_trylock(&serve_lock) != 0)
        return 0;
    for (s = 0; rem.ready && s < rem.n_pes; s++) {
        uint64_t seq = __atomic_load_n(&rem.inbox[s].seq, __ATOMIC_ACQUIRE);

        if (seq == rem.served[s])
            continue;
        apply(&rem.inbox[s], s, seq);
        rem.served[s] = seq;
        n++;
    }
    pthread_mutex_unlock(&serve_lock);
    return n;
}

/* A turn of a wait: this PE's own inbox served first (the PE waited for may be
 * waiting for this one), then progress, and after a while sleeps that double
 * up to 100 us. */
static void turn(unsigned *spins, long *ns)
{
    struct timespec ts;

    if (shoal_gpu_gheap_serve() > 0) {
        *spins = 0;
        *ns = 0;
        return;
    }
    (void)shoal_gpu.env->progress();
    if (++*spins < 256)
        return;
    *ns = *ns == 0 ? 1000 : (*ns * 2 < 100000 ? *ns * 2 : 100000);
    ts.tv_sec = 0;
    ts.tv_nsec = *ns;
    nanosleep(&ts, NULL);
}

/* Takes send_lock, serving meanwhile: its holder may wait for a PE that waits
 * for this one. */
static void lock_sending(int pe, const char *routine)
{
    unsigned spins = 0;
    long ns = 0;

    if (shoal_gpu.ring == NULL || !__atomic_load_n(&rem.ready, __ATOMIC_ACQUIRE))
        shoal_gpu.env->fatal("%s: argument pe is %d, whose GPU symmetric heap is not mapped here "
                             "(another node, or SHOAL_TRANSPORT=ucx) and is reached through the "
                             "host proxy, which SHOAL_GPU_PROXY=none turned off",
                             routine, pe);
    while (pthread_mutex_trylock(&send_lock) != 0)
        turn(&spins, &ns);
}

/* rem.out to PE t, with payload bytes of data; returns once t has answered. */
static void request(int t, size_t payload)
{
    uint64_t seq = ++rem.sent[t];
    unsigned spins = 0;
    long ns = 0;

    shmem_ctx_putmem_signal(rem.send_ctx, &rem.inbox[rem.my_pe].op, &rem.out.op, REQ_HEAD + payload,
                            &rem.inbox[rem.my_pe].seq, seq, SHMEM_SIGNAL_SET, t);
    while (__atomic_load_n(&rem.replies[t].seq, __ATOMIC_ACQUIRE) != seq)
        turn(&spins, &ns);
}

/* Cost per piece of up to PAYLOAD bytes: a round trip to pe, its copy, and two
 * of this GPU's copies where local is in the GPU heap. */
void shoal_gpu_gheap_remote_rma(int put, size_t off, void *local, size_t bytes, int pe,
                                const char *routine)
{
    size_t done, n;

    lock_sending(pe, routine);
    for (done = 0; done < bytes; done += n) {
        n = bytes - done < PAYLOAD ? bytes - done : PAYLOAD;
        rem.out.op = put ? REQ_PUT : REQ_GET;
        rem.out.off = off + done;
        rem.out.bytes = n;
        /* local may be device memory: the GPU copies (UVA). */
        if (put)
            shoal_gpu_gheap_copy(rem.out.payload, (const char *)local + done, n, routine);
        request(pe, put ? n : 0);
        if (!put)
            shoal_gpu_gheap_copy((char *)local + done, rem.replies[pe].payload, n, routine);
    }
    pthread_mutex_unlock(&send_lock);
}

uint64_t shoal_gpu_gheap_remote_amo(int op, size_t off, uint64_t operand, uint64_t compare,
                                    size_t size, int pe, const char *routine)
{
    uint64_t old;

    lock_sending(pe, routine);
    rem.out.op = REQ_AMO;
    rem.out.amo_op = op;
    rem.out.size = size;
    rem.out.off = off;
    rem.out.bytes = size;
    rem.out.operand = operand;
    rem.out.compare = compare;
    request(pe, 0);
    old = rem.replies[pe].result;
    pthread_mutex_unlock(&send_lock);
    return old;
}
