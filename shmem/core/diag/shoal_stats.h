/* Run statistics (SHOAL_STATS): the program's RMA, AMOs and puts with signal by
 * path, time in waits and collectives, the heap's high-water mark; summed over
 * the PEs at shmem_finalize and printed by PE 0 (stats.c). The hooks sit on the
 * checked path only and cost one load and a branch when off; the direct path is
 * never counted: with stats on, init turns it off for the program's operations
 * (the engine's direct_pes), so every one of them reaches a hook. Told what it
 * counts (an operation's path, the heap's figures): it reads no engine state. */
#ifndef SHOAL_STATS_H
#define SHOAL_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "shoal_transport.h"

/* What is counted: operations (count and bytes, per path) and collectives
 * (calls and time). The enums' order is the printout's. */
enum { SHOAL_STATS_PUT, SHOAL_STATS_GET, SHOAL_STATS_AMO, SHOAL_STATS_SIGNAL, SHOAL_STATS_OPS };
enum {
    SHOAL_STATS_BARRIER, /* barrier_all, barrier, sync_all, sync, team_sync, and shmem_malloc's */
    SHOAL_STATS_BROADCAST,
    SHOAL_STATS_COLLECT,  /* collect and fcollect */
    SHOAL_STATS_ALLTOALL, /* alltoall and alltoalls */
    SHOAL_STATS_REDUCE,   /* reductions, scans, and the AND of shmem_team_split */
    SHOAL_STATS_CHECK,    /* argument matching: SHOAL_CHECK_COLL, and every team split */
    SHOAL_STATS_COLLS
};

/* SHOAL_STATS (1: the job's summary, 2: each PE's too) while counting, else 0. */
extern int shoal_stats_level;

static inline int shoal_stats_on(void)
{
    return __builtin_expect(__atomic_load_n(&shoal_stats_level, __ATOMIC_RELAXED) != 0, 0);
}

/* stats.c: what the inline hooks call when on. */
void shoal_stats_op_count(int kind, const shoal_transport_ops_t *ops, size_t bytes);
void shoal_stats_signal_count(const shoal_transport_ops_t *ops, size_t bytes);
void shoal_stats_release(void);
uint64_t shoal_stats_coll_start(void);
void shoal_stats_coll_count(int coll, uint64_t start);
uint64_t shoal_stats_wait_start(int block);
void shoal_stats_wait_count(uint64_t *since);

/* One operation of kind (PUT, GET, AMO) moving bytes through ops, the peer's path
 * for it: load/store, or UCX where ops sends messages. Inside a collective or a
 * put with signal, it is part of that and not counted on its own. */
static inline void shoal_stats_op(int kind, const shoal_transport_ops_t *ops, size_t bytes)
{
    if (shoal_stats_on())
        shoal_stats_op_count(kind, ops, bytes);
}

/* A put with signal of bytes through ops (the data's path), counted once: the put
 * and the AMO it is made of, until shoal_stats_signal_end, are not. The caller
 * looks its path up only when shoal_stats_on(). Returns what _end takes. */
static inline int shoal_stats_signal_begin(const shoal_transport_ops_t *ops, size_t bytes)
{
    shoal_stats_signal_count(ops, bytes);
    return 1;
}

static inline void shoal_stats_signal_end(int begun)
{
    if (begun)
        shoal_stats_release();
}

/* Around a collective's entry point: its time, when it is the outermost one (a
 * broadcast's barrier is the broadcast's), and none of the operations it makes.
 * begin returns 0 when off, else what _end needs. */
static inline uint64_t shoal_stats_coll_begin(void)
{
    return shoal_stats_on() ? shoal_stats_coll_start() : 0;
}

static inline void shoal_stats_coll_end(int coll, uint64_t begun)
{
    if (begun != 0)
        shoal_stats_coll_count(coll, begun);
}

/* Wait loops (wait.c): begin counts a wait (block) or a test call and returns the
 * clock for a wait (0 when off, or for a test); each turn of a loop, after its
 * back-off, adds the time since and moves the clock on. */
static inline uint64_t shoal_stats_wait_begin(int block)
{
    return shoal_stats_on() ? shoal_stats_wait_start(block) : 0;
}

static inline void shoal_stats_wait_turn(uint64_t *since)
{
    if (*since != 0)
        shoal_stats_wait_count(since);
}

/* init.c: setup at the end of shmem_init (counting starts, at SHOAL_STATS level,
 * with heap_in_use bytes of the heap in use: the library's own); at shmem_finalize, publish
 * before the launcher's fence (counting stops; this PE's number and its heap's
 * high-water mark and size), report after it (PE 0 of n_pes fetches every PE's
 * sums and prints). Told what they count: they read no engine state. */
void shoal_stats_setup(int level, size_t heap_in_use);
void shoal_stats_publish(int my_pe, size_t heap_high, size_t heap_size);
void shoal_stats_report(int my_pe, int n_pes);

#endif
