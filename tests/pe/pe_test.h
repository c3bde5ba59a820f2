/* Shared harness of the multi-PE tests: a watchdog, and checks that print the
 * PE, what was expected and what was found. Exit codes: 0 pass, 77 skip, 99 fail. */
#ifndef PE_TEST_H
#define PE_TEST_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* alarm and sched_yield under -std=c11 */
#endif

#include <sched.h>
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../test_check.h" /* TEST_CHECK */

#ifndef PE_TEST_TIMEOUT
#define PE_TEST_TIMEOUT 120
#endif

static int pe_test_failures;

/* The last seconds of the watchdog's time, in which a PE that still waits
 * prints its hang report (the routine, and what or whom it waits for). */
#define PE_TEST_REPORT_S 10

/* First alarm: ask for a hang report (SIGUSR2, where shmem_init installed
 * Shoal's handler: its default action would end the PE with no word) and set
 * the second; the second ends the PE by the default action, as a hang. */
static void pe_test_alarm(int sig)
{
    static const char line[] = "pe_test: watchdog: a PE still runs; its hang report follows\n";
    struct sigaction usr2, dfl;

    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGALRM, &dfl, NULL);
    if (sigaction(SIGUSR2, NULL, &usr2) != 0 || usr2.sa_handler == SIG_DFL ||
        usr2.sa_handler == SIG_IGN) {
        raise(sig);
        return;
    }
    if (write(STDERR_FILENO, line, sizeof(line) - 1) < 0)
        return;
    raise(SIGUSR2);
    alarm(PE_TEST_REPORT_S);
}

/* A hang fails the test instead of blocking the suite, and says where it hung. */
static inline void pe_test_watchdog(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = pe_test_alarm;
    sigaction(SIGALRM, &sa, NULL);
    alarm(PE_TEST_TIMEOUT - PE_TEST_REPORT_S);
}

#define PE_CHECK(cond, fmt, ...) TEST_CHECK(pe_test_failures, cond, #cond, fmt, __VA_ARGS__)

/* Equality of two values converted to long double: fine for every RMA type's
 * small test values. */
#define PE_CHECK_EQ(what, expected, found)                                                         \
    PE_CHECK((long double)(expected) == (long double)(found), "%s: expected %Lg, found %Lg",       \
             (what), (long double)(expected), (long double)(found))

/* Whether peers on this node are reached by load/store (SHOAL_TRANSPORT unset
 * or "auto"), so that shmem_ptr must return real pointers for them. */
static inline int pe_test_transport_auto(void)
{
    const char *t = getenv("SHOAL_TRANSPORT");

    return t == NULL || t[0] == '\0' || strcmp(t, "auto") == 0;
}

/* Whether world PE pe runs on this PE's node, told by host name (as a user would
 * tell it; the library's own view is what the tests check). The first call is
 * collective: every PE makes it at the same point (it allocates, puts and
 * waits in a barrier); later calls are local. */
#define PE_TEST_HOST_LEN 64
static inline int pe_test_same_node(int pe)
{
    static char *hosts;
    int npes = shmem_n_pes(), me = shmem_my_pe(), i;

    if (hosts == NULL) {
        char name[PE_TEST_HOST_LEN] = {0};

        gethostname(name, sizeof(name) - 1);
        hosts = shmem_calloc((size_t)npes, PE_TEST_HOST_LEN);
        for (i = 0; i < npes; i++)
            shmem_putmem(hosts + (size_t)me * PE_TEST_HOST_LEN, name, PE_TEST_HOST_LEN, i);
        shmem_barrier_all();
    }
    return strncmp(hosts + (size_t)pe * PE_TEST_HOST_LEN, hosts + (size_t)me * PE_TEST_HOST_LEN,
                   PE_TEST_HOST_LEN) == 0;
}

/* The symmetric heap size the library was given: SHMEM_SYMMETRIC_SIZE with its
 * K/M/G/T suffixes, 256 MiB when unset. 0 when the value does not parse. */
static inline size_t pe_test_heap_size(void)
{
    const char *t = getenv("SHMEM_SYMMETRIC_SIZE"), *s = "KMGT";
    unsigned long long v;
    char *end;

    if (t == NULL || t[0] == '\0')
        return (size_t)256 << 20;
    v = strtoull(t, &end, 10);
    if (*end != '\0') {
        const char *unit = strchr(s, *end >= 'a' ? *end - 'a' + 'A' : *end);

        if (unit == NULL || end[1] != '\0')
            return 0;
        v <<= 10 * (unit - s + 1);
    }
    return (size_t)v;
}

/* Waits until *flag, which PE from only ever increases, reaches value: acquire
 * loads and yields, and now and then a get from that PE, whose completion drives
 * the transport's progress. (The wait routines are not used: they are tested
 * elsewhere. pe_progress.c checks a target that makes no call at all.) */
static inline void pe_test_wait_long_ge(const long *flag, long value, int from)
{
    unsigned spins = 0;

    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) < value) {
        if (++spins % 16 == 0) {
            sched_yield();
            (void)shmem_long_g(flag, from);
        }
    }
}

/* The same without any library call, giving up after seconds: 1 when it came. */
static inline int pe_test_wait_long_ge_for(const long *flag, long value, int seconds)
{
    time_t end = time(NULL) + seconds;
    unsigned spins = 0;

    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) < value) {
        if (++spins % 16 == 0) {
            sched_yield();
            if (time(NULL) > end)
                return 0;
        }
    }
    return 1;
}

/* After shmem_init, in a test that models at most max_pes PEs: with more, PE 0
 * says so, every PE finalizes and the program ends with 77 (skipped). */
static inline void pe_test_upto(const char *name, int max_pes)
{
    if (shmem_n_pes() <= max_pes)
        return;
    if (shmem_my_pe() == 0)
        printf("%s: more than %d PEs: skipped\n", name, max_pes);
    shmem_finalize();
    exit(77);
}

/* Every PE reports; the job fails when any PE failed. */
static inline int pe_test_finish(const char *name)
{
    int npes = shmem_n_pes(), me = shmem_my_pe(), pe, total = 0;
    int *failures = shmem_calloc((size_t)npes, sizeof(int));

    /* Every PE sends its count to PE 0, which reports for the whole job. */
    shmem_int_p(&failures[me], pe_test_failures, 0);
    shmem_barrier_all();
    for (pe = 0; me == 0 && pe < npes; pe++)
        total += failures[pe];
    if (me == 0) {
        if (total == 0)
            printf("%s: %d PEs passed\n", name, npes);
        else
            printf("%s: %d failed checks over %d PEs\n", name, total, npes);
    }
    shmem_free(failures);
    shmem_finalize();
    return pe_test_failures == 0 ? 0 : 99;
}

#endif
