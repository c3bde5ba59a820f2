/* Hang reports: a wait that lasts says what it waits for, in one line from the
 * PE that waits (SHOAL_HANG_REPORT seconds, then at each doubling of the wait;
 * and at once when the launcher asks by SIGUSR2, as oshrun --timeout does).
 * The wait loops make one call a turn, after the back-off (never before the first
 * test); off, it costs a test of the turn count, and every SHOAL_HANG_EVERY turns
 * one load and compare. It never ends, shortens or changes a wait. */
#ifndef SHOAL_HANG_H
#define SHOAL_HANG_H

#include <stddef.h>
#include <stdint.h>

#include "shoal_coll.h"
#include "shoal_wait.h"

/* Turns of a wait loop between two looks at the clock while reports are on: few
 * enough that a collective asleep on its futex (2 ms a turn) looks every 32 ms,
 * and that a loop of yields on a loaded machine (4 PEs over UCX in the parallel
 * test suite: 64 turns took over a second) answers oshrun's SIGUSR2 in time. */
#define SHOAL_HANG_EVERY 16

/* Non-zero once SHOAL_HANG_REPORT is set or a report has been asked for. */
extern int shoal_hang_armed;

/* init.c: after the settings are read; installs the SIGUSR2 handler only where
 * the program has left that signal at its default. cleanup restores it. */
void shoal_hang_setup(size_t seconds);
void shoal_hang_cleanup(void);

/* The loops' calls, with their spin count (it starts at 0 and counts every turn):
 * a point-to-point wait (shoal_core_sync) on set; a collective's token wait on ps
 * for set index from (-1: any member); a lock at (seg, off) that this PE waits to
 * get (acquire) or, in a clear, for the PE behind it to link. */
void shoal_hang_wait_look(unsigned spins, const shoal_wait_set_t *set, int sel,
                          const char *routine);
void shoal_hang_coll_look(unsigned spins, const shoal_pset_t *ps, int from, const char *routine);
void shoal_hang_lock_look(unsigned spins, int seg, size_t off, int acquire, const char *routine);

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

static inline void shoal_hang_coll_turn(unsigned spins, const shoal_pset_t *ps, int from,
                                        const char *routine)
{
    if (shoal_hang_due(spins))
        shoal_hang_coll_look(spins, ps, from, routine);
}

static inline void shoal_hang_lock_turn(unsigned spins, int seg, size_t off, int acquire,
                                        const char *routine)
{
    if (shoal_hang_due(spins))
        shoal_hang_lock_look(spins, seg, off, acquire, routine);
}

/* For the reporters: size (4 or 8) bytes at (seg, off) of world PE pe, by a load
 * where it is mapped here, else by a get with the log muted that waits a second at
 * most (shoal_peer_read). SHOAL_OK when read, else why not. */
shoal_status_t shoal_hang_peek(int pe, int seg, size_t off, size_t size, uint64_t *out);

/* team.c: a team was made on ps's slot: this PE's count of the collectives it
 * entered there (shoal_coll_enter) starts again from 0. */
void shoal_hang_team_made(const shoal_pset_t *ps);

#endif
