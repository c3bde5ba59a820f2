/* What the collectives' files (coll_*.c) share and no other file needs: the
 * algorithms' counters, tokens, the flat gather and release, copies by the direct
 * path. Callers of the collectives include shoal_coll.h, never this.
 * Collectives on a PE set, in bytes. Synchronisation is by counters: a sender
 * adds one to a counter of the receiver, which waits for it to be non-zero and
 * takes one back. Counters return to zero, so a team slot can be reused and a
 * pSync is left as the user gave it. No PE leaves while another may still read
 * its buffers or counters: a collective's last hand-off is a barrier (in the flat
 * forms, the root's release once its part is done). The staged broadcast is the
 * exception: its root returns as soon as it has staged, and reads how far its
 * readers have got before it reuses a slot or its team goes
 * (shoal_coll_stage_drain).
 * Data moves by pulls (broadcast, reductions: the source is read where it is)
 * or pushes into the destination, which the spec requires to be ready. */
#ifndef SHOAL_COLL_IMPL_H
#define SHOAL_COLL_IMPL_H

#include "shoal_coll.h"
#include "shoal_copy.h"
#include "shoal_core.h"

#include <string.h>

/* The algorithms' counters: index SHOAL_SYNC_ALGO + n of a team's flags, after
 * the barrier's. Rounds of the binomial tree and of recursive doubling take one
 * each from 0 (a round per bit of a PE index, so up to 2^ALGO_ROUNDS PEs); the
 * rest one each. FLAT_RELEASE and RD_RESULT share a counter on purpose: each is
 * sent to a PE only once that PE is inside the collective that takes it (a
 * release after it arrived, a result after it folded in), and taken before that
 * collective returns, so no token of one is ever pending when the other waits. */
enum {
    ALGO_ROUNDS = 27,    /* shmem_init refuses jobs of more than SHOAL_COLL_MAX_PES; 27 is free */
    ALGO_LEFT = 28,      /* world team only: why this PE left (LEFT_*), 0 while it runs */
    ALGO_RD_DONE = 29,   /* recursive doubling: done reading the partner */
    ALGO_RD_FOLD = 30,   /* recursive doubling: a PE beyond the power of two folded in */
    ALGO_RD_RESULT = 31, /* recursive doubling: the result for a folded PE */
    ALGO_FLAT_RELEASE = 31,
    ALGO_COUNT = 32
};
_Static_assert(SHOAL_SYNC_ALGO + ALGO_COUNT <= SHOAL_SYNC_FLAGS,
               "the algorithms' counters run past a team's flags");
_Static_assert(ALGO_RD_DONE >= ALGO_ROUNDS && ALGO_RD_FOLD >= ALGO_ROUNDS &&
                   ALGO_RD_RESULT >= ALGO_ROUNDS && ALGO_FLAT_RELEASE >= ALGO_ROUNDS,
               "a named counter overlaps the rounds' counters");
_Static_assert(ALGO_LEFT >= ALGO_ROUNDS && ALGO_LEFT != ALGO_RD_DONE && ALGO_LEFT != ALGO_RD_FOLD &&
                   ALGO_LEFT != ALGO_RD_RESULT && ALGO_LEFT != ALGO_FLAT_RELEASE,
               "the left mark shares no counter");
_Static_assert(ALGO_RD_DONE != ALGO_RD_FOLD && ALGO_RD_FOLD != ALGO_RD_RESULT,
               "only FLAT_RELEASE and RD_RESULT may share a counter");
_Static_assert(ALGO_ROUNDS <= 30, "a round's bit must fit an int");
_Static_assert(SHOAL_COLL_MAX_PES == 1 << ALGO_ROUNDS, "one counter per round");

static inline void *shoal_coll_local(int seg, size_t off)
{
    return shoal_core_state.seg[seg].base + off;
}

