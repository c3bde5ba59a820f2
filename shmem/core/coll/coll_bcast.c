/* Broadcast: the choice among its algorithms (flat, staged, direct, binomial),
 * and each of them. Only the staged form returns before its readers are done:
 * its root makes sure they have finished a slot before it reuses it. */
#include "shoal_coll_impl.h"
#include "shoal_coll_token.h"
#include "shoal_stats.h"

static int bcast_algo(size_t bytes, int n)
{
    int algo = shoal_core_state.settings.bcast_algo;

    if (algo == SHOAL_ALGO_FLAT && !shoal_coll_flat_fits(n))
        algo = SHOAL_ALGO_AUTO;
    if (algo != SHOAL_ALGO_AUTO)
        return algo;
    if (bytes <= shoal_core_state.settings.coll_small)
        return shoal_coll_flat_fits(n) ? SHOAL_ALGO_FLAT : SHOAL_ALGO_DIRECT;
    /* On one node every PE reading the root at once beats the tree's rounds
     * (64 KiB on 8 PEs, 2 cores: 27-52 us against 67-90). */
    return n > 4 && !shoal_coll_flat_fits(n) ? SHOAL_ALGO_TREE : SHOAL_ALGO_DIRECT;
}

/* Staged broadcast (a team on one node, small data): the root copies its source
 * into its staging area, gives each reader a token on the reader's staged
 * counter of the root's index, and returns; each reader waits for the token,
 * copies the staged data into its own dest, and only then takes the token. The
 * root never waits for readers to arrive, and nothing is written into a dest
 * outside its PE's own call. A staged counter has one sender, the root of its
 * index, so a reader takes the tokens of one root in the order that root sent
 * them, and counts them (stage_got) as the root counts what it staged
 * (stage_sent[0]); and the tokens still on a reader's counter are the root's
 * calls that reader has not finished, which the root reads there: no answer.
 * Up to SHOAL_STAGE_SLOT_MAX bytes, call number c stages in slot c mod W of
 * the area cut into W slots of its size rounded up to a power of two (at least
 * SHOAL_STAGE_SLOT_MIN: W is 256 for up to 16 bytes, 8 for 512), so a root that
 * broadcasts back to back runs up to W calls ahead of its slowest reader
 * instead of waiting for each call. Before it stages call c the root makes sure
 * that every reader has finished call c - W, the slot's last user; it reads the
 * readers' counters only when what it last read (stage_sent[2]) does not
 * already say so. A call of another slot size than the call before it (a
 * larger call takes the whole area) first waits for every reader to finish
 * every call: the slots of the two sizes overlap. Measured, 8-byte calls from
 * one root back to back on 2 cores (bench/coll -o broadcast_root0): 4 PEs 1.4
 * us a call with 8 slots and an answer token from each reader per call, 0.17-
 * 0.18 now; 8 PEs 4.8 us and 0.27-0.30 (the peer 0.39 and 0.93). */

/* Flat broadcast on an active set: the spec has the program make every dest
 * ready, and the pSync free of any earlier collective, before any PE calls. So
 * the root pushes into each dest straight away and then hands each reader one
 * token: one hand-off instead of an arrival and a release, which matters most
 * where PEs outnumber cores (every hand-off may wait for a PE to get a core
 * back). The token goes on the reader's counter of the root's index, the one a
 * flat gather at that reader would take the root's arrival on: a counter that
 * only that sender ever adds to, so its tokens are taken in the order it sent
 * them, whatever the other PEs are doing, even where broadcasts from different
 * roots follow each other with no barrier between. */
static void bcast_pushed(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                         size_t bytes, int root, const char *routine)
{
    int i;

    if (ps->me != root) {
        shoal_coll_token_take(ps, root, root, routine);
        return;
    }
    for (i = 0; i < ps->size && bytes > 0; i++)
        if (i != ps->me)
            shoal_coll_put(ps, i, dseg, doff, shoal_coll_local(sseg, soff), bytes, routine);
    shoal_core_quiet(&shoal_ctx_default); /* puts through UCX land before the tokens */
    for (i = 0; i < ps->size; i++)
        if (i != ps->me)
            shoal_coll_token_send(ps, i, root, routine);
}

