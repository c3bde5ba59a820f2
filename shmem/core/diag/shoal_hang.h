/* Hang reports: a wait that lasts says what it waits for, in one line from the
 * PE that waits (SHOAL_HANG_REPORT seconds, then at each doubling of the wait;
 * and at once when the launcher asks by SIGUSR2, as oshrun --timeout does).
 * The wait loops make one call a turn, after the back-off (never before the first
 * test); off, it costs a test of the turn count, and every SHOAL_HANG_EVERY turns
 * one load and compare. It never ends, shortens or changes a wait. It is told what
 * it reports (the waiters describe what they wait on; what it reads of the PE is
 * handed in at setup), and includes nothing of the engine or the collectives. */
#ifndef SHOAL_HANG_H
#define SHOAL_HANG_H

#include <stddef.h>
#include <stdint.h>

#include "shoal_status.h"
#include "shoal_wait.h"

/* Turns of a wait loop between two looks at the clock while reports are on: few
 * enough that a collective asleep on its futex (2 ms a turn) looks every 32 ms,
 * and that a loop of yields on a loaded machine (4 PEs over UCX in the parallel
 * test suite: 64 turns took over a second) answers oshrun's SIGUSR2 in time. */
#define SHOAL_HANG_EVERY 16

/* Non-zero once SHOAL_HANG_REPORT is set or a report has been asked for. */
extern int shoal_hang_armed;

/* A look at another PE may take at most this long: a report must not hang on
 * the PE it reports on. */
#define SHOAL_HANG_PEEK_MS 1000

/* What the reporter reads of the PE it runs on, handed to it at setup: it includes
 * nothing of the engine. read: size (4 or 8) bytes at (seg, off) of world PE pe,
 * waiting limit_ms at most, with the log muted (shoal_peer_read); find: the
 * segment holding addr and its offset, or -1 (shoal_segment_find). */
typedef struct shoal_hang_env {
    shoal_status_t (*read)(int pe, int seg, size_t off, size_t size, unsigned limit_ms,
                           uint64_t *out);
    int (*find)(const void *addr, size_t *off_out);
} shoal_hang_env_t;

/* A group of PEs a collective waits on, as the collectives describe it to the
 * reporter (coll_token.c's hang_look): its name in a line, the members (member i is
 * world PE pes[i], or start + i * stride where pes is NULL) and this PE's index;
 * where counted is set, each member counts the collectives it has entered on the
 * group in the word at (seg, entered_off), this PE's count being entered. */
typedef struct shoal_hang_group {
    const char *name;
    int size, me;
    int start, stride;
    const int *pes;
    int counted;
    int seg;
    size_t entered_off;
    uint64_t entered;
} shoal_hang_group_t;

/* For a lock's line: the PE that holds the lock at (seg, off) as its queue shows
 * it now, or -1, and in *ahead_out the PE just ahead of this one (-1: none has
 * linked). The lock code hands it (shoal_lock_queue). */
typedef int (*shoal_hang_queue_cb_t)(int seg, size_t off, int *ahead_out);

/* init.c: after the settings are read; installs the SIGUSR2 handler only where
 * the program has left that signal at its default. env must outlive the run.
 * cleanup restores the handler. */
void shoal_hang_setup(size_t seconds, const shoal_hang_env_t *env);
void shoal_hang_cleanup(void);

/* The loops' calls, with their spin count (it starts at 0 and counts every turn):
 * a point-to-point wait (shoal_core_sync) on set; a collective's token wait on
 * group for member from (-1: any member); a lock at (seg, off) that this PE waits
 * to get (acquire: queue says who holds it) or, in a clear, for the PE behind it
 * to link. */
void shoal_hang_wait_look(unsigned spins, const shoal_wait_set_t *set, int sel,
                          const char *routine);
void shoal_hang_group_look(unsigned spins, const shoal_hang_group_t *group, int from,
                           const char *routine);
void shoal_hang_lock_look(unsigned spins, int seg, size_t off, int acquire,
                          shoal_hang_queue_cb_t queue, const char *routine);

static inline int shoal_hang_due(unsigned spins)
{
    return __builtin_expect(spins % SHOAL_HANG_EVERY == 0, 0) &&
           __builtin_expect(__atomic_load_n(&shoal_hang_armed, __ATOMIC_RELAXED), 0);
}

static inline void shoal_hang_wait_turn(unsigned spins, const shoal_wait_set_t *set, int sel,
                                        const char *routine)
{
    if (shoal_hang_due(spins))
        shoal_hang_wait_look(spins, set, sel, routine);
}

static inline void shoal_hang_lock_turn(unsigned spins, int seg, size_t off, int acquire,
                                        shoal_hang_queue_cb_t queue, const char *routine)
{
    if (shoal_hang_due(spins))
        shoal_hang_lock_look(spins, seg, off, acquire, queue, routine);
}

#endif