/* How many collectives this PE has entered on a team: a hang report (hang.c,
 * told by coll_token.c's hang_look)
 * names the members whose count is below its own. Barriers, broadcasts and
 * reductions count at entry (one inside another too, alike on every PE); the
 * other collectives wait first in a barrier of their own. The word after the
 * ALGO_LEFT counter, on that counter's line, which only this PE writes; made 0
 * with the team (shoal_coll_entered_reset). Not for active sets: a pSync has no room,
 * and is the user's. Cost: a compare and a local add. */
static inline size_t shoal_coll_entered_off(const shoal_pset_t *ps)
{
    return shoal_pset_flag(ps, SHOAL_SYNC_ALGO + ALGO_LEFT) + sizeof(uint64_t);
}

static inline void shoal_coll_enter(const shoal_pset_t *ps)
{
    uint64_t *n;

    if (ps->stage_sent == NULL)
        return;
    n = (uint64_t *)shoal_coll_local(ps->sync_seg, shoal_coll_entered_off(ps));
    __atomic_store_n(n, *n + 1, __ATOMIC_RELAXED); /* read by others' reports */
}

/* team.c: a team was made on ps's slot: this PE's count of the collectives it
 * entered there (shoal_coll_enter) starts again from 0. */
static inline void shoal_coll_entered_reset(const shoal_pset_t *ps)
{
    __atomic_store_n((uint64_t *)shoal_coll_local(ps->sync_seg, shoal_coll_entered_off(ps)), 0,
                     __ATOMIC_RELAXED);
}

/* Flat collectives (coll_barrier.c) serve sets of up to FLAT_MAX PEs, all on
 * this node. */
#define FLAT_MAX 32

static inline int shoal_coll_flat_fits(int n)
{
    return shoal_core_state.one_node && n <= FLAT_MAX;
}

/* The most tokens a counter can hold while a collective waits on it. A member
 * sends a given counter at most one token per synchronising step, and is at most
 * one step ahead of the PE that takes them: it cannot leave a barrier, or a flat
 * gather and release, before every member has entered it. So one per member
 * for two steps in a row. The staged broadcast does not wait, but its counters
 * are its own: a root runs at most SHOAL_STAGE_SLOTS_MAX calls ahead of a reader,
 * so a reader's staged counter holds at most that many tokens.
 * More means something else wrote the counter (shoal_coll_counter_bad). */
static inline uint64_t shoal_coll_tokens_max(const shoal_pset_t *ps)
{
    return 2 * (uint64_t)ps->size + SHOAL_STAGE_SLOTS_MAX;
}

/* coll_token.c: a token to set index to, or taken from set index from (-1: any
 * member), on the counter at byte offset off (counter_*) or on the set's counter
 * number flag (token_*). flag_amo: op on the counter at off of world PE pe. */
void shoal_coll_flag_amo(const shoal_pset_t *ps, int pe, size_t off, shoal_amo_op_t op,
                         const uint64_t *operand, uint64_t *fetch, const char *routine);
void shoal_coll_counter_send(const shoal_pset_t *ps, int to, size_t off, const char *routine);
void shoal_coll_counter_take(const shoal_pset_t *ps, int from, size_t off, const char *routine);
/* counter_take in two halves: await waits for a token (and checks the count),
 * consume takes it, so a sender that reads the counter sees the token until the
 * taker has done what it waited for (the staged broadcast's readers). */
void shoal_coll_counter_await(const shoal_pset_t *ps, int from, size_t off, const char *routine);
void shoal_coll_counter_consume(const shoal_pset_t *ps, size_t off, const char *routine);
/* What a collective waits for: fn(arg), non-zero once it is there. */
typedef struct shoal_coll_ready {
    uint64_t (*fn)(void *arg);
    void *arg;
} shoal_coll_ready_t;
/* The wait under every take (coll_token.c): progress, yields, the checks for a
 * member that left and, with sleep (a counter of this PE that CPU atomics
 * fill), futex sleeps. Returns fn's non-zero value. */
