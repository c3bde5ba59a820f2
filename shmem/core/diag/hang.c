/* Hang reports (shoal_hang.h): when a wait lasts, one line from the waiting PE
 * on what it waits for. Reporting only reads: it never ends, shortens or changes
 * a wait, and reads other PEs' words without a trace in the log when they fail. */
#include "shoal_hang.h"
#include "shoal_log.h"
#include "shoal_status.h"
#include "shoal_symm.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The signal a launcher sends to ask every waiting PE for its line now. */
#define HANG_SIGNAL SIGUSR2
/* PEs named one by one in a collective's line; the rest are counted. */
#define NAMES_MAX 16

int shoal_hang_armed;

static size_t hang_s;               /* SHOAL_HANG_REPORT; 0: only when asked */
static unsigned hang_asks;          /* requests by signal so far; atomic */
static int handler_ours;            /* HANG_SIGNAL's handler is ask() */
static const shoal_hang_env_t *env; /* what it reads of this PE, from setup */

/* The wait in progress on this thread (waits do not nest), as its looks follow
 * each other SHOAL_HANG_EVERY spins apart. A call's first look is at that count,
 * within 128 ms of its start; a call first seen later (reports were off when it
 * started, and a request came) has no known start. */
static __thread struct {
    double start, next; /* its start (0: unknown); when it reports next (0: only if asked) */
    double last;        /* when it looked last, and the spin count then */
    unsigned spins;
    unsigned asks; /* the requests it has answered, or that came before it */
} call;

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Async-signal-safe: two lock-free atomics. */
static void ask(int sig)
{
    (void)sig;
    __atomic_add_fetch(&hang_asks, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&shoal_hang_armed, 1, __ATOMIC_RELAXED);
}

