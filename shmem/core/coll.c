/* Collectives on a PE set, in bytes. Synchronisation is by counters: a sender
 * adds one to a counter of the receiver, which waits for it to be non-zero and
 * takes one back. Counters return to zero, so a team slot can be reused and a
 * pSync is left as the user gave it. Every collective ends with a barrier: no
 * PE leaves while another may still read its buffers or counters.
 * Data moves by pulls (broadcast, reductions: the source is read where it is)
 * or pushes into the destination, which the spec requires to be ready. */
#include "shoal_core.h"
#include "shoal_status.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The algorithms' counters: index SHOAL_SYNC_ALGO + n of a team's flags, after
 * the barrier's. Rounds of the binomial tree and of recursive doubling take one
 * each from 0 (a round per bit of a PE index, so up to 2^ALGO_ROUNDS PEs); the
 * rest one each. FLAT_RELEASE and RD_RESULT share a counter on purpose: each is
 * sent to a PE only once that PE is inside the collective that takes it (a
 * release after it arrived, a result after it folded in), and taken before that
 * collective returns, so no token of one is ever pending when the other waits. */
enum {
    ALGO_ROUNDS = 27, /* shmem_init refuses jobs of more than SHOAL_COLL_MAX_PES */
    ALGO_STAGE_DONE = 27, /* staged broadcast: readers done with the root's staging area */
    ALGO_LEFT = 28,       /* world team only: why this PE left (LEFT_*), 0 while it runs */
    ALGO_RD_DONE = 29,    /* recursive doubling: done reading the partner */
    ALGO_RD_FOLD = 30,    /* recursive doubling: a PE beyond the power of two folded in */
    ALGO_RD_RESULT = 31,  /* recursive doubling: the result for a folded PE */
    ALGO_FLAT_RELEASE = 31,
    ALGO_COUNT = 32
};
_Static_assert(SHOAL_SYNC_ALGO + ALGO_COUNT <= SHOAL_SYNC_FLAGS,
               "the algorithms' counters run past a team's flags");
_Static_assert(ALGO_STAGE_DONE >= ALGO_ROUNDS && ALGO_RD_DONE >= ALGO_ROUNDS &&
                   ALGO_RD_FOLD >= ALGO_ROUNDS && ALGO_RD_RESULT >= ALGO_ROUNDS &&
                   ALGO_FLAT_RELEASE >= ALGO_ROUNDS,
               "a named counter overlaps the rounds' counters");
_Static_assert(ALGO_LEFT >= ALGO_ROUNDS && ALGO_LEFT != ALGO_STAGE_DONE &&
                   ALGO_LEFT != ALGO_RD_DONE && ALGO_LEFT != ALGO_RD_FOLD &&
                   ALGO_LEFT != ALGO_RD_RESULT && ALGO_LEFT != ALGO_FLAT_RELEASE,
               "the left mark shares no counter");
_Static_assert(ALGO_STAGE_DONE != ALGO_RD_DONE && ALGO_RD_DONE != ALGO_RD_FOLD &&
                   ALGO_RD_FOLD != ALGO_RD_RESULT && ALGO_STAGE_DONE != ALGO_FLAT_RELEASE,
               "only FLAT_RELEASE and RD_RESULT may share a counter");
_Static_assert(ALGO_ROUNDS <= 30, "a round's bit must fit an int");
_Static_assert(SHOAL_COLL_MAX_PES == 1 << ALGO_ROUNDS, "one counter per round");

static const uint64_t one = 1, minus_one = (uint64_t)-1;

