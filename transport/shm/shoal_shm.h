/* Same-node transport: each PE's segments live in memfd files that peers on the
 * node map, so remote access is a load or store. This header is the component's
 * inline half, which the core's fast paths call: ordering, CPU atomics on mapped
 * memory, and the collective tokens with their futex wake-up. Holds no global
 * state; the core decides where it may be used (shoal_core_direct). */
#ifndef SHOAL_SHM_H
#define SHOAL_SHM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "shoal_transport.h"
#include "shoal_status.h"

extern const shoal_transport_ops_t shoal_shm_ops;

/* A new shared segment of size bytes, mapped at a multiple of align (a power of
 * two, at least a page). */
shoal_status_t shoal_shm_segment_create(const char *name, size_t size, size_t align, int *fd_out,
                             void **addr_out);
/* Makes the existing private mapping [addr, addr+size) shared, keeping its contents
 * and its address (used for the program's data and bss). */
shoal_status_t shoal_shm_segment_remap(const char *name, void *addr, size_t size, int *fd_out);
/* Copies size bytes between [base, base+size) and the start of file fd, into the
 * file when to_file is set, else out of it. Returns SHOAL_OK or SHOAL_ERR_SYSTEM. */
shoal_status_t shoal_shm_file_copy(int fd, char *base, size_t size, int to_file);
void shoal_shm_segment_detach(void *addr, size_t size);

/* A peer's state for shoal_shm_ops: its segments (descriptors fd, sizes size, in
 * process pid) mapped here. own: this PE's own segments, used as they are (pid and
 * fd unused); NULL for another PE. */
shoal_status_t shoal_shm_peer_create(pid_t pid, const int *fd, const size_t *size, char *const *own,
                          void **state_out);

/* Sleeps while the 32-bit word at word (shared memory) holds expect, until
 * shoal_shm_wake on it, a signal or timeout_ns; wakes every sleeper on word. */
void shoal_shm_sleep(const void *word, uint32_t expect, long timeout_ns);
void shoal_shm_wake(const void *word);

/* Copies n bytes to a mapped dst with stores that bypass the caches (where the
 * CPU has them; else memcpy), then fences them: for collectives whose data as a
 * whole is larger than the last-level cache, where a cached store first reads
 * each destination line from memory and then evicts something the other PEs
 * still need. Ordered before any later store, as memcpy's are. */
void shoal_shm_copy_stream(void *dst, const void *src, size_t n);

/* Store ordering for the direct path: fence orders, quiet completes. */
static inline void shoal_shm_fence(void)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void shoal_shm_quiet(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* CPU atomics on a mapped value: one locked instruction (or a cmpxchg loop the
 * compiler emits for fetch-and/or/xor). Sequentially consistent, like the peers'. */
#define SHOAL_SHM_AMO_FN(T)                                                            \
    static inline T shoal_shm_amo_##T(T *p, shoal_amo_op_t op, T v, T cmp)             \
    {                                                                                  \
        switch (op) {                                                                  \
        case SHOAL_AMO_FETCH: return __atomic_load_n(p, __ATOMIC_SEQ_CST);             \
        case SHOAL_AMO_SET: __atomic_store_n(p, v, __ATOMIC_SEQ_CST); return 0;        \
        case SHOAL_AMO_SWAP: return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);       \
        case SHOAL_AMO_CSWAP:                                                          \
            __atomic_compare_exchange_n(p, &cmp, v, 0, __ATOMIC_SEQ_CST,               \
                                        __ATOMIC_SEQ_CST);                             \
            return cmp;                                                                \
        case SHOAL_AMO_ADD: return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);         \
        case SHOAL_AMO_AND: return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);         \
        case SHOAL_AMO_OR: return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);           \
        case SHOAL_AMO_XOR: return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);         \
        }                                                                              \
        return 0;                                                                      \
    }
SHOAL_SHM_AMO_FN(uint32_t)
SHOAL_SHM_AMO_FN(uint64_t)

/* op on the size-byte (4 or 8) value at p: operand and compare as op needs, fetch
 * (NULL for none) receives the old value. Inline, so that with op and size known
 * at the call it is the one atomic instruction. */
static inline void shoal_shm_amo_at(void *p, shoal_amo_op_t op, size_t size,
                                    const void *operand, const void *compare, void *fetch)
{
    if (size == 8) {
        uint64_t v = 0, c = 0, old;

        if (operand != NULL)
            memcpy(&v, operand, 8);
        if (compare != NULL)
            memcpy(&c, compare, 8);
        old = shoal_shm_amo_uint64_t(p, op, v, c);
        if (fetch != NULL)
            memcpy(fetch, &old, 8);
    } else {
        uint32_t v = 0, c = 0, old;

        if (operand != NULL)
            memcpy(&v, operand, 4);
        if (compare != NULL)
            memcpy(&c, compare, 4);
        old = shoal_shm_amo_uint32_t(p, op, v, c);
        if (fetch != NULL)
            memcpy(fetch, &old, 4);
    }
}

/* Collective tokens in a 64-bit counter mapped here: a sender adds one, the
 * receiver waits for a non-zero count and takes one back. A receiver that sleeps
 * first sets SHOAL_SHM_TOKEN_SLEEPER; a sender that sees it wakes the receiver.
 * The count is in the counter's low half, the word the futex looks at. */
#define SHOAL_SHM_TOKEN_SLEEPER ((uint64_t)1 << 63)

static inline const uint32_t *shoal_shm_token_word(const uint64_t *counter)
{
    return (const uint32_t *)counter + (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

static inline void shoal_shm_token_send(uint64_t *counter)
{
    if (__atomic_fetch_add(counter, 1, __ATOMIC_SEQ_CST) & SHOAL_SHM_TOKEN_SLEEPER)
        shoal_shm_wake(shoal_shm_token_word(counter));
}

/* The tokens waiting in counter (acquire: what the senders wrote before is seen). */
static inline uint64_t shoal_shm_token_count(const uint64_t *counter)
{
    return __atomic_load_n(counter, __ATOMIC_ACQUIRE) & ~SHOAL_SHM_TOKEN_SLEEPER;
}

/* Sleeps on counter, up to timeout_ns, while it holds no token; every sender of
 * its tokens must use shoal_shm_token_send (or it sleeps out the timeout). */
static inline void shoal_shm_token_sleep(uint64_t *counter, long timeout_ns)
{
    uint64_t old = __atomic_fetch_or(counter, SHOAL_SHM_TOKEN_SLEEPER, __ATOMIC_SEQ_CST);

    if ((old & ~SHOAL_SHM_TOKEN_SLEEPER) == 0)
        shoal_shm_sleep(shoal_shm_token_word(counter), 0, timeout_ns);
    __atomic_fetch_and(counter, ~SHOAL_SHM_TOKEN_SLEEPER, __ATOMIC_SEQ_CST);
}

#endif
