/* The distributed lock behind shmem_set_lock, shmem_test_lock and shmem_clear_lock:
 * a queue (MCS) lock in the symmetric lock word, whose waiters spin on their own
 * memory. Works on (segment, offset); the API layer has checked the address. */
#ifndef SHOAL_LOCK_H
#define SHOAL_LOCK_H

#include <stddef.h>
#include "shoal_status.h"

/* Takes the lock, waiting behind every PE that asked first. The PE has one place
 * in the queue: when it holds the lock already, or another of its threads is taking
 * it, the call waits for that thread's clear where may_wait is set (another thread
 * may clear it: SHMEM_THREAD_MULTIPLE), else returns SHOAL_ERR_INVALID_ARG at once. */
shoal_status_t shoal_lock_set(int seg, size_t off, int may_wait, const char *routine);

/* Takes the lock only when no PE holds it or waits for it: 0 when taken, else 1. */
int shoal_lock_test(int seg, size_t off, const char *routine);

/* Completes this PE's stores (quiet on the default context), then hands the lock to
 * the PE that asked next, or frees it. SHOAL_ERR_NOT_FOUND, changing nothing, when
 * this PE does not hold the lock. */
shoal_status_t shoal_lock_clear(int seg, size_t off, const char *routine);

/* For hang reports: the PE that holds the lock at (seg, off) as the queue shows it
 * now, or -1; *ahead_out, the PE just ahead of this one (-1: none has linked). */
int shoal_lock_queue(int seg, size_t off, int *ahead_out);

#endif