static void *local(int seg, size_t off)
{
    return shoal_g.seg[seg].base + off;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* op on the counter at off of world PE pe: one CPU atomic where the direct path
 * reaches it, else through the core. */
static void flag_amo(const shoal_pset_t *ps, int pe, size_t off, shoal_amo_op_t op,
                     const uint64_t *operand, uint64_t *fetch, const char *routine)
{
    char *p = shoal_g.direct_amo ? shoal_core_direct(local(ps->sync_seg, off), 8, pe) : NULL;

    if (p != NULL)
        shoal_shm_amo_at(p, op, sizeof(uint64_t), operand, NULL, fetch);
    else
        shoal_core_amo(&shoal_ctx_default, pe, ps->sync_seg, off, op, sizeof(uint64_t), operand,
                       NULL, fetch, 0, routine);
}

/* Tokens (shoal_shm.h: a sender adds one to a counter of the receiver, which
 * waits for it to be non-zero and takes one back). On a node with more PEs than
 * cores the waiter yields, and after SLEEP_AFTER_S of yielding sleeps until the
 * sender wakes it: a yield does not always give the core away (the scheduler may
 * find the PE we wait for not yet due, and keep us spinning for a whole time
 * slice), and a sleep does, but waking a sleeper costs tens of microseconds here. */
#define SLEEP_AFTER_S 1e-3 /* 64 KiB alltoalls on 8 PEs wait hundreds of us in a
                              * healthy run: sleeping then made them slower */
#define SLEEP_MAX_NS 2000000L /* bounds the cost of a wake-up that cannot come */

/* One token to the counter at off of index to. */
static void counter_send(const shoal_pset_t *ps, int to, size_t off, const char *routine)
{
    int pe = shoal_pset_pe(ps, to);
    uint64_t *p = NULL;

    if (shoal_g.sleep_waits)
        p = (uint64_t *)shoal_core_direct(local(ps->sync_seg, off), 8, pe);
    if (p == NULL)
        flag_amo(ps, pe, off, SHOAL_AMO_ADD, &one, NULL, routine);
    else
        shoal_shm_token_send(p);
}

/* Sleeps on this PE's counter p (sleep_waits is set), when the sender (world PE
 * pe) would wake it: its token goes by CPU atomic. */
static void counter_sleep(uint64_t *p, int pe)
{
    if (shoal_core_direct(p, 8, pe) == NULL)
        sched_yield();
    else
        shoal_shm_token_sleep(p, SLEEP_MAX_NS);
}

/* Why a PE left, in its world team's ALGO_LEFT counter: set after a quiet, so
 * that every token it sent before is visible wherever its mark is. */
#define LEFT_COUNTER (SHOAL_SYNC_ALGO + ALGO_LEFT)
enum { LEFT_NOT = 0, LEFT_FINALIZE = 1, LEFT_EXIT = 2 };

void shoal_coll_mark_left(int by_exit)
{
    const shoal_pset_t *w = &shoal_team_world.pset;

    __atomic_store_n((uint64_t *)local(w->sync_seg, shoal_pset_flag(w, LEFT_COUNTER)),
                     by_exit ? LEFT_EXIT : LEFT_FINALIZE, __ATOMIC_SEQ_CST);
}

/* World PE pe's mark: a load where it is mapped; else, when remote is set, a get
 * (its UCX progress thread answers while it waits in shmem_finalize). A get that
 * fails (the job is ending, that PE is dead) says nothing: LEFT_NOT. */
static uint64_t left_mark(int pe, int remote)
{
    const shoal_pset_t *w = &shoal_team_world.pset;
    size_t off = shoal_pset_flag(w, LEFT_COUNTER);
    const uint64_t *at = (const uint64_t *)shoal_core_direct(local(w->sync_seg, off), 8, pe);
    const shoal_transport_ops_t *ops;
    uint64_t mark = LEFT_NOT;
    void *st;

    if (at != NULL) {
        shoal_shm_amo_at((void *)at, SHOAL_AMO_FETCH, sizeof(mark), NULL, NULL, &mark);
        return mark;
    }
    if (!remote)
        return LEFT_NOT;
    shoal_log_mute(1);
    ops = shoal_path(&shoal_ctx_default, pe, 0, &st);
    if (ops->get(st, w->sync_seg, off, &mark, 8) != SHOAL_OK)
        mark = LEFT_NOT;
    shoal_log_mute(0);
    return mark;
}

/* A collective that waits on a member (set index from, -1: any) that has gone
 * to shmem_finalize or exit can never end: say so. A member seen gone at two
 * looks a second apart while the token is still missing is the culprit (with
 * from -1, one seen gone once may have finished this collective and left while
 * the PE that releases this one was descheduled). The token is looked at after
 * the mark: a member sends its last tokens before it leaves. Returns the world
 * PE seen gone this time, or -1; suspect is the one seen at the previous look. */
static int check_left(const shoal_pset_t *ps, int from, const uint64_t *p, int suspect,
                      int remote, const char *routine)
{
    int i, last = from >= 0 ? from : ps->size - 1;

    for (i = from >= 0 ? from : 0; i <= last; i++) {
        int pe = shoal_pset_pe(ps, i);
        uint64_t mark = i == ps->me ? LEFT_NOT : left_mark(pe, remote);

        if (mark == LEFT_NOT || shoal_shm_token_count(p) != 0)
            continue;
        if (pe != suspect)
            return pe;
        shoal_fatal("%s: PE %d %s, so it cannot join this collective, which waits for it; "
                    "every PE must call the same collectives before shmem_finalize",
                    routine, pe,
                    mark == LEFT_EXIT ? "exited without calling shmem_finalize"
                                      : "called shmem_finalize");
    }
    return -1;
}

/* Waits for a token on this PE's counter at off, from set index from (-1: any
 * member). A member that left (check_left) ends the job; with SHOAL_CHECK_COLL
 * a wait that lasts too long is a collective that some PE never joined: say so
 * instead of hanging. */
static void counter_take(const shoal_pset_t *ps, int from, size_t off, const char *routine)
{
    uint64_t *p = local(ps->sync_seg, off), old;
    int pe = shoal_pset_pe(ps, from >= 0 ? from : (ps->me + 1) % ps->size);
    double start = 0, yield_start = 0, left_checked = 0, first_look = 0;
    int suspect = -1;
    unsigned spins = 0;

    while (shoal_shm_token_count(p) == 0) {
        if (shoal_g.sleep_waits && spins > 0 && yield_start == 0)
            yield_start = now_s();
        if (yield_start != 0 && now_s() - yield_start > SLEEP_AFTER_S) {
            counter_sleep(p, pe); /* sleep_waits: no UCX to progress */
            spins++;
        } else {
            shoal_core_backoff(&spins);
        }
        if ((spins & 1023) != 0)
            continue;
        /* Marks of PEs on this node after a second; of the others, by a get, only
         * after three: a job that ends for another reason is gone by then, and
         * gets to its dead PEs would only add noise. */
        if (left_checked == 0) {
            left_checked = first_look = now_s();
        } else if (now_s() - left_checked >= 1.0) {
            suspect = check_left(ps, from, p, suspect, now_s() - first_look >= 3.0, routine);
            left_checked = now_s();
        }
        if (!shoal_g.settings.check_coll)
            continue;
        if (start == 0)
            start = now_s();
        else if (now_s() - start > (double)shoal_g.settings.check_coll_s && from < 0)
            shoal_fatal("%s: waited %zu s for the PEs of this team of %d PEs to finish the "
                        "previous broadcast from PE %d; every PE of the team must call the "
                        "same collectives in the same order",
                        routine, shoal_g.settings.check_coll_s, ps->size, shoal_g.my_pe);
        else if (now_s() - start > (double)shoal_g.settings.check_coll_s)
            shoal_fatal("%s: waited %zu s for PE %d (index %d of this team or active set of %d "
                        "PEs) to join; every PE of the team must call the same collectives in "
                        "the same order",
                        routine, shoal_g.settings.check_coll_s, pe, from, ps->size);
    }
    /* Fetching, so the take is done before the next look at the counter. */
    flag_amo(ps, shoal_g.my_pe, off, SHOAL_AMO_ADD, &minus_one, &old, routine);
}

static void token_send(const shoal_pset_t *ps, int to, int flag, const char *routine)
{
    counter_send(ps, to, shoal_pset_flag(ps, flag), routine);
}

static void token_take(const shoal_pset_t *ps, int from, int flag, const char *routine)
{
    counter_take(ps, from, shoal_pset_flag(ps, flag), routine);
}

/* Copies to and from set index i's segments: the direct path where it reaches. */
static void coll_put(const shoal_pset_t *ps, int i, int seg, size_t off, const void *src,
                     size_t bytes, const char *routine)
{
    int pe = shoal_pset_pe(ps, i);
    char *to = shoal_core_direct(local(seg, off), bytes, pe);

    if (to != NULL)
        memcpy(to, src, bytes);
    else
        shoal_core_put(&shoal_ctx_default, pe, seg, off, src, bytes, 0, routine);
}

static void coll_get(const shoal_pset_t *ps, int i, int seg, size_t off, void *dst,
                     size_t bytes, const char *routine)
{
    int pe = shoal_pset_pe(ps, i);
    const char *from = shoal_core_direct(local(seg, off), bytes, pe);

    if (from != NULL)
        memcpy(dst, from, bytes);
    else
        shoal_core_get(&shoal_ctx_default, pe, seg, off, dst, bytes, 0, routine);
}

/* Flat collectives, for sets of up to FLAT_MAX PEs all on this node: every index
 * but the root signals the root on counter (its index) and waits on its release
 * counter; the root takes every arrival, does its part (nothing, for a barrier),
 * then releases each. A PE runs twice per collective, where dissemination needs
 * log2(n) rounds in step: on a node with more PEs than cores, each round may wait
 * for a PE to get a core back. Every token is taken before the root releases, so
 * nothing is left on any counter when a PE moves on. */
#define FLAT_MAX 32
#define FLAT_RELEASE (SHOAL_SYNC_ALGO + ALGO_FLAT_RELEASE)

static int flat_fits(int n)
{
    return shoal_g.one_node && n <= FLAT_MAX;
}

/* Non-root: arrive, wait for the release. Returns whether this PE is the root,
 * which then holds every arrival and must call flat_release. */
static int flat_gather(const shoal_pset_t *ps, int root, const char *routine)
{
    int i;

    if (ps->me != root) {
        token_send(ps, root, ps->me, routine);
        token_take(ps, root, FLAT_RELEASE, routine);
        return 0;
    }
    for (i = 0; i < ps->size; i++)
        if (i != root)
            token_take(ps, i, i, routine);
    return 1;
}

static void flat_release(const shoal_pset_t *ps, const char *routine)
{
    int i;

    /* What the root wrote through UCX (a dest it does not map) lands before the
     * release, which may go by a CPU atomic: nothing orders the two paths else. */
    shoal_core_quiet(&shoal_ctx_default);

    for (i = 0; i < ps->size; i++)
        if (i != ps->me)
            token_send(ps, i, FLAT_RELEASE, routine);
}

/* A barrier on one node: every PE adds one to index 0's counter 0, and the PE that
 * brings it to n resets it and releases every other PE. No PE waits for one
 * particular PE to get a core back, as a gather at a root would. */
static void barrier_count(const shoal_pset_t *ps, const char *routine)
{
    size_t off = shoal_pset_flag(ps, 0);
    int pe0 = shoal_pset_pe(ps, 0);
    uint64_t old, zero = 0;

    flag_amo(ps, pe0, off, SHOAL_AMO_ADD, &one, &old, routine);
    if (old + 1 < (uint64_t)ps->size) {
        token_take(ps, -1, FLAT_RELEASE, routine); /* from the last to arrive */
        return;
    }
    flag_amo(ps, pe0, off, SHOAL_AMO_SET, &zero, NULL, routine);
    flat_release(ps, routine);
}

/* The barrier: on one node, by count (or, with SHOAL_CHECK_COLL, by a gather that
 * can name a PE that never comes); else dissemination (in round k, signal index
 * me+2^k and wait for me-2^k). */
void shoal_coll_barrier(const shoal_pset_t *ps, int complete_puts, const char *routine)
{
    int n = ps->size, me = ps->me, k, d;

    if (complete_puts)
        shoal_core_quiet_all();
    if (n > 2 && flat_fits(n) && !shoal_g.settings.check_coll) {
        barrier_count(ps, routine);
        return;
    }
    if (n > 2 && flat_fits(n)) {
        if (flat_gather(ps, 0, routine))
            flat_release(ps, routine);
        return;
    }
    for (k = 0, d = 1; d < n; k++, d <<= 1) {
        token_send(ps, (me + d) % n, k, routine);
        token_take(ps, (me - d + n) % n, k, routine);
    }
}

static int bcast_algo(size_t bytes, int n)
{
    int algo = shoal_g.settings.bcast_algo;

    if (algo == SHOAL_ALGO_FLAT && !flat_fits(n))
        algo = SHOAL_ALGO_AUTO;
    if (algo != SHOAL_ALGO_AUTO)
        return algo;
    if (bytes <= shoal_g.settings.coll_small)
        return flat_fits(n) ? SHOAL_ALGO_FLAT : SHOAL_ALGO_DIRECT;
    /* On one node every PE reading the root at once beats the tree's rounds
     * (64 KiB on 8 PEs, 2 cores: 27-52 us against 67-90). */
    return n > 4 && !flat_fits(n) ? SHOAL_ALGO_TREE : SHOAL_ALGO_DIRECT;
}

/* Staged broadcast (a team on one node, small data): the root copies its source
 * into its staging area, gives each reader a token on the staged counter of its
 * index, and returns; each reader takes it, copies the staging area into its own
 * dest, and gives the root a token back on STAGE_DONE. The root takes those
 * only before it stages again (or when the team goes), so it never waits for
 * readers to arrive, and nothing is written into a dest outside its PE's own
 * call. A staged counter has one sender, the root of its index, so a reader
 * takes the tokens of one root in the order that root sent them. */
#define STAGE_DONE (SHOAL_SYNC_ALGO + ALGO_STAGE_DONE)

static size_t stage_counter(const shoal_pset_t *ps, int root)
{
    return ps->stage_off + (size_t)root * ps->sync_stride;
}

void shoal_coll_stage_drain(const shoal_pset_t *ps, const char *routine)
{
    for (; *ps->stage_pending > 0; --*ps->stage_pending)
        token_take(ps, -1, STAGE_DONE, routine);
}

static void bcast_staged(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                         size_t bytes, int root, const char *routine)
{
    size_t stage = ps->stage_off + SHOAL_STAGE_ROOTS * ps->sync_stride;
    int n = ps->size, i;

    if (ps->me == root && n == 1)
        return; /* root_too has done it all */
    if (ps->me == root) {
        shoal_coll_stage_drain(ps, routine);
        memcpy(local(ps->sync_seg, stage), local(sseg, soff), bytes);
        for (i = 0; i < n; i++)
            if (i != root)
                counter_send(ps, i, stage_counter(ps, root), routine);
        *ps->stage_pending = n - 1;
        return;
    }
    counter_take(ps, root, stage_counter(ps, root), routine);
    coll_get(ps, root, ps->sync_seg, stage, local(dseg, doff), bytes, routine);
    token_send(ps, root, STAGE_DONE, routine);
}

/* Direct: every PE reads the root. Binomial: index r (relative to the root) reads
 * from r - 2^k, k its highest bit, once that PE says it has the data. root_too:
 * the root's dest gets the data too (the team form; the active-set form leaves it). */
void shoal_coll_broadcast(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                          size_t bytes, int root, int root_too, const char *routine)
{
    int n = ps->size, rel = (ps->me - root + n) % n, k, top = -1, i;
    int algo = bcast_algo(bytes, n);

    if (bytes > 0 && rel == 0 && root_too && local(dseg, doff) != local(sseg, soff))
        memmove(local(dseg, doff), local(sseg, soff), bytes);
    if (algo == SHOAL_ALGO_FLAT && ps->stage_pending != NULL && bytes <= SHOAL_STAGE_BYTES) {
        bcast_staged(ps, dseg, doff, sseg, soff, bytes, root, routine);
        return;
    }
    if (algo == SHOAL_ALGO_FLAT) {
        /* The root pushes into each dest once that PE has arrived (it is ready). */
        if (flat_gather(ps, root, routine)) {
            for (i = 0; i < n && bytes > 0; i++)
                if (i != ps->me)
                    coll_put(ps, i, dseg, doff, local(sseg, soff), bytes, routine);
            flat_release(ps, routine);
        }
        return;
    }
    if (bytes == 0) {
        /* nothing moves; the barrier below still keeps the PEs in step */
    } else if (algo == SHOAL_ALGO_DIRECT) {
        /* The root's source may be written just before the call: wait for it. */
        shoal_coll_barrier(ps, 0, routine);
        if (rel != 0)
            shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, root), sseg, soff,
                           local(dseg, doff), bytes, 0, routine);
    } else {
        if (rel != 0) {
            int parent;

            top = 31 - __builtin_clz((unsigned)rel);
            parent = (rel - (1 << top) + root) % n;
            token_take(ps, parent, SHOAL_SYNC_ALGO + top, routine);
            if (parent == root)
                shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, root), sseg, soff,
                               local(dseg, doff), bytes, 0, routine);
            else
                shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, parent), dseg, doff,
                               local(dseg, doff), bytes, 0, routine);
        }
        for (k = top + 1; k < ALGO_ROUNDS && rel + (1 << k) < n; k++)
            token_send(ps, (rel + (1 << k) + root) % n, SHOAL_SYNC_ALGO + k, routine);
    }
    shoal_coll_barrier(ps, 0, routine);
}

