/* A wake-up word, in place of a condition variable, for threads that wait under a
 * mutex for a condition to change (and, below, shared words for waits across
 * processes). glibc before 2.41 (Debian 12 has 2.36) can
 * leave pthread_cond_broadcast blocked for good, and its waiters with it
 * (sourceware bug 25847): Shoal's tests met it under load. Linux futexes have no
 * such state to get wrong.
 *
 * The waiter, holding the mutex and finding its condition false, reads the word
 * (shoal_wake_seen), drops the mutex, and sleeps only while the word still holds
 * what it read (shoal_wake_sleep); then it takes the mutex and tests again.
 * Whoever makes the condition true does so under the mutex, then bumps the word
 * and wakes every sleeper (shoal_wake_all): a bump after the waiter's read ends
 * its sleep at once, so no wake-up is lost. Header only, for C and C++; the
 * futex calls are shoal_futex.h's. */
#ifndef SHOAL_WAKE_H
#define SHOAL_WAKE_H

#include "shoal_futex.h"

static inline unsigned shoal_wake_seen(const unsigned *word)
{
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/* Returns at once if the word has moved on from seen; may also return early
 * (a signal): callers test their condition again. */
static inline void shoal_wake_sleep(unsigned *word, unsigned seen)
{
    shoal_futex_wait(word, seen, NULL, 0);
}

static inline void shoal_wake_all(unsigned *word)
{
    __atomic_add_fetch(word, 1, __ATOMIC_RELEASE);
    shoal_futex_wake_all(word, 0);
}

/* Words in memory that other processes map (a PE's collective counters): shared,
 * not process-private, futexes, which the kernel keys by file and offset,
 * whatever address each process sees. Sleeps while the 32-bit word holds expect,
 * until a wake on it, a signal or timeout_ns. */
static inline void shoal_wake_shared_sleep(const void *word, unsigned expect, long timeout_ns)
{
    struct timespec ts = {timeout_ns / 1000000000L, timeout_ns % 1000000000L};

    shoal_futex_wait(word, expect, &ts, 1);
}

/* Wakes every sleeper on the shared word. */
static inline void shoal_wake_shared_all(const void *word)
{
    shoal_futex_wake_all(word, 1);
}

#endif