void shoal_hang_setup(size_t seconds, const shoal_hang_env_t *what)
{
    struct sigaction old, sa;

    env = what;
    hang_s = seconds;
    __atomic_store_n(&shoal_hang_armed, seconds != 0, __ATOMIC_RELAXED);
    /* A program that handles or ignores the signal keeps it. */
    if (sigaction(HANG_SIGNAL, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
        old.sa_handler != SIG_DFL)
        return;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = ask;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    handler_ours = sigaction(HANG_SIGNAL, &sa, NULL) == 0;
}

void shoal_hang_cleanup(void)
{
    struct sigaction old, dfl;

    __atomic_store_n(&shoal_hang_armed, 0, __ATOMIC_RELAXED);
    if (!handler_ours)
        return;
    handler_ours = 0;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    /* Unless the program has put its own in since. */
    if (sigaction(HANG_SIGNAL, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
        old.sa_handler == ask)
        sigaction(HANG_SIGNAL, &dfl, NULL);
}

/* Whether this thread's wait owes a line now (SHOAL_HANG_REPORT, then each
 * doubling; or a request that came during it), with how long it has waited, in
 * the two forms the lines use ("after 30 s", "waited 30 s"). The spin count wraps
 * after 2^32 turns: a look at 0 then one at SHOAL_HANG_EVERY within a second is
 * the same call. */
static int look(unsigned spins, char *after, char *waited, size_t len)
{
    double now = now_s();
    unsigned asks = __atomic_load_n(&hang_asks, __ATOMIC_RELAXED);
    int same = spins == call.spins + SHOAL_HANG_EVERY &&
               (spins != SHOAL_HANG_EVERY || now - call.last < 1.0);

    if (!same) {
        call.start = spins == SHOAL_HANG_EVERY ? now : 0;
        call.next = hang_s != 0 && call.start != 0 ? now + (double)hang_s : 0;
        /* One first seen late was seen because a request came: it answers. */
        call.asks = spins == SHOAL_HANG_EVERY || asks == 0 ? asks : asks - 1;
    }
    call.spins = spins;
    call.last = now;
    if (asks != call.asks) {
        call.asks = asks;
    } else if (call.next != 0 && now >= call.next) {
        call.next = call.start + 2 * (call.next - call.start);
    } else {
        return 0;
    }
    if (call.start == 0) {
        snprintf(after, len, "when SIGUSR2 came");
        snprintf(waited, len, "waiting when SIGUSR2 came");
    } else {
        snprintf(after, len, "after %ld s", (long)(now - call.start));
        snprintf(waited, len, "waited %ld s", (long)(now - call.start));
    }
    return 1;
}

/* "heap+0x40" or "data+0x10": what is the same on every PE. */
static void seg_text(int seg, size_t off, char *buf, size_t len)
{
    snprintf(buf, len, "%s+0x%zx", seg == SHOAL_SEG_HEAP ? "heap" : "data", off);
}

static void sym_text(const void *addr, char *buf, size_t len)
{
    size_t off;
    int seg = env->find(addr, &off);

    if (seg < 0)
        snprintf(buf, len, "%p", addr);
    else
        seg_text(seg, off, buf, len);
}

static void value_text(uint64_t v, int is_signed, char *buf, size_t len)
{
    if (is_signed)
        snprintf(buf, len, "%lld", (long long)(int64_t)v);
    else
        snprintf(buf, len, "%llu", (unsigned long long)v);
}

static const char *cmp_text(int cmp)
{
    static const char *const names[] = {"?",
                                        "SHMEM_CMP_EQ",
                                        "SHMEM_CMP_NE",
                                        "SHMEM_CMP_GT",
                                        "SHMEM_CMP_LE",
                                        "SHMEM_CMP_LT",
                                        "SHMEM_CMP_GE"};

    return shoal_wait_cmp_valid(cmp) ? names[cmp] : names[0];
}

/* e.g. shmem_int_wait_until(heap+0x40, SHMEM_CMP_NE, 0): value still 0 after 30 s.
 * Sets of several: the first entry not satisfied now, and how many are not. */
void shoal_hang_wait_look(unsigned spins, const shoal_wait_set_t *set, int sel, const char *routine)
{
    size_t i, first = SIZE_MAX, active = 0, open = 0, esize = set->elem_size;
    char at[48], first_at[48], seen[24], want[24], masked[48] = "", after[48], waited[48];

    if (!look(spins, after, waited, sizeof(after)))
        return;
    for (i = 0; i < set->nelems; i++) {
        if (shoal_wait_masked(set, i))
            continue;
        active++;
        if (!shoal_wait_test_entry(set, i) && open++ == 0)
            first = i;
    }
    if (first == SIZE_MAX)
        return; /* satisfied meanwhile: the loop ends at its next test */
    sym_text(set->ivars, at, sizeof(at));
    sym_text((const char *)set->ivars + first * esize, first_at, sizeof(first_at));
    value_text(
        shoal_wait_load_ivar((const char *)set->ivars + first * esize, esize, set->is_signed),
        set->is_signed, seen, sizeof(seen));
    value_text(shoal_wait_load_value((const char *)set->values + (set->vector ? first * esize : 0),
                                     esize, set->is_signed),
               set->is_signed, want, sizeof(want));
    if (sel == SHOAL_SEL_ONE) {
        shoal_log_warn("%s(%s, %s, %s): value still %s %s", routine, at, cmp_text(set->cmp), want,
                       seen, after);
        return;
    }
    if (active < set->nelems)
        snprintf(masked, sizeof(masked), ", %zu excluded by status", set->nelems - active);
    if (set->vector)
        shoal_log_warn(
            "%s(%s, %zu ivars, %s, cmp_values): ivars[%zu] (%s) still %s, cmp_values[%zu] "
            "is %s, %s; %zu of %zu unsatisfied%s",
            routine, at, set->nelems, cmp_text(set->cmp), first, first_at, seen, first, want, after,
            open, active, masked);
    else
        shoal_log_warn("%s(%s, %zu ivars, %s, %s): ivars[%zu] (%s) still %s %s; %zu of %zu "
                       "unsatisfied%s",
                       routine, at, set->nelems, cmp_text(set->cmp), want, first, first_at, seen,
                       after, open, active, masked);
}

/* ---- collectives ---- */

static int group_pe(const shoal_hang_group_t *g, int i)
{
    return g->pes != NULL ? g->pes[i] : g->start + i * g->stride;
}

/* Appends v to a list of n numbers so far ("2, 3"). */
static void list_add(char *buf, size_t len, int n, int v)
{
    size_t used = strlen(buf);

    snprintf(buf + used, len - used, n == 0 ? "%d" : ", %d", v);
}

/* The members whose count of collectives entered on the group is below this PE's
 * have not reached the one it waits in (or the step of it: a collective may contain
 * a barrier, counted too, alike on every PE). An active set keeps no count: its
 * pSync is the user's. */
void shoal_hang_group_look(unsigned spins, const shoal_hang_group_t *g, int from,
                           const char *routine)
{
    char idx[160] = "", world[160] = "", more[48] = "", mute[64] = "", after[48], waited[48];
    const char *team = g->name;
    uint64_t theirs;
    int i, behind = 0, silent = 0;

    if (!look(spins, after, waited, sizeof(after)))
        return;
    if (!g->counted) {
        if (from >= 0)
            shoal_log_warn("%s: %s for PE %d of %s (world PE %d)", routine, waited, from, team,
                           group_pe(g, from));
        else
            shoal_log_warn("%s: %s for the other PEs of %s", routine, waited, team);
        return;
    }
    for (i = 0; i < g->size; i++) {
        if (i == g->me)
            continue;
        if (env->read(group_pe(g, i), g->seg, g->entered_off, 8, SHOAL_HANG_PEEK_MS, &theirs) !=
            SHOAL_OK) {
            silent++;
            continue;
        }
        if (theirs >= g->entered)
            continue;
        if (behind < NAMES_MAX) {
            list_add(idx, sizeof(idx), behind, i);
            list_add(world, sizeof(world), behind, group_pe(g, i));
        }
        behind++;
    }
    if (behind > NAMES_MAX)
        snprintf(more, sizeof(more), " and %d more", behind - NAMES_MAX);
    if (silent > 0)
        snprintf(mute, sizeof(mute), "; %d PE%s could not be read", silent, silent > 1 ? "s" : "");
    if (behind > 0)
        shoal_log_warn("%s: %s; PE%s %s%s of %s (world PE%s %s%s) %s not arrived%s", routine,
                       waited, behind > 1 ? "s" : "", idx, more, team, behind > 1 ? "s" : "", world,
                       more, behind > 1 ? "have" : "has", mute);
    else if (from >= 0)
        shoal_log_warn("%s: %s for PE %d of %s (world PE %d); every PE of the team has entered as "
                       "many collectives on it as this one (SHOAL_CHECK_COLL=1 finds mismatched "
                       "calls)%s",
                       routine, waited, from, team, group_pe(g, from), mute);
    else
        shoal_log_warn("%s: %s; every PE of %s has entered as many collectives on it as this one "
                       "(SHOAL_CHECK_COLL=1 finds mismatched calls)%s",
                       routine, waited, team, mute);
}

/* ---- locks ---- */

void shoal_hang_lock_look(unsigned spins, int seg, size_t off, int acquire,
                          shoal_hang_queue_cb_t queue, const char *routine)
{
    char at[48], after[48], waited[48];
    int holder, ahead;

    if (!look(spins, after, waited, sizeof(after)))
        return;
    seg_text(seg, off, at, sizeof(at));
    if (!acquire) {
        shoal_log_warn("%s(%s): %s for the PE queued behind this one to say so", routine, at,
                       waited);
        return;
    }
    holder = queue(seg, off, &ahead);
    if (holder < 0)
        shoal_log_warn("%s(%s): %s; no PE is queued ahead of this one yet", routine, at, waited);
    else if (holder == ahead)
        shoal_log_warn("%s(%s): %s; held by PE %d", routine, at, waited, holder);
    else
        shoal_log_warn("%s(%s): %s; held by PE %d, and PE %d is ahead of this one in the queue",
                       routine, at, waited, holder, ahead);
}