/* Byte offsets in dest of each PE's contribution: fixed, or from the sizes each
 * PE left in its scratch word 0 (read after a barrier). */
static size_t *collect_offsets(const shoal_pset_t *ps, size_t bytes, int fixed, const char *routine)
{
    size_t *off = malloc(((size_t)ps->size + 1) * sizeof(size_t)), w = shoal_pset_scratch(ps, 0);
    int i;

    if (off == NULL)
        shoal_fatal("%s: out of memory for %d offsets", routine, ps->size);
    if (!fixed) {
        __atomic_store_n((uint64_t *)local(ps->sync_seg, w), (uint64_t)bytes, __ATOMIC_RELEASE);
        shoal_coll_barrier(ps, 0, routine);
    }
    off[0] = 0;
    for (i = 0; i < ps->size; i++) {
        uint64_t b = bytes;

        if (!fixed && i != ps->me)
            shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, i), ps->sync_seg, w, &b, sizeof(b),
                           0, routine);
        off[i + 1] = off[i] + (size_t)b;
    }
    return off;
}

/* Each PE pushes its block to every PE's dest, starting with its right neighbour
 * so that no PE is everyone's first target. */
void shoal_coll_collect(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                        size_t bytes, int fixed, const char *routine)
{
    size_t *off = collect_offsets(ps, bytes, fixed, routine);
    const char *src = local(sseg, soff);
    int n = ps->size, i;

    for (i = 1; i <= n && bytes > 0; i++) {
        int to = (ps->me + i) % n;

        if (to == ps->me)
            memmove(local(dseg, doff + off[ps->me]), src, bytes);
        else
            shoal_core_put(&shoal_ctx_default, shoal_pset_pe(ps, to), dseg, doff + off[ps->me], src,
                           bytes, 1, routine);
    }
    free(off);
    shoal_coll_barrier(ps, 1, routine);
    if (!fixed)
        *(uint64_t *)local(ps->sync_seg, shoal_pset_scratch(ps, 0)) = 0;
}