/* How many of this root's staged calls reader i has finished: the root's count
 * less the tokens still on the reader's staged counter of the root's index. */
static unsigned stage_finished(const shoal_pset_t *ps, int i, const char *routine)
{
    uint64_t left = 0;

    shoal_coll_flag_amo(ps, shoal_pset_pe(ps, i), shoal_coll_stage_counter(ps, ps->me),
                        SHOAL_AMO_FETCH, NULL, &left, routine);
    return ps->stage_sent[0] - (unsigned)(left & ~SHOAL_COLL_TOKEN_SLEEPER);
}

typedef struct stage_wait_arg {
    const shoal_pset_t *ps;
    int reader;
    unsigned upto;  /* the calls before this one */
    unsigned least; /* the fewest calls a reader was seen to have finished */
    const char *routine;
} stage_wait_arg_t;

static uint64_t stage_reader_done(void *arg)
{
    stage_wait_arg_t *a = arg;
    unsigned done = stage_finished(a->ps, a->reader, a->routine);

    if ((int)(done - a->upto) < 0)
        return 0;
    if ((int)(done - a->least) < 0)
        a->least = done;
    return 1;
}

/* Returns once every reader has finished this root's calls before number upto
 * (unsigned: the counts wrap, and differences are compared). */
static void stage_wait(const shoal_pset_t *ps, unsigned upto, const char *routine)
{
    stage_wait_arg_t a = {ps, 0, upto, ps->stage_sent[0], routine};
    shoal_coll_ready_t ready = {stage_reader_done, &a};

    if ((int)(upto - ps->stage_sent[2]) <= 0)
        return;
    for (a.reader = 0; a.reader < ps->size; a.reader++)
        if (a.reader != ps->me)
            shoal_coll_wait(ps, -1, &ready, NULL, routine);
    ps->stage_sent[2] = a.least;
}

void shoal_coll_stage_drain(const shoal_pset_t *ps, const char *routine)
{
    stage_wait(ps, ps->stage_sent[0], routine);
}

/* The slot size of a staged broadcast of bytes (the whole area past
 * SHOAL_STAGE_SLOT_MAX). */
static size_t stage_slot_bytes(size_t bytes)
{
    size_t s = SHOAL_STAGE_SLOT_MIN;

    if (bytes > SHOAL_STAGE_SLOT_MAX)
        return SHOAL_STAGE_BYTES;
    while (s < bytes)
        s <<= 1;
    return s;
}

/* Where call number c of bytes stages, past the staged counters. */
static size_t stage_at(const shoal_pset_t *ps, unsigned c, size_t bytes)
{
    size_t s = stage_slot_bytes(bytes);

    return ps->stage_off + SHOAL_STAGE_ROOTS * ps->sync_stride + c % (SHOAL_STAGE_BYTES / s) * s;
}

static void bcast_staged(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                         size_t bytes, int root, const char *routine)
{
    int n = ps->size, i;
    unsigned c, s;

    if (ps->me == root && n == 1)
        return; /* root_too has done it all */
    if (ps->me == root) {
        c = ps->stage_sent[0];
        s = (unsigned)stage_slot_bytes(bytes);
        if (s != ps->stage_sent[1]) {
            ps->stage_sent[1] = s;
            stage_wait(ps, c, routine);
        } else {
            stage_wait(ps, c + 1 - SHOAL_STAGE_BYTES / s, routine); /* the slot's last user */
        }
        memcpy(shoal_coll_local(ps->sync_seg, stage_at(ps, c, bytes)), shoal_coll_local(sseg, soff),
               bytes);
        ps->stage_sent[0] = c + 1;
        for (i = 0; i < n; i++)
            if (i != root)
                shoal_coll_counter_send(ps, i, shoal_coll_stage_counter(ps, root), routine);
        return;
    }
    c = ps->stage_got[root]++;
    shoal_coll_counter_await(ps, root, shoal_coll_stage_counter(ps, root), routine);
    shoal_coll_get(ps, root, ps->sync_seg, stage_at(ps, c, bytes), shoal_coll_local(dseg, doff),
                   bytes, routine);
    /* Taken once copied: the root reads what is left on this counter. */
    shoal_coll_counter_consume(ps, shoal_coll_stage_counter(ps, root), routine);
}

