/* The collectives' token protocol on a counter mapped here (coll_token.c): a
 * sender adds one, the receiver waits for a non-zero count and takes one back. A
 * receiver that sleeps first sets SHOAL_COLL_TOKEN_SLEEPER; a sender that sees it
 * wakes the receiver. The count is in the counter's low half, the word the
 * futex looks at. Header only; what a counter means is the algorithms' business. */
#ifndef SHOAL_COLL_TOKEN_H
#define SHOAL_COLL_TOKEN_H

#include <stdint.h>

#include "shoal_wake.h"

#define SHOAL_COLL_TOKEN_SLEEPER ((uint64_t)1 << 63)

static inline const uint32_t *shoal_coll_mapped_word(const uint64_t *counter)
{
    return (const uint32_t *)counter + (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

static inline void shoal_coll_mapped_send(uint64_t *counter)
{
    if (__atomic_fetch_add(counter, 1, __ATOMIC_SEQ_CST) & SHOAL_COLL_TOKEN_SLEEPER)
        shoal_wake_shared_all(shoal_coll_mapped_word(counter));
}

/* The tokens waiting in counter (acquire: what the senders wrote before is seen). */
static inline uint64_t shoal_coll_mapped_count(const uint64_t *counter)
{
    return __atomic_load_n(counter, __ATOMIC_ACQUIRE) & ~SHOAL_COLL_TOKEN_SLEEPER;
}

/* Sleeps on counter, up to timeout_ns, while it holds no token; every sender of
 * its tokens must use shoal_coll_mapped_send (or it sleeps out the timeout). */
static inline void shoal_coll_mapped_sleep(uint64_t *counter, long timeout_ns)
{
    uint64_t old = __atomic_fetch_or(counter, SHOAL_COLL_TOKEN_SLEEPER, __ATOMIC_SEQ_CST);

    if ((old & ~SHOAL_COLL_TOKEN_SLEEPER) == 0)
        shoal_wake_shared_sleep(shoal_coll_mapped_word(counter), 0, timeout_ns);
    __atomic_fetch_and(counter, ~SHOAL_COLL_TOKEN_SLEEPER, __ATOMIC_SEQ_CST);
}

#endif
