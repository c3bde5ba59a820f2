/* The hang reports' signal (SIGUSR2, which oshrun --timeout sends) belongs to the
 * program when it has a handler of its own: odd PEs install one before shmem_init
 * and must still have it after; even PEs leave the default, and shmem_init puts
 * the library's in (SIGUSR2 then only asks waits for a report: raising it must
 * not end the PE, and later waits end as they should); shmem_finalize puts the
 * default back. */
#include "pe_test.h" /* first: it asks for POSIX (sigaction) */

#include <signal.h>

static volatile sig_atomic_t own_calls;

static void own(int sig)
{
    (void)sig;
    own_calls++;
}

static void (*handler_now(void))(int)
{
    struct sigaction sa;

    sigaction(SIGUSR2, NULL, &sa);
    return sa.sa_handler;
}

int main(void)
{
    static int flag;
    int me, npes, odd, rc;

    me = (int)strtol(getenv("PMIX_RANK") != NULL ? getenv("PMIX_RANK") : "0", NULL, 10);
    odd = me % 2 == 1;
    if (odd)
        signal(SIGUSR2, own);
    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    PE_CHECK(odd == (me % 2 == 1), "PMIX_RANK said %d", odd);
    if (odd) {
        PE_CHECK(handler_now() == own, "%s", "the program's own SIGUSR2 handler was replaced");
    } else {
        PE_CHECK(handler_now() != SIG_DFL && handler_now() != SIG_IGN && handler_now() != own, "%s",
                 "shmem_init installed no SIGUSR2 handler");
    }
    raise(SIGUSR2); /* own: counted; the library's: the next waits may report */
    PE_CHECK_EQ("own handler calls", odd ? 1 : 0, own_calls);
    /* Waits still end: the left neighbour sets the flag after a barrier. */
    shmem_barrier_all();
    shmem_int_atomic_set(&flag, 1, (me + 1) % npes);
    shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
    PE_CHECK_EQ("flag", 1, flag);
    rc = pe_test_finish("pe_hang_signal"); /* finalizes */
    if (!odd && handler_now() != SIG_DFL) {
        fprintf(stderr, "FAIL PE %d: SIGUSR2 is not back to its default after shmem_finalize\n",
                me);
        rc = 99;
    }
    return rc;
}