uint64_t shoal_coll_wait(const shoal_pset_t *ps, int from, const shoal_coll_ready_t *ready,
                         uint64_t *sleep, const char *routine);
void shoal_coll_token_send(const shoal_pset_t *ps, int to, int flag, const char *routine);
void shoal_coll_token_take(const shoal_pset_t *ps, int from, int flag, const char *routine);
/* Ends the job: the counter at off of world PE pe holds value, which no run of
 * the collectives leaves there (a garbage pSync, a stray write into a team slot). */
void shoal_coll_counter_bad(const shoal_pset_t *ps, int pe, size_t off, uint64_t value,
                            const char *routine) __attribute__((noreturn));

/* coll_barrier.c */
int shoal_coll_flat_gather(const shoal_pset_t *ps, int root, const char *routine);
void shoal_coll_flat_release(const shoal_pset_t *ps, const char *routine);
/* A flat step where one PE does the work for all: returns 1 on the PE that holds
 * every other one and must do the work, then call shoal_coll_flat_leave; the
 * others return 0 once it has. By count where that applies (the last PE to
 * arrive does the work: no PE waits for one that has no core), else by a gather
 * at root. */
int shoal_coll_flat_enter(const shoal_pset_t *ps, int root, const char *routine);
void shoal_coll_flat_leave(const shoal_pset_t *ps, const char *routine);

/* Copies to and from set index i's segments: the direct path where it reaches. */
static inline void shoal_coll_put(const shoal_pset_t *ps, int i, int seg, size_t off,
                                  const void *src, size_t bytes, const char *routine)
{
    int pe = shoal_pset_pe(ps, i);
    char *to = shoal_core_direct(shoal_coll_local(seg, off), bytes, pe);

    if (to != NULL)
        memcpy(to, src, bytes);
    else
        shoal_core_put(&shoal_ctx_default, pe, seg, off, src, bytes, 0, routine);
}

/* Whether a collective that writes total bytes on all its PEs together copies
 * with streaming stores (SHOAL_COLL_STREAM): past the last-level cache, cached
 * stores read every destination line from memory first and evict the data the
 * other PEs are about to copy. */
static inline int shoal_coll_streams(size_t total)
{
    size_t from = shoal_core_state.settings.coll_stream;

    return from != 0 && total >= from;
}

/* A put into index i's dest that a later barrier completes (non-blocking where it
 * goes by UCX); where the dest is mapped, a copy, with streaming stores when
 * stream is set. */
static inline void shoal_coll_push(const shoal_pset_t *ps, int i, int seg, size_t off,
                                   const void *src, size_t bytes, int stream, const char *routine)
{
    int pe = shoal_pset_pe(ps, i);
    char *to = shoal_core_direct(shoal_coll_local(seg, off), bytes, pe);

    if (to == NULL)
        shoal_core_put(&shoal_ctx_default, pe, seg, off, src, bytes, 1, routine);
    else if (stream)
        shoal_copy_stream(to, src, bytes);
    else
        memcpy(to, src, bytes);
}

/* Counter of a team member's staging hand-offs at each other member: the staged
 * broadcast's on one node. Only that member adds to it. */
static inline size_t shoal_coll_stage_counter(const shoal_pset_t *ps, int member)
{
    return ps->stage_off + (size_t)member * ps->sync_stride;
}

/* Regions (coll_bcast.c): on a team that is not flat, and so never stages, each
 * member owns a region of every other member's staging area, the same size for
 * all and a multiple of a cache line. A member pushes its data, numbered and
 * hashed (shoal_coll_slot_put: no token), into a slot of its region at each
 * other member; each takes it into its dest and acknowledges it in a word at
 * the pusher. One one-way trip a hand-off, the receiver's dest is written only
 * in its own call, and a pusher that pushes again (a broadcast from a fixed
 * root, back to back) waits for the push before last, not the last. The small
 * broadcast across nodes is built from these. */
static inline size_t shoal_coll_region_bytes(const shoal_pset_t *ps)
{
    return (SHOAL_STAGE_AREA / (size_t)ps->size) & ~(size_t)63;
}

