/* Distributed locks: an MCS queue lock. Each PE waits by reading its own copy of the
 * lock word, so a wait costs the network nothing and hand-off is one atomic to the
 * next PE in line. Every change to a lock word is an AMO through shoal_core_amo (it
 * picks the atomicity domain); a plain store would race the NIC's atomics. */
#include "shoal_lock.h"

#include "shoal_core.h"
#include "shoal_hang.h"
#include "shoal_status.h"
#include "shoal_wait.h"
#include "shoal_wake.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

/* The long splits into two 32-bit words, each only ever accessed whole, by 32-bit
 * AMOs and loads (so the two never need to be atomic with each other):
 * - the node, on every PE: this PE's place in the queue. GRANTED is set by the PE
 *   ahead of it when it hands the lock over, the low bits by the PE behind it (its
 *   number + 1) once it has queued. It is 0 whenever the PE neither holds nor waits
 *   for the lock, as the spec's initial 0 has it.
 * - the tail, on the lock's home PE only: the last PE in the queue + 1, 0 when the
 *   lock is free. Homes are spread by address, so an array of locks does not make
 *   one PE serve every request. */
#define NODE_OFF 0
#define TAIL_OFF 4
#define GRANTED ((uint32_t)1 << 31)
#define NEXT_MASK (GRANTED - 1)

static int home_of(size_t off)
{
    return (int)(off / sizeof(uint64_t) % (size_t)shoal_core_state.n_pes);
}

static uint32_t me_plus_one(void)
{
    return (uint32_t)shoal_core_state.my_pe + 1;
}

static const uint32_t *node_of(int seg, size_t off)
{
    return (const uint32_t *)(shoal_core_state.seg[seg].base + off + NODE_OFF);
}

/* The PE a tail or next field names (it holds PE + 1, here never 0). A value out of
 * range was not written by these routines: the word was not 0 before its first use,
 * or the program wrote it. Cost: one compare. */
static int pe_named(uint32_t field, int seg, size_t off, const char *routine)
{
    if (__builtin_expect(field > (uint32_t)shoal_core_state.n_pes, 0))
        shoal_log_fatal(
            "%s: argument lock is %p, which holds a value no lock routine wrote; set it to 0 on "
            "every PE before its first use and change it only through the lock routines",
            routine, (void *)(shoal_core_state.seg[seg].base + off));
    return (int)field - 1;
}

/* A blocking AMO that returns the old value: complete at the target when it returns. */
static uint32_t amo_fetch(int pe, int seg, size_t off, shoal_amo_op_t op, uint32_t operand,
                          uint32_t compare, const char *routine)
{
    uint32_t old = 0;

    shoal_core_amo(&shoal_ctx_default, pe, seg, off, op, sizeof(old), &operand, &compare, &old, 0,
                   routine);
    return old;
}

/* A blocking AMO without a result: no round trip where the transport has none. */
static void amo_post(int pe, int seg, size_t off, shoal_amo_op_t op, uint32_t operand,
                     const char *routine)
{
    shoal_core_amo(&shoal_ctx_default, pe, seg, off, op, sizeof(operand), &operand, NULL, NULL, 0,
                   routine);
}

/* Spins on this PE's own node (of the lock at seg, off) until a bit of bits is set;
 * returns the node. The acquire load sees a peer's AMO whichever path wrote it; the
 * back-off drives the progress that software-emulated AMOs (UCX over TCP) need to
 * land here. */
static uint32_t wait_node(int seg, size_t off, uint32_t bits, const char *routine)
{
    const uint32_t *node = node_of(seg, off);
    unsigned spins = 0;
    uint32_t v;

    while (((v = (uint32_t)shoal_wait_load_ivar(node, sizeof(*node), 0)) & bits) == 0) {
        shoal_core_backoff(&spins);
        shoal_hang_lock_turn(spins, seg, off, bits == GRANTED, shoal_lock_queue, routine);
    }
    return v;
}

/* On the home PE, first apply the requests others have sent: where UCX carries AMOs
 * in software they wait for this PE's progress, and a home that keeps taking its
 * lock locally would otherwise go first every time. One call: nothing waits. */
static void serve_earlier_requests(int home)
{
    if (shoal_core_state.my_pe == home)
        shoal_core_progress();
}