/* Block j of this PE's source goes to block me of PE j's dest; strides in
 * elements (1, 1: alltoall). A strided block to a PE on another node moves as a
 * whole, not one element a message (each a TCP round of its own): a contiguous
 * dest takes it as one packed put (shoal_core_iput), else the receiver pulls it
 * with shoal_core_iget, which reads spans. */
void shoal_coll_alltoalls(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                          ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem_size,
                          const char *routine)
{
    size_t dblock = nelems * (size_t)dst * elem_size, sblock = nelems * (size_t)sst * elem_size;
    const char *src = local(sseg, soff);
    int n = ps->size, i, pull = 0;

    for (i = 1; i <= n && nelems > 0; i++) {
        int to = (ps->me + i) % n, pe = shoal_pset_pe(ps, to);
        size_t to_off = doff + (size_t)ps->me * dblock;
        const char *from = src + (size_t)to * sblock;

        if (dst == 1 && sst == 1) {
            shoal_core_put(&shoal_ctx_default, pe, dseg, to_off, from, nelems * elem_size, 1,
                           routine);
        } else if (dst == 1 || shoal_peer_is_local(pe)) {
            shoal_core_iput(&shoal_ctx_default, pe, dseg, to_off, from, dst, sst, nelems, elem_size,
                            routine);
        } else {
            pull = 1; /* every PE decides alike: the arguments and node layout match */
        }
    }
    if (pull) {
        /* Each source is ready once its PE has entered. */
        shoal_coll_barrier(ps, 0, routine);
        for (i = 0; i < n; i++)
            if (!shoal_peer_is_local(shoal_pset_pe(ps, i)))
                shoal_core_iget(&shoal_ctx_default, shoal_pset_pe(ps, i), sseg,
                                soff + (size_t)ps->me * sblock,
                                local(dseg, doff + (size_t)i * dblock), dst, sst, nelems,
                                elem_size, routine);
    }
    shoal_coll_barrier(ps, 1, routine);
}