static inline size_t shoal_coll_region_off(const shoal_pset_t *ps, int owner)
{
    return ps->stage_off + SHOAL_STAGE_ROOTS * ps->sync_stride +
           (size_t)owner * shoal_coll_region_bytes(ps);
}

/* A region is two slots: the owner's push number k (from 1) to a member goes into
 * slot k % 2 of its region there, so the owner may push again before the member
 * has taken its last push; it waits only until the member has taken push k - 2,
 * from the same slot. */
static inline size_t shoal_coll_region_slot_bytes(const shoal_pset_t *ps)
{
    return (shoal_coll_region_bytes(ps) / 2) & ~(size_t)63;
}

static inline size_t shoal_coll_region_slot_off(const shoal_pset_t *ps, int owner, unsigned number)
{
    return shoal_coll_region_off(ps, owner) +
           (size_t)(number & 1) * shoal_coll_region_slot_bytes(ps);
}

/* How many of owner's pushes member reader has taken: a word of the owner's own
 * region at the owner, which nobody pushes into (an owner pushes only to others),
 * that the reader adds one to after each take. */
static inline size_t shoal_coll_region_ack_off(const shoal_pset_t *ps, int owner, int reader)
{
    return shoal_coll_region_off(ps, owner) + (size_t)reader * sizeof(uint64_t);
}
_Static_assert(SHOAL_STAGE_ROOTS * sizeof(uint64_t) <= SHOAL_STAGE_AREA / SHOAL_STAGE_ROOTS,
               "a region holds one acknowledgement word per member");

/* Bytes of the trailer after a region's or a slot's data, which is rounded up to
 * 8 bytes (coll_xchg.c). */
#define SHOAL_SLOT_TRAILER 16
/* A slot's bytes at most: an exchange slot of a team of 2 (a region slot is no
 * larger), the room a push is built in. */
#define SHOAL_SLOT_MAX (SHOAL_XCHG_BYTES / 4)

static inline int shoal_coll_regions_fit(const shoal_pset_t *ps, size_t bytes)
{
    return ps->stage_sent != NULL && !shoal_coll_flat_fits(ps->size) && ps->size > 1 &&
           ps->size <= SHOAL_STAGE_ROOTS &&
           ((bytes + 7) & ~(size_t)7) + SHOAL_SLOT_TRAILER <= shoal_coll_region_slot_bytes(ps) &&
           bytes <= shoal_core_state.settings.coll_small;
}

/* Exchanges (coll_xchg.c): where every member of a group pushes to every other
 * and takes from every other (the small reduction, fcollect and alltoall across
 * nodes, the leaders' partials), a member owns two slots of the exchange area
 * of every other member, after the staging area: exchange k goes into slot
 * k % 2. No answers: member j writes slot k % 2 at m again in exchange k + 2,
 * which it reaches only after taking m's push of exchange k + 1, which m made
 * after it had taken j's push of exchange k. No token either: the slot's
 * trailer carries the exchange's number and a hash (coll_xchg.c). Every member
 * of the group must count the same exchanges in the same order (a team's
 * collectives do). */
static inline size_t shoal_coll_xchg_bytes(const shoal_pset_t *ps)
{
    return (SHOAL_XCHG_BYTES / 2 / (size_t)ps->size) & ~(size_t)63;
}

static inline size_t shoal_coll_xchg_off(const shoal_pset_t *ps, int owner, unsigned turn)
{
    return ps->stage_off + SHOAL_STAGE_ROOTS * ps->sync_stride + SHOAL_STAGE_AREA +
           ((size_t)(turn & 1) * (size_t)ps->size + (size_t)owner) * shoal_coll_xchg_bytes(ps);
}

/* One push into the slot or region at off of member t, numbered number (from 1
 * up, per pusher and slot), and its take: the wait for that number and a data
 * hash that matches (coll_xchg.c). */