/* For a hang report (hang.c, which lock waits hand it): returns the first PE of the lock's queue,
 * its holder, walking back from this PE (-1 when no PE has linked to it yet); *ahead_out is the PE
 * just ahead of this one. Reads every PE's node: slow, and only a view, as the queue may move while
 * it reads. */
int shoal_lock_queue(int seg, size_t off, int *ahead_out)
{
    int n = shoal_core_state.n_pes, *behind = malloc((size_t)n * sizeof(int)),
        pe = shoal_core_state.my_pe, i, k;
    uint64_t v;

    *ahead_out = -1;
    if (behind == NULL)
        return -1;
    for (i = 0; i < n; i++)
        behind[i] = shoal_peer_read(i, seg, off + NODE_OFF, sizeof(uint32_t), SHOAL_HANG_PEEK_MS,
                                    &v) == SHOAL_OK
                        ? (int)((uint32_t)v & NEXT_MASK) - 1
                        : -1;
    /* Back along the links: PE i is ahead of pe when i's next is pe. */
    for (k = 0; k < n; k++) {
        for (i = 0; i < n && (i == pe || behind[i] != pe); i++)
            ;
        if (i == n)
            break;
        if (k == 0)
            *ahead_out = i;
        pe = i;
    }
    free(behind);
    return *ahead_out >= 0 ? pe : -1;
}

/* ---- this PE's claims: the locks it holds or one of its threads is taking ----
 * The PE has one node per lock, so one thread at a time may queue on it; a lock is
 * the PE's, not a thread's (any thread may clear it). Claims are found and made
 * under a mutex, once per set and once per clear; the owner then moves its claim
 * on by an atomic store. Few locks are held at once: a list, whose entries are
 * reused and never freed, so an owner's pointer stays valid without the mutex. */
enum { CLAIM_FREE, CLAIM_TAKING, CLAIM_HELD, CLAIM_CLEARING };

typedef struct claim {
    struct claim *next;
    int seg; /* seg, off: written under the mutex while the entry is free */
    size_t off;
    int state; /* CLAIM_*; atomic */
} claim_t;

static pthread_mutex_t claims_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned claims_freed; /* shoal_wake.h: bumped when a claim is freed */
static claim_t *claims;
static unsigned claims_waiting; /* threads waiting in claim_take; atomic */

static int claim_state(const claim_t *c)
{
    return __atomic_load_n(&c->state, __ATOMIC_SEQ_CST);
}

static void claim_set_state(claim_t *c, int state)
{
    __atomic_store_n(&c->state, state, __ATOMIC_SEQ_CST);
}

/* Under the mutex: the live claim on (seg, off), or NULL and a free entry in *spare. */
static claim_t *claim_find(int seg, size_t off, claim_t **spare)
{
    claim_t *c;

    *spare = NULL;
    for (c = claims; c != NULL; c = c->next) {
        if (claim_state(c) == CLAIM_FREE)
            *spare = *spare != NULL ? *spare : c;
        else if (c->seg == seg && c->off == off)
            return c;
    }
    return NULL;
}

/* Claims (seg, off) for this thread, waiting (wait set) while another thread of this
 * PE has it; else NULL when one has. The waiting count goes up before the look, so
 * that claim_free, which stores FREE before it reads the count, never misses us. */
static claim_t *claim_take(int seg, size_t off, int wait, const char *routine)
{
    claim_t *c, *spare;

    pthread_mutex_lock(&claims_lock);
    if (wait)
        __atomic_add_fetch(&claims_waiting, 1, __ATOMIC_SEQ_CST);
    while ((c = claim_find(seg, off, &spare)) != NULL && wait) {
        unsigned seen = shoal_wake_seen(&claims_freed);

        pthread_mutex_unlock(&claims_lock);
        shoal_wake_sleep(&claims_freed, seen);
        pthread_mutex_lock(&claims_lock);
    }
    if (wait)
        __atomic_sub_fetch(&claims_waiting, 1, __ATOMIC_SEQ_CST);
    if (c != NULL)
        goto err_busy;
    if (spare == NULL) {
        spare = calloc(1, sizeof(*spare));
        if (spare == NULL)
            shoal_log_fatal("%s: out of memory recording a held lock", routine);
        spare->next = claims;
        claims = spare;
    }
    spare->seg = seg;
    spare->off = off;
    claim_set_state(spare, CLAIM_TAKING);
    pthread_mutex_unlock(&claims_lock);
    return spare;

err_busy:
    pthread_mutex_unlock(&claims_lock);
    return NULL;
}

