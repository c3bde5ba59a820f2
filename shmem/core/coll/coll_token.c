/* The hand-offs collectives are built from: a token is one added to a counter
 * of the receiver and taken back by its wait, which yields or sleeps, and ends
 * the job when a PE it waits for has left. Which counter means what is the
 * algorithms' business (shoal_coll_impl.h), never this file's. */
#include "shoal_coll_impl.h"
#include "shoal_coll_token.h"
#include "shoal_hang.h"
#include "shoal_status.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static const uint64_t one = 1, minus_one = (uint64_t)-1;

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* op on the counter at off of world PE pe: one CPU atomic where the direct path
 * reaches it, else through the core. */
void shoal_coll_flag_amo(const shoal_pset_t *ps, int pe, size_t off, shoal_amo_op_t op,
                         const uint64_t *operand, uint64_t *fetch, const char *routine)
{
    char *p = shoal_core_state.direct_amo
                  ? shoal_core_direct(shoal_coll_local(ps->sync_seg, off), 8, pe)
                  : NULL;
    int token = op == SHOAL_AMO_ADD && fetch == NULL;

    if (p != NULL) {
        shoal_atomic_at(p, op, sizeof(uint64_t), operand, NULL, fetch);
        return;
    }
    /* A token: its receiver's wait is what completes it, not the program's quiet. */
    if (token)
        shoal_core_untracked(1);
    shoal_core_amo(&shoal_ctx_default, pe, ps->sync_seg, off, op, sizeof(uint64_t), operand, NULL,
                   fetch, 0, routine);
    if (token)
        shoal_core_untracked(0);
}

/* Tokens (shoal_coll_token.h: a sender adds one to a counter of the receiver, which
 * waits for it to be non-zero and takes one back). On a node with more PEs than
 * cores the waiter yields, and after SLEEP_AFTER_S of yielding sleeps until the
 * sender wakes it: a yield does not always give the core away (the scheduler may
 * find the PE we wait for not yet due, and keep us spinning for a whole time
 * slice), and a sleep does, but waking a sleeper costs tens of microseconds here. */
#define SLEEP_AFTER_S                                                                              \
    1e-3                      /* 64 KiB alltoalls on 8 PEs wait hundreds of us in a                \
                               * healthy run: sleeping then made them slower */
#define SLEEP_MAX_NS 2000000L /* bounds the cost of a wake-up that cannot come */

/* One token to the counter at off of index to. */
void shoal_coll_counter_send(const shoal_pset_t *ps, int to, size_t off, const char *routine)
{
    int pe = shoal_pset_pe(ps, to);
    uint64_t *p = NULL;

    if (shoal_core_state.sleep_waits)
        p = (uint64_t *)shoal_core_direct(shoal_coll_local(ps->sync_seg, off), 8, pe);
    if (p == NULL)
        shoal_coll_flag_amo(ps, pe, off, SHOAL_AMO_ADD, &one, NULL, routine);
    else
        shoal_coll_mapped_send(p);
}

/* Sleeps on this PE's counter p (sleep_waits is set), when the sender (world PE
 * pe) would wake it: its token goes by CPU atomic. */
static void counter_sleep(uint64_t *p, int pe)
{
    if (shoal_core_direct(p, 8, pe) == NULL)
        sched_yield();
    else
        shoal_coll_mapped_sleep(p, SLEEP_MAX_NS);
}

/* Why a PE left, in its world team's ALGO_LEFT counter (shoal_coll_left_t, 0
 * while it runs): set after a quiet, so that every token it sent before is
 * visible wherever its mark is. */
#define LEFT_COUNTER (SHOAL_SYNC_ALGO + ALGO_LEFT)
#define LEFT_NOT 0

void shoal_coll_mark_left(shoal_coll_left_t why)
{
    const shoal_pset_t *w = &shoal_team_world.pset;

    __atomic_store_n((uint64_t *)shoal_coll_local(w->sync_seg, shoal_pset_flag(w, LEFT_COUNTER)),
                     (uint64_t)why, __ATOMIC_SEQ_CST);
}

/* A PE that failed has printed its line and is ending the job through the
 * launcher: a second line from a PE that waits for it would only hide the
 * first. Wait for the launcher in silence, and end this PE (status 1) should
 * it never come. */
static void wait_for_launcher(void)
{
    struct timespec left = {10, 0};

    while (nanosleep(&left, &left) != 0 && errno == EINTR)
        ;
    _exit(1);
}

/* World PE pe's mark: a load where it is mapped; else, when remote is set, a get
 * (its UCX progress thread answers while it waits in shmem_finalize). A get that
 * fails (the job is ending, that PE is dead) says nothing: LEFT_NOT. One that
 * gets no answer in SHOAL_PEER_TIMEOUT ends the job: pe's node is unreachable,
 * and this wait would never end. */