void shoal_coll_slot_put(const shoal_pset_t *ps, int t, size_t off, const void *src, size_t bytes,
                         uint64_t number, const char *routine);
void shoal_coll_slot_take(const shoal_pset_t *ps, int from, size_t off, void *dst, size_t bytes,
                          uint64_t number, const char *routine);
static inline int shoal_coll_xchg_fits(const shoal_pset_t *ps, size_t bytes)
{
    return shoal_coll_regions_fit(ps, bytes) &&
           ((bytes + 7) & ~(size_t)7) + SHOAL_SLOT_TRAILER <= shoal_coll_xchg_bytes(ps);
}

/* Pushes into this member's slot of the nto members to[] (to NULL: every other
 * member) for this PE's next exchange, whose number it returns: member t gets
 * the bytes at src + t * stride (stride 0: the same for all). */
unsigned shoal_coll_xchg_push(const shoal_pset_t *ps, const void *src, size_t stride, size_t bytes,
                              const int *to, int nto, const char *routine);
/* An exchange this PE takes no part in (a member that is not its node's leader,
 * in a reduction by node): counted all the same, so that every member of the
 * team names an exchange alike. */
static inline void shoal_coll_xchg_skip(const shoal_pset_t *ps)
{
    ++*ps->exchanges;
}
/* Takes member from's push of exchange turn into dst. */
void shoal_coll_xchg_take(const shoal_pset_t *ps, int from, unsigned turn, void *dst, size_t bytes,
                          const char *routine);

/* Pushes to the nto members to[] (to NULL: every other member). */
void shoal_coll_region_push(const shoal_pset_t *ps, const void *src, size_t bytes, const int *to,
                            int nto, const char *routine);
/* Takes member from's push into dst and acknowledges it. */
void shoal_coll_region_take(const shoal_pset_t *ps, int from, void *dst, size_t bytes,
                            const char *routine);

/* coll_hier.c: a team that spans nodes, grouped by node (shoal_hier_t), or NULL
 * where grouping gains nothing (one node, one member a node, an active set). */
const shoal_hier_t *shoal_coll_hier(const shoal_pset_t *ps, const char *routine);
/* Whether set index i runs on this PE's node. */
int shoal_coll_hier_on_node(const shoal_hier_t *h, int i);
/* Region push (shoal_coll_regions_fit) into every other node's leader. */
void shoal_coll_hier_push(const shoal_pset_t *ps, const shoal_hier_t *h, const void *src,
                          size_t bytes, const char *routine);
/* Exchange push (shoal_coll_xchg_fits) into every other node's leader; its number. */
unsigned shoal_coll_hier_exchange(const shoal_pset_t *ps, const shoal_hier_t *h, const void *src,
                                  size_t bytes, const char *routine);
/* A member's part where index head does the node's: arrive, wait for release. */
void shoal_coll_hier_arrive(const shoal_pset_t *ps, int head, const char *routine);
/* The head's: take the arrivals of the node's other members; then, once its part
 * is done, write bytes of data into each one's dest (dseg, doff) and release it. */
void shoal_coll_hier_gather(const shoal_pset_t *ps, const shoal_hier_t *h, const char *routine);
void shoal_coll_hier_release(const shoal_pset_t *ps, const shoal_hier_t *h, int dseg, size_t doff,
                             const void *data, size_t bytes, const char *routine);
void shoal_coll_hier_barrier(const shoal_pset_t *ps, const shoal_hier_t *h, const char *routine);

static inline void shoal_coll_get(const shoal_pset_t *ps, int i, int seg, size_t off, void *dst,
                                  size_t bytes, const char *routine)
{
    int pe = shoal_pset_pe(ps, i);
    const char *from = shoal_core_direct(shoal_coll_local(seg, off), bytes, pe);

    if (from != NULL)
        memcpy(dst, from, bytes);
    else
        shoal_core_get(&shoal_ctx_default, pe, seg, off, dst, bytes, 0, routine);
}

#endif
