/* Linux futexes, Shoal's one wrapper of the system call: a wait while a 32-bit
 * word holds what the caller read, and a wake of every waiter. shared: the word
 * is in memory other processes map (the kernel keys it by file and offset), else
 * process-private (cheaper). Elsewhere than Linux a wait yields and a wake does
 * nothing, so callers must test their condition again after each wait, as they
 * must on Linux too (a signal, a spurious return). Header only, for C and C++. */
#ifndef SHOAL_FUTEX_H
#define SHOAL_FUTEX_H

#include <limits.h>
#include <stdint.h>
#include <time.h>

#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#else
#include <sched.h>
#endif

/* Sleeps while *word == expect, at most timeout (NULL: no limit). */
static inline void shoal_futex_wait(const void *word, uint32_t expect,
                                    const struct timespec *timeout, int shared)
{
#ifdef __linux__
    (void)syscall(SYS_futex, word, shared ? FUTEX_WAIT : FUTEX_WAIT_PRIVATE, expect, timeout, NULL,
                  0);
#else
    (void)word;
    (void)expect;
    (void)timeout;
    (void)shared;
    sched_yield();
#endif
}

static inline void shoal_futex_wake_all(const void *word, int shared)
{
#ifdef __linux__
    (void)syscall(SYS_futex, word, shared ? FUTEX_WAKE : FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL,
                  0);
#else
    (void)word;
    (void)shared;
#endif
}

#endif
