/* Distributed locks: a ticket lock, so waiters are served first come, first served.
 * The lock word on PE 0 is the lock; it must never be written except by AMOs on its
 * path (a plain store would race the NIC's atomics), and never compared but for
 * equality, so that its 32-bit halves may wrap. */
#include "shmem.h"
#include "shoal_check.h"

#include <pthread.h>
#include <stdlib.h>

/* PE 0's copy of the lock holds the next ticket in its high half and the ticket
 * now served in its low half. Only the holder advances the low half. Every other
 * PE's copy is unused by the lock itself: there the holder keeps its ticket plus
 * one, so clear_lock needs no round trip to learn which ticket it is ending. */
#define LOCK_PE 0
#define ONE_TICKET ((uint64_t)1 << 32)

static inline uint32_t next_of(uint64_t word)
{
    return (uint32_t)(word >> 32);
}
static inline uint32_t serving_of(uint64_t word)
{
    return (uint32_t)word;
}

static int check_lock(long *lock, const char *routine, size_t *off_out)
{
    int seg;

    shoal_check_init(routine);
    seg = shoal_check_symmetric(lock, sizeof(*lock), routine, "lock", off_out);
    shoal_check_aligned(lock, sizeof(*lock), routine, "lock");
    return seg;
}

/* One blocking AMO on PE 0's lock word; returns the old value. */
static uint64_t lock_amo(int seg, size_t off, shoal_amo_op_t op, const uint64_t *operand,
                         const uint64_t *compare, const char *routine)
{
    uint64_t old = 0;

    shoal_core_amo(&shoal_ctx_default, LOCK_PE, seg, off, op, sizeof(old), operand, compare, &old, 0, routine);
    return old;
}

/* On PE 0, first let in the tickets other PEs asked for: where UCX carries AMOs in
 * software, they wait for this PE's progress, and a PE 0 that keeps taking the lock
 * locally would otherwise go first every time. One progress call: nothing waits. */
static void serve_earlier_requests(void)
{
    if (shoal_g.my_pe == LOCK_PE)
        shoal_core_progress();
}

static void remember_ticket(long *lock, uint32_t ticket)
{
    if (shoal_g.my_pe != LOCK_PE)
        __atomic_store_n((uint64_t *)lock, (uint64_t)ticket + 1, __ATOMIC_RELAXED);
}

/* The locks this PE holds, so that a clear_lock of a lock it does not hold ends
 * the job with one line: it would advance the ticket being served past the next
 * one given out, and every later set_lock would wait forever. A lock is the PE's,
 * not a thread's; few are held at once, so a list does. */
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static long **held;
static size_t nheld, maxheld;

static void held_add(long *lock)
{
    pthread_mutex_lock(&held_lock);
    if (nheld == maxheld) {
        size_t want = maxheld ? 2 * maxheld : 8;
        long **grown = realloc(held, want * sizeof(*grown));

        if (grown == NULL)
            shoal_fatal("shmem_set_lock: out of memory recording a held lock");
        held = grown;
        maxheld = want;
    }
    held[nheld++] = lock;
    pthread_mutex_unlock(&held_lock);
}

static void held_remove(long *lock)
{
    size_t i;

    pthread_mutex_lock(&held_lock);
    for (i = 0; i < nheld && held[i] != lock; i++)
        ;
    if (i == nheld)
        shoal_fatal("shmem_clear_lock: argument lock is %p, which this PE does not hold; "
                    "clear a lock only after shmem_set_lock, or a shmem_test_lock that "
                    "returned 0, took it",
                    (void *)lock);
    held[i] = held[--nheld];
    pthread_mutex_unlock(&held_lock);
}

void shmem_set_lock(long *lock)
{
    const uint64_t one = ONE_TICKET;
    unsigned spins = 0;
    size_t off;
    int seg = check_lock(lock, "shmem_set_lock", &off);
    uint64_t word;
    uint32_t ticket;

    serve_earlier_requests();
    word = lock_amo(seg, off, SHOAL_AMO_ADD, &one, NULL, "shmem_set_lock");
    ticket = next_of(word);

    /* PE 0 polls its own memory; the others fetch, one round trip per turn of the
     * back-off, which also drives the progress PE 0 may need from them. */
    while (serving_of(word) != ticket) {
        shoal_core_backoff(&spins);
        word = shoal_g.my_pe == LOCK_PE
                   ? __atomic_load_n((uint64_t *)lock, __ATOMIC_ACQUIRE)
                   : lock_amo(seg, off, SHOAL_AMO_FETCH, NULL, NULL, "shmem_set_lock");
    }
    remember_ticket(lock, ticket);
    held_add(lock);
}

void shmem_clear_lock(long *lock)
{
    size_t off;
    int seg = check_lock(lock, "shmem_clear_lock", &off);
    uint64_t mine, step = 1;
    uint32_t ticket;

    held_remove(lock);
    mine = __atomic_load_n((uint64_t *)lock, __ATOMIC_ACQUIRE);
    ticket = shoal_g.my_pe == LOCK_PE ? serving_of(mine) : (uint32_t)(mine - 1);

    /* The critical section's stores complete before the next holder may enter. */
    shoal_core_quiet(&shoal_ctx_default);
    /* Served wraps from 2^32-1 to 0: take back the carry the add makes. */
    if (ticket == UINT32_MAX)
        step -= ONE_TICKET;
    shoal_core_amo(&shoal_ctx_default, LOCK_PE, seg, off, SHOAL_AMO_ADD, sizeof(step), &step, NULL, NULL, 0,
                   "shmem_clear_lock");
}

int shmem_test_lock(long *lock)
{
    size_t off;
    int seg = check_lock(lock, "shmem_test_lock", &off);
    uint64_t guess, old, taken;

    /* Guess the word is free (PE 0 reads it; elsewhere: as this PE last left it),
     * then retry with what the swap found for as long as that is free. */
    serve_earlier_requests();
    if (shoal_g.my_pe == LOCK_PE) {
        guess = __atomic_load_n((uint64_t *)lock, __ATOMIC_ACQUIRE);
    } else {
        uint32_t last = (uint32_t)__atomic_load_n((uint64_t *)lock, __ATOMIC_RELAXED);

        guess = (uint64_t)last << 32 | last;
    }
    for (;;) {
        if (next_of(guess) != serving_of(guess))
            return 1;
        taken = guess + ONE_TICKET;
        old = lock_amo(seg, off, SHOAL_AMO_CSWAP, &taken, &guess, "shmem_test_lock");
        if (old == guess)
            break;
        guess = old;
    }
    remember_ticket(lock, next_of(old));
    held_add(lock);
    return 0;
}