static uint64_t left_mark(int pe, int remote, const char *routine)
{
    const shoal_pset_t *w = &shoal_team_world.pset;
    size_t off = shoal_pset_flag(w, LEFT_COUNTER);
    uint64_t mark = LEFT_NOT;
    shoal_status_t status;

    if (!remote && shoal_core_direct(shoal_coll_local(w->sync_seg, off), 8, pe) == NULL)
        return LEFT_NOT;
    status = shoal_peer_read(pe, w->sync_seg, off, 8, 0, &mark);
    if (status == SHOAL_ERR_TIMEOUT)
        shoal_peer_fail(routine, pe, "a get of its progress", status);
    return status == SHOAL_OK ? mark : LEFT_NOT;
}

/* A collective that waits on a member (set index from, -1: any) that has gone
 * to shmem_finalize or exit, or whose process on this node has ended, can never
 * end: say so. A member seen gone at two
 * looks a second apart while the token is still missing is the culprit (with
 * from -1, one seen gone once may have finished this collective and left while
 * the PE that releases this one was descheduled). The token is looked at after
 * the mark: a member sends its last tokens before it leaves. Returns the world
 * PE seen gone this time, or -1; suspect is the one seen at the previous look. */
static int check_left(const shoal_pset_t *ps, int from, const shoal_coll_ready_t *ready,
                      int suspect, int remote, const char *routine)
{
    int i, last = from >= 0 ? from : ps->size - 1;

    for (i = from >= 0 ? from : 0; i <= last; i++) {
        int pe = shoal_pset_pe(ps, i);
        uint64_t mark = i == ps->me ? LEFT_NOT : left_mark(pe, remote, routine);
        int dead = mark == LEFT_NOT && i != ps->me && shoal_peer_process_gone(pe);

        if ((mark == LEFT_NOT && !dead) || ready->fn(ready->arg) != 0)
            continue;
        if (mark == SHOAL_LEFT_FAILED)
            wait_for_launcher();
        if (pe != suspect)
            return pe;
        shoal_log_fatal("%s: PE %d %s, so it cannot join this collective, which waits for it; "
                        "every PE must call the same collectives before shmem_finalize",
                        routine, pe,
                        mark == SHOAL_LEFT_EXIT ? "exited without calling shmem_finalize"
                        : dead ? "ended without calling shmem_finalize (its process is gone)"
                               : "called shmem_finalize");
    }
    return -1;
}

void shoal_coll_counter_bad(const shoal_pset_t *ps, int pe, size_t off, uint64_t value,
                            const char *routine)
{
    if (ps->stage_sent == NULL) /* an active set: the counters are the user's pSync */
        shoal_log_fatal("%s: argument pSync[%zu] is %#llx on PE %d, which no run of this "
                        "collective leaves there; every element of pSync must be "
                        "SHMEM_SYNC_VALUE before its first use, and only the collectives that "
                        "use it may write it afterwards",
                        routine, (off - ps->sync_off) / ps->sync_stride, (unsigned long long)value,
                        pe);
    shoal_log_fatal("%s: a counter of this team (heap offset %#zx on PE %d) is %#llx, which no "
                    "run of its collectives leaves there; something wrote into the team slots "
                    "that Shoal keeps in the heap below the first shmem_malloc block "
                    "(SHOAL_CHECK=1 ends the job at such a put)",
                    routine, off, pe, (unsigned long long)value);
}

/* Describes ps to the hang reporter (shoal_hang.h): its name, its members and,
 * for a team, where each counts the collectives it entered (an active set's
 * pSync is the user's, and counts none). Called every SHOAL_HANG_EVERY turns of
 * a token wait while reports are on; off, a turn costs a test of its count. */
static void hang_look(unsigned spins, const shoal_pset_t *ps, int from, const char *routine)
{
    char name[96];
    shoal_hang_group_t g = {.name = name,
                            .size = ps->size,
                            .me = ps->me,
                            .start = ps->start,
                            .stride = ps->stride,
                            .pes = ps->pes,
                            .counted = ps->stage_sent != NULL,
                            .seg = ps->sync_seg};

    if (ps->name != NULL)
        g.name = ps->name;
    else if (g.counted)
        snprintf(name, sizeof(name), "a team of %d PEs", ps->size);
    else
        snprintf(name, sizeof(name), "the active set PE_start %d, logPE_stride %d, PE_size %d",
                 ps->start, __builtin_ctz((unsigned)ps->stride), ps->size);
    if (g.counted) {
        g.entered_off = shoal_coll_entered_off(ps);
        g.entered = *(const uint64_t *)shoal_coll_local(ps->sync_seg, g.entered_off);
    }
    shoal_hang_group_look(spins, &g, from, routine);
}