/* Pushed broadcast (a team that spans nodes, small data): the root puts its
 * source into a slot of its region of each reader's staging area
 * (shoal_coll_regions_fit), numbered and hashed (shoal_coll_slot_put: no token);
 * the reader waits for it, copies it into its dest and adds one to its
 * acknowledgement word at the root. Before its push number k to a reader the
 * root waits for that reader's acknowledgement of push k - 2, which used the
 * same slot: a root that broadcasts back to back waits for the answer to the
 * push before last, which is on its way while the last one travels, instead of
 * a round trip per broadcast. One one-way trip where direct needed a barrier, a
 * get's round trip and a second barrier, and nothing is written into a dest
 * outside its own PE's call. */
static int region_target(const shoal_pset_t *ps, const int *to, int k)
{
    return to != NULL ? to[k] : k < ps->me ? k : k + 1;
}

typedef struct region_acked_arg {
    const uint64_t *ack;
    unsigned need;
} region_acked_arg_t;

/* Numbers count in unsigned (they wrap), and a reader is at most two behind. */
static uint64_t region_acked(void *arg)
{
    const region_acked_arg_t *a = arg;

    return (int)((unsigned)__atomic_load_n(a->ack, __ATOMIC_ACQUIRE) - a->need) >= 0;
}

/* Waits until member t has taken this PE's pushes up to number need. */
static void region_wait_acked(const shoal_pset_t *ps, int t, unsigned need, const char *routine)
{
    region_acked_arg_t a = {
        shoal_coll_local(ps->sync_seg, shoal_coll_region_ack_off(ps, ps->me, t)), need};
    shoal_coll_ready_t ready = {region_acked, &a};

    if (!region_acked(&a))
        shoal_coll_wait(ps, t, &ready, NULL, routine);
}

void shoal_coll_region_push(const shoal_pset_t *ps, const void *src, size_t bytes, const int *to,
                            int nto, const char *routine)
{
    int n = to != NULL ? nto : ps->size - 1, k;

    for (k = 0; k < n; k++) {
        int t = region_target(ps, to, k);
        unsigned number = ++ps->region_sent[t];

        if (number > 2)
            region_wait_acked(ps, t, number - 2, routine);
        shoal_coll_slot_put(ps, t, shoal_coll_region_slot_off(ps, ps->me, number), src, bytes,
                            number, routine);
    }
}

void shoal_coll_region_take(const shoal_pset_t *ps, int from, void *dst, size_t bytes,
                            const char *routine)
{
    unsigned number = ++ps->region_got[from];

    shoal_coll_slot_take(ps, from, shoal_coll_region_slot_off(ps, from, number), dst, bytes, number,
                         routine);
    shoal_coll_counter_send(ps, from, shoal_coll_region_ack_off(ps, from, ps->me), routine);
}

void shoal_coll_region_drain(const shoal_pset_t *ps, const char *routine)
{
    int t;

    for (t = 0; t < ps->size; t++)
        if (t != ps->me && ps->region_sent[t] != 0)
            region_wait_acked(ps, t, ps->region_sent[t], routine);
}

static void bcast_regions(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                          size_t bytes, int root, const char *routine)
{
    if (ps->me != root)
        shoal_coll_region_take(ps, root, shoal_coll_local(dseg, doff), bytes, routine);
    else
        shoal_coll_region_push(ps, shoal_coll_local(sseg, soff), bytes, NULL, 0, routine);
}

/* Hierarchical (coll_hier.c), small data: the root pushes into its region of
 * each other node's leader, which takes it into its dest; each of these heads
 * (the root on its own node) then writes the data into the dests of its node's
 * members once they have arrived, and releases them. One one-way trip between
 * nodes, and a push per node rather than per member. */
static void bcast_hier(const shoal_pset_t *ps, const shoal_hier_t *h, int dseg, size_t doff,
                       int sseg, size_t soff, size_t bytes, int root, const char *routine)
{
    int head = shoal_coll_hier_on_node(h, root) ? root : h->local[0];
    const void *data = shoal_coll_local(sseg, soff);

    if (ps->me != head) {
        shoal_coll_hier_arrive(ps, head, routine);
        return;
    }
    if (ps->me == root) {
        shoal_coll_hier_push(ps, h, data, bytes, routine);
    } else {
        shoal_coll_region_take(ps, root, shoal_coll_local(dseg, doff), bytes, routine);
        data = shoal_coll_local(dseg, doff);
    }
    shoal_coll_hier_gather(ps, h, routine);
    shoal_coll_hier_release(ps, h, dseg, doff, data, bytes, routine);
}