/* The claim on (seg, off) if this PE holds the lock, now marked as being cleared
 * (a second clear of it fails); else NULL. */
static claim_t *claim_for_clear(int seg, size_t off)
{
    claim_t *c, *spare;

    pthread_mutex_lock(&claims_lock);
    c = claim_find(seg, off, &spare);
    if (c != NULL && claim_state(c) == CLAIM_HELD)
        claim_set_state(c, CLAIM_CLEARING);
    else
        c = NULL;
    pthread_mutex_unlock(&claims_lock);
    return c;
}

static void claim_free(claim_t *c)
{
    claim_set_state(c, CLAIM_FREE);
    if (__atomic_load_n(&claims_waiting, __ATOMIC_SEQ_CST) != 0) {
        pthread_mutex_lock(&claims_lock);
        shoal_wake_all(&claims_freed);
        pthread_mutex_unlock(&claims_lock);
    }
}

/* ---- the queue ---- */

/* Cost: one swap at the home PE; when the lock is taken, one add to the PE ahead,
 * then reads of this PE's own memory until that PE hands over. */
shoal_status_t shoal_lock_set(int seg, size_t off, int may_wait, const char *routine)
{
    int home = home_of(off);
    claim_t *c = claim_take(seg, off, may_wait, routine);
    uint32_t ahead;

    if (c == NULL)
        return SHOAL_ERR_INVALID_ARG;
    serve_earlier_requests(home);
    ahead = amo_fetch(home, seg, off + TAIL_OFF, SHOAL_AMO_SWAP, me_plus_one(), 0, routine);
    if (ahead != 0) {
        /* Its next is 0 until now: a PE resets its node before it leaves the queue. */
        amo_post(pe_named(ahead, seg, off, routine), seg, off + NODE_OFF, SHOAL_AMO_ADD,
                 me_plus_one(), routine);
        wait_node(seg, off, GRANTED, routine);
    }
    claim_set_state(c, CLAIM_HELD);
    return SHOAL_OK;
}

/* Cost: one compare-swap at the home PE. A failed try leaves no trace in the queue. */
int shoal_lock_test(int seg, size_t off, const char *routine)
{
    int home = home_of(off);
    claim_t *c = claim_take(seg, off, 0, routine);

    if (c == NULL)
        return 1;
    serve_earlier_requests(home);
    if (amo_fetch(home, seg, off + TAIL_OFF, SHOAL_AMO_CSWAP, me_plus_one(), 0, routine) != 0) {
        claim_free(c);
        return 1;
    }
    claim_set_state(c, CLAIM_HELD);
    return 0;
}

/* Cost: a quiet; then one compare-swap at the home PE when no PE is behind this one,
 * else one add to that PE (the hand-off) and one swap on this PE's own node. */
shoal_status_t shoal_lock_clear(int seg, size_t off, const char *routine)
{
    const uint32_t *node = node_of(seg, off);
    claim_t *c = claim_for_clear(seg, off);
    uint32_t v;

    if (c == NULL)
        return SHOAL_ERR_NOT_FOUND;
    /* The critical section's stores complete before the next holder may enter. */
    shoal_core_quiet(&shoal_ctx_default);
    v = (uint32_t)shoal_wait_load_ivar(node, sizeof(*node), 0);
    /* Nobody behind: free the lock, unless a PE queued since and is about to say so. */
    if ((v & NEXT_MASK) == 0 && amo_fetch(home_of(off), seg, off + TAIL_OFF, SHOAL_AMO_CSWAP, 0,
                                          me_plus_one(), routine) != me_plus_one())
        v = wait_node(seg, off, NEXT_MASK, routine);
    if ((v & NEXT_MASK) != 0)
        amo_post(pe_named(v & NEXT_MASK, seg, off, routine), seg, off + NODE_OFF, SHOAL_AMO_ADD,
                 GRANTED, routine);
    /* Back to 0 for the next turn. Nothing else writes the node now: the PE behind
     * has linked and been served, and later PEs queue behind it. A fetching swap is
     * complete here when it returns, so it cannot land after the next turn's link. */
    if (v != 0)
        (void)amo_fetch(shoal_core_state.my_pe, seg, off + NODE_OFF, SHOAL_AMO_SWAP, 0, 0, routine);
    claim_free(c);
    return SHOAL_OK;
}