static void combine(void *inout, const void *in, size_t count, shoal_red_op_t op,
                    shoal_dt_t dt, size_t elem_size, const char *routine)
{
    if (shoal_reduce_combine(inout, in, count, op, dt, elem_size) != 0)
        shoal_fatal("%s: this operator does not apply to %zu-byte elements of this kind",
                    routine, elem_size);
}

/* acc = the elements [lo, lo+count) of every PE's source combined in index order,
 * so every PE computes the same bits whatever the operator. */
static void reduce_block(const shoal_pset_t *ps, int sseg, size_t soff, size_t lo, size_t count,
                         shoal_red_op_t op, shoal_dt_t dt, size_t elem_size, char *acc, char *in,
                         const char *routine)
{
    size_t bytes = count * elem_size, at = soff + lo * elem_size;
    int i;

    for (i = 0; i < ps->size && bytes > 0; i++) {
        char *into = i == 0 ? acc : in;

        coll_get(ps, i, sseg, at, into, bytes, routine);
        if (i > 0)
            combine(acc, in, count, op, dt, elem_size, routine);
    }
}

/* Recursive doubling's counters: a "ready" one per round (a later round's partner
 * may signal before this round's has), one "done reading" (a PE only sends it to
 * the partner it has just read, and that partner takes it before exposing again),
 * and two for folding in the PEs beyond the largest power of two. */