/* Waits until ready says so, for set index from (-1: any member), with
 * UCX progress, a yield, and (sleep, a counter here that a CPU atomic of world
 * PE pe fills: sleep_waits) a futex sleep. A member that left (check_left) ends
 * the job; with SHOAL_CHECK_COLL a wait that lasts too long is a collective that
 * some PE never joined: say so instead of hanging. Returns what ready last
 * returned (non-zero). */
uint64_t shoal_coll_wait(const shoal_pset_t *ps, int from, const shoal_coll_ready_t *ready,
                         uint64_t *sleep, const char *routine)
{
    int pe = shoal_pset_pe(ps, from >= 0 ? from : (ps->me + 1) % ps->size);
    double start = 0, yield_start = 0, left_checked = 0, first_look = 0;
    int suspect = -1;
    unsigned spins = 0;
    uint64_t got;

    while ((got = ready->fn(ready->arg)) == 0) {
        if (sleep != NULL && shoal_core_state.sleep_waits && spins > 0 && yield_start == 0)
            yield_start = now_s();
        if (yield_start != 0 && now_s() - yield_start > SLEEP_AFTER_S) {
            counter_sleep(sleep, pe); /* sleep_waits: no UCX to progress */
            spins++;
        } else {
            shoal_core_backoff(&spins);
        }
        if (shoal_hang_due(spins))
            hang_look(spins, ps, from, routine);
        if ((spins & 1023) != 0)
            continue;
        /* Marks of PEs on this node after a second; of the others, by a get, only
         * after three: a job that ends for another reason is gone by then, and
         * gets to its dead PEs would only add noise. */
        if (left_checked == 0) {
            left_checked = first_look = now_s();
        } else if (now_s() - left_checked >= 1.0) {
            suspect = check_left(ps, from, ready, suspect, now_s() - first_look >= 3.0, routine);
            left_checked = now_s();
        }
        if (!shoal_core_state.settings.check_coll)
            continue;
        if (start == 0)
            start = now_s();
        else if (now_s() - start > (double)shoal_core_state.settings.check_coll_s && from < 0)
            shoal_log_fatal("%s: waited %zu s for the PEs of this team of %d PEs to finish the "
                            "previous broadcast from PE %d; every PE of the team must call the "
                            "same collectives in the same order",
                            routine, shoal_core_state.settings.check_coll_s, ps->size,
                            shoal_core_state.my_pe);
        else if (now_s() - start > (double)shoal_core_state.settings.check_coll_s)
            shoal_log_fatal("%s: waited %zu s for PE %d (index %d of this team or active set of %d "
                            "PEs) to join; every PE of the team must call the same collectives in "
                            "the same order",
                            routine, shoal_core_state.settings.check_coll_s, pe, from, ps->size);
    }
    return got;
}

static uint64_t token_ready(void *p)
{
    return shoal_coll_mapped_count(p);
}

/* Waits for a token on this PE's counter at off, from set index from (-1: any
 * member), and takes it. A count no run can reach ends the job: a garbage
 * counter would otherwise let the collective through early (one compare of the
 * count the wait has read anyway). */
void shoal_coll_counter_await(const shoal_pset_t *ps, int from, size_t off, const char *routine)
{
    uint64_t *p = shoal_coll_local(ps->sync_seg, off), count;
    shoal_coll_ready_t ready = {token_ready, p};

    count = shoal_coll_wait(ps, from, &ready, p, routine);
    if (__builtin_expect(count > shoal_coll_tokens_max(ps), 0))
        shoal_coll_counter_bad(ps, shoal_core_state.my_pe, off,
                               __atomic_load_n(p, __ATOMIC_RELAXED), routine);
}

void shoal_coll_counter_consume(const shoal_pset_t *ps, size_t off, const char *routine)
{
    uint64_t old;

    /* Fetching, so the take is done before the next look at the counter. */
    shoal_coll_flag_amo(ps, shoal_core_state.my_pe, off, SHOAL_AMO_ADD, &minus_one, &old, routine);
}

void shoal_coll_counter_take(const shoal_pset_t *ps, int from, size_t off, const char *routine)
{
    shoal_coll_counter_await(ps, from, off, routine);
    shoal_coll_counter_consume(ps, off, routine);
}

void shoal_coll_token_send(const shoal_pset_t *ps, int to, int flag, const char *routine)
{
    shoal_coll_counter_send(ps, to, shoal_pset_flag(ps, flag), routine);
}

void shoal_coll_token_take(const shoal_pset_t *ps, int from, int flag, const char *routine)
{
    shoal_coll_counter_take(ps, from, shoal_pset_flag(ps, flag), routine);
}