/* Direct: every PE reads the root. Binomial: index r (relative to the root) reads
 * from r - 2^k, k its highest bit, once that PE says it has the data. root_too:
 * the root's dest gets the data too (the team form; the active-set form leaves it). */
static void broadcast(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                      size_t bytes, int root, int root_too, const char *routine)
{
    int n = ps->size, rel = (ps->me - root + n) % n, k, top = -1, i;
    int algo = bcast_algo(bytes, n);

    if (bytes > 0 && rel == 0 && root_too &&
        shoal_coll_local(dseg, doff) != shoal_coll_local(sseg, soff))
        memmove(shoal_coll_local(dseg, doff), shoal_coll_local(sseg, soff), bytes);
    if (algo == SHOAL_ALGO_FLAT && ps->stage_sent != NULL && bytes <= SHOAL_STAGE_BYTES) {
        bcast_staged(ps, dseg, doff, sseg, soff, bytes, root, routine);
        return;
    }
    if (algo == SHOAL_ALGO_FLAT && ps->stage_sent == NULL) {
        bcast_pushed(ps, dseg, doff, sseg, soff, bytes, root, routine);
        return;
    }
    if (algo == SHOAL_ALGO_DIRECT && shoal_core_state.settings.bcast_algo == SHOAL_ALGO_AUTO &&
        shoal_coll_regions_fit(ps, bytes)) {
        const shoal_hier_t *h = shoal_coll_hier(ps, routine);

        if (h != NULL)
            bcast_hier(ps, h, dseg, doff, sseg, soff, bytes, root, routine);
        else
            bcast_regions(ps, dseg, doff, sseg, soff, bytes, root, routine);
        return;
    }
    if (algo == SHOAL_ALGO_FLAT) {
        /* Once every PE has arrived (every dest is ready), one PE (the last to
         * arrive, or the root) copies the root's source into each dest: its own
         * first, from the root, where it is not the root. */
        if (shoal_coll_flat_enter(ps, root, routine)) {
            const void *from = shoal_coll_local(rel == 0 ? sseg : dseg, rel == 0 ? soff : doff);

            if (rel != 0 && bytes > 0)
                shoal_coll_get(ps, root, sseg, soff, shoal_coll_local(dseg, doff), bytes, routine);
            for (i = 0; i < n && bytes > 0; i++)
                if (i != ps->me && i != root)
                    shoal_coll_put(ps, i, dseg, doff, from, bytes, routine);
            shoal_coll_flat_leave(ps, routine);
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
                           shoal_coll_local(dseg, doff), bytes, 0, routine);
    } else {
        if (rel != 0) {
            int parent;

            top = 31 - __builtin_clz((unsigned)rel);
            parent = (rel - (1 << top) + root) % n;
            shoal_coll_token_take(ps, parent, SHOAL_SYNC_ALGO + top, routine);
            if (parent == root)
                shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, root), sseg, soff,
                               shoal_coll_local(dseg, doff), bytes, 0, routine);
            else
                shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, parent), dseg, doff,
                               shoal_coll_local(dseg, doff), bytes, 0, routine);
        }
        for (k = top + 1; k < ALGO_ROUNDS && rel + (1 << k) < n; k++)
            shoal_coll_token_send(ps, (rel + (1 << k) + root) % n, SHOAL_SYNC_ALGO + k, routine);
    }
    shoal_coll_barrier(ps, 0, routine);
}

void shoal_coll_broadcast(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                          size_t bytes, int root, int root_too, const char *routine)
{
    uint64_t begun = shoal_stats_coll_begin();

    shoal_coll_enter(ps);
    broadcast(ps, dseg, doff, sseg, soff, bytes, root, root_too, routine);
    shoal_stats_coll_end(SHOAL_STATS_BROADCAST, begun);
}