#define RD_DONE (SHOAL_SYNC_ALGO + ALGO_RD_DONE)
#define RD_FOLD (SHOAL_SYNC_ALGO + ALGO_RD_FOLD)
#define RD_RESULT (SHOAL_SYNC_ALGO + ALGO_RD_RESULT)

/* The reduction algorithm for bytes per PE on n PEs: the setting, where it can
 * serve n, else the automatic choice. */
static int reduce_algo(size_t bytes, int n)
{
    int algo = shoal_g.settings.reduce_algo;
    int doubling_fits = n < 2 || 31 - __builtin_clz((unsigned)n) <= ALGO_ROUNDS;

    if ((algo == SHOAL_ALGO_FLAT && !flat_fits(n)) ||
        (algo == SHOAL_ALGO_DOUBLING && !doubling_fits))
        algo = SHOAL_ALGO_AUTO;
    if (algo != SHOAL_ALGO_AUTO)
        return algo;
    if (bytes <= shoal_g.settings.coll_small && flat_fits(n))
        return SHOAL_ALGO_FLAT;
    /* Two PEs included: each then combines half, where doubling combines all
     * (64 KiB on 2 PEs: 14 us against 44). */
    if (n > 1 && (bytes > shoal_g.settings.coll_small || !doubling_fits))
        return SHOAL_ALGO_RING;
    return SHOAL_ALGO_DOUBLING;
}

/* Recursive doubling over the largest power of two p <= n: in round k, index i
 * exposes its partial result in its dest, reads partner i ^ 2^k's, and combines
 * the lower index's value with the higher's, so both partners compute the same
 * bits. Indices p.. first hand their source to index - p and get the result back
 * at the end. dest is the only buffer others read; the counters say when it holds
 * what they want and when they are done with it. */
static void reduce_doubling(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                            size_t count, shoal_red_op_t op, shoal_dt_t dt, size_t elem_size,
                            char *acc, char *in, const char *routine)
{
    int n = ps->size, me = ps->me, p = 1, k, partner = -1;
    size_t bytes = count * elem_size;
    char *dest = local(dseg, doff);

    while (p * 2 <= n)
        p *= 2;
    memcpy(acc, local(sseg, soff), bytes);
    if (me >= p) {
        memcpy(dest, acc, bytes);
        token_send(ps, me - p, RD_FOLD, routine);
        token_take(ps, me - p, RD_RESULT, routine);
        shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, me - p), dseg, doff, dest, bytes, 0,
                       routine);
        return;
    }
    if (me + p < n) {
        token_take(ps, me + p, RD_FOLD, routine);
        shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, me + p), dseg, doff, in, bytes, 0,
                       routine);
        combine(acc, in, count, op, dt, elem_size, routine);
    }
    for (k = 0; (1 << k) < p; k++) {
        if (partner >= 0)
            token_take(ps, partner, RD_DONE, routine);
        partner = me ^ (1 << k);
        memcpy(dest, acc, bytes);
        token_send(ps, partner, SHOAL_SYNC_ALGO + k, routine);
        token_take(ps, partner, SHOAL_SYNC_ALGO + k, routine);
        shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, partner), dseg, doff, in, bytes, 0,
                       routine);
        token_send(ps, partner, RD_DONE, routine);
        if (me < partner) {
            combine(acc, in, count, op, dt, elem_size, routine);
        } else {
            char *t = acc;

            combine(in, acc, count, op, dt, elem_size, routine);
            acc = in;
            in = t;
        }
    }
    if (partner >= 0)
        token_take(ps, partner, RD_DONE, routine);
    memcpy(dest, acc, bytes);
    if (me + p < n)
        token_send(ps, me + p, RD_RESULT, routine);
}

/* Direct: every PE combines everything, then writes its own dest. Ring: index i
 * combines block i only and pushes it to every dest (reduce-scatter, then
 * all-gather), so each PE moves about 2 * bytes whatever the PE count. */
static void reduce_direct_or_ring(const shoal_pset_t *ps, int dseg, size_t doff, int sseg,
                                  size_t soff, size_t lo, size_t hi, int ring,
                                  shoal_red_op_t op, shoal_dt_t dt, size_t elem_size,
                                  char *acc, char *in, const char *routine)
{
    int n = ps->size, i;
    size_t bytes = (hi - lo) * elem_size;

    shoal_coll_barrier(ps, 0, routine); /* every source is ready */
    reduce_block(ps, sseg, soff, lo, hi - lo, op, dt, elem_size, acc, in, routine);
    if (!ring) {
        shoal_coll_barrier(ps, 0, routine); /* no one reads a source any more */
        if (bytes > 0)
            memcpy(local(dseg, doff), acc, bytes);
    } else {
        for (i = 1; i <= n && bytes > 0; i++) {
            int to = (ps->me + i) % n;

            if (to == ps->me)
                memcpy(local(dseg, doff + lo * elem_size), acc, bytes);
            else
                shoal_core_put(&shoal_ctx_default, shoal_pset_pe(ps, to), dseg,
                               doff + lo * elem_size, acc, bytes, 0, routine);
        }
        shoal_coll_barrier(ps, 1, routine);
    }
}

/* Flat (one node, small arrays): index 0 combines and writes every dest. Doubling:
 * log2 of the PE count exchanges of the whole array. Direct and ring: above. */
void shoal_coll_reduce(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                       size_t count, shoal_red_op_t op, shoal_dt_t dt, size_t elem_size,
                       const char *routine)
{
    int n = ps->size, algo = reduce_algo(count * elem_size, n), i;
    int ring = algo == SHOAL_ALGO_RING;
    size_t lo = ring ? count * (size_t)ps->me / (size_t)n : 0;
    size_t hi = ring ? count * (size_t)(ps->me + 1) / (size_t)n : count;
    size_t bytes = (hi - lo) * elem_size;
    char *acc = malloc(bytes + 1), *in = malloc(bytes + 1);

    if (acc == NULL || in == NULL)
        shoal_fatal("%s: out of memory for %zu bytes of reduction buffers", routine, 2 * bytes);
    if (algo == SHOAL_ALGO_FLAT) {
        /* Index 0 combines once every source is ready, and writes every dest. */
        if (flat_gather(ps, 0, routine)) {
            reduce_block(ps, sseg, soff, 0, count, op, dt, elem_size, acc, in, routine);
            for (i = 0; i < n && bytes > 0; i++)
                coll_put(ps, i, dseg, doff, acc, bytes, routine);
            flat_release(ps, routine);
        }
    } else if (algo == SHOAL_ALGO_DOUBLING) {
        if (bytes > 0)
            reduce_doubling(ps, dseg, doff, sseg, soff, count, op, dt, elem_size, acc, in,
                            routine);
        shoal_coll_barrier(ps, 0, routine);
    } else {
        reduce_direct_or_ring(ps, dseg, doff, sseg, soff, lo, hi, ring, op, dt, elem_size,
                              acc, in, routine);
    }
    free(acc);
    free(in);
}

/* SHOAL_CHECK_COLL: each PE leaves a hash of the routine's name and its
 * arguments in its scratch words 2..; every PE compares with index 0's. */
void shoal_coll_check(const shoal_pset_t *ps, const char *routine, const uint64_t *vals,
                      const char *const *names, int n)
{
    uint64_t mine[SHOAL_CHECK_VALS + 1], first[SHOAL_CHECK_VALS + 1], h = 1469598103934665603u;
    uint64_t *scratch = local(ps->sync_seg, shoal_pset_scratch(ps, 2));
    const char *c;
    int i;

    for (c = routine; *c != '\0'; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211u;
    mine[0] = h;
    for (i = 0; i < n; i++)
        mine[i + 1] = vals[i];
    memcpy(scratch, mine, (size_t)(n + 1) * sizeof(uint64_t));
    shoal_coll_barrier(ps, 0, routine);
    memcpy(first, mine, sizeof(mine));
    if (ps->me != 0)
        shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, 0), ps->sync_seg,
                       shoal_pset_scratch(ps, 2), first, (size_t)(n + 1) * sizeof(uint64_t), 0,
                       routine);
    shoal_coll_barrier(ps, 0, routine);
    memset(scratch, 0, (size_t)(n + 1) * sizeof(uint64_t));
    if (first[0] != mine[0])
        shoal_fatal("%s: PE %d called it while PE %d (index 0 of the team) called another "
                    "collective routine (or the same one for another type); every PE must call "
                    "the same collectives in the same order",
                    routine, shoal_g.my_pe, shoal_pset_pe(ps, 0));
    for (i = 0; i < n; i++)
        if (first[i + 1] != mine[i + 1])
            shoal_fatal("%s: argument %s is %lld on PE %d but %lld on PE %d (index 0 of the "
                        "team); every PE must pass the same value",
                        routine, names[i], (long long)mine[i + 1], shoal_g.my_pe,
                        (long long)first[i + 1], shoal_pset_pe(ps, 0));
}
