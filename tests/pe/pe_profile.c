/* The profiling interface (shmem_profiling(3)): this program defines its own
 * shmem_putmem, shmem_int_p, shmem_barrier_all and shmem_malloc, which count
 * their calls and forward to the pshmem_ routines. Each call the program makes,
 * directly or through the C11 shmem_p, must reach them once; a pshmem_ call, a
 * deprecated name built on one of them (shmalloc) and the other routines must
 * not. The data each call moved is checked. Linked against libshoal.so here,
 * and against libshoal.a as pe_profile_static (pe_profile-static.sh). */
#include "pe_test.h"

#include <pshmem.h>

#define MSG_LEN 48

static long n_putmem, n_int_p, n_barrier_all, n_malloc;
static char scratch[4]; /* symmetric: the other puts write here */
static int iscratch[2];

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe)
{
    n_putmem++;
    pshmem_putmem(dest, source, nelems, pe);
}

void shmem_int_p(int *dest, int value, int pe)
{
    n_int_p++;
    pshmem_int_p(dest, value, pe);
}

void shmem_barrier_all(void)
{
    n_barrier_all++;
    pshmem_barrier_all();
}

void *shmem_malloc(size_t size)
{
    n_malloc++;
    return pshmem_malloc(size);
}

/* The four counts, as they must be now. */
static void check_counts(const char *when, long putmem, long int_p, long barrier_all, long malloc_)
{
    PE_CHECK(n_putmem == putmem, "%s: shmem_putmem counted %ld calls, expected %ld", when, n_putmem,
             putmem);
    PE_CHECK(n_int_p == int_p, "%s: shmem_int_p counted %ld calls, expected %ld", when, n_int_p,
             int_p);
    PE_CHECK(n_barrier_all == barrier_all, "%s: shmem_barrier_all counted %ld calls, expected %ld",
             when, n_barrier_all, barrier_all);
    PE_CHECK(n_malloc == malloc_, "%s: shmem_malloc counted %ld calls, expected %ld", when,
             n_malloc, malloc_);
}

int main(void)
{
    char msg[MSG_LEN] = {0}, want[MSG_LEN] = {0};
    int me, npes, right, left, i;
    char *inbox, *other;
    int *cells;
    void *old;

    pe_test_watchdog();
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    /* shmem_init is no caller of the routines this program replaced. */
    check_counts("after shmem_init", 0, 0, 0, 0);

    /* cells: [0, npes) by shmem_int_p, [npes, 2 npes) by shmem_p, [2 npes, 3 npes)
     * by pshmem_int_p; inbox by shmem_putmem, other by pshmem_putmem. */
    cells = shmem_malloc(3 * (size_t)npes * sizeof(int));
    inbox = shmem_malloc(MSG_LEN);
    other = shmem_malloc(MSG_LEN);
    PE_CHECK(cells != NULL && inbox != NULL && other != NULL, "%s", "shmem_malloc returned NULL");
    if (cells == NULL || inbox == NULL || other == NULL)
        return 99;
    check_counts("after three shmem_malloc", 0, 0, 0, 3);

    /* Built on shmem_malloc inside the library, but by its pshmem_ name: the
     * program's shmem_malloc must not see these. */
    old = shmalloc(64);
    PE_CHECK(old != NULL, "%s", "shmalloc(64) returned NULL");
    old = shrealloc(old, 128);
    PE_CHECK(old != NULL, "%s", "shrealloc(old, 128) returned NULL");
    shfree(old);
    old = shmem_calloc(4, sizeof(long));
    shmem_free(old);
    check_counts("after shmalloc, shrealloc, shfree, shmem_calloc, shmem_free", 0, 0, 0, 3);
    shmem_barrier_all(); /* every PE has its blocks before any is written */
    check_counts("after the first shmem_barrier_all", 0, 0, 1, 3);

    snprintf(msg, sizeof(msg), "putmem from PE %d", me);
    shmem_putmem(inbox, msg, MSG_LEN, right);
    shmem_int_p(&cells[me], 100 + me, right);
    shmem_p(&cells[npes + me], 200 + me, right); /* C11: resolves to shmem_int_p */
    check_counts("after shmem_putmem, shmem_int_p and shmem_p", 1, 2, 1, 3);

    /* The pshmem_ routines do the work without the program's wrappers, and the
     * library's other puts do not go through shmem_putmem or shmem_int_p. */
    snprintf(msg, sizeof(msg), "pshmem_putmem from PE %d", me);
    pshmem_putmem(other, msg, MSG_LEN, right);
    pshmem_int_p(&cells[2 * npes + me], 300 + me, right);
    shmem_char_put(scratch, "ab", 2, right);
    shmem_putmem_nbi(scratch + 2, "cd", 2, right);
    shmem_int_put(iscratch, (const int[]){400 + me, 500 + me}, 2, right);
    shmem_quiet();
    pshmem_barrier_all();
    check_counts("after the pshmem_ calls and other puts", 1, 2, 1, 3);
    PE_CHECK(memcmp(scratch, "abcd", 4) == 0, "scratch holds \"%.4s\", expected \"abcd\"", scratch);
    PE_CHECK(iscratch[0] == 400 + left && iscratch[1] == 500 + left,
             "iscratch holds %d %d, expected %d %d", iscratch[0], iscratch[1], 400 + left,
             500 + left);

    snprintf(want, sizeof(want), "putmem from PE %d", left);
    PE_CHECK(memcmp(inbox, want, MSG_LEN) == 0, "inbox holds \"%.*s\", expected \"%s\"", MSG_LEN,
             inbox, want);
    snprintf(want, sizeof(want), "pshmem_putmem from PE %d", left);
    PE_CHECK(memcmp(other, want, MSG_LEN) == 0, "other holds \"%.*s\", expected \"%s\"", MSG_LEN,
             other, want);
    for (i = 0; i < 3; i++)
        PE_CHECK(cells[i * npes + left] == 100 * (i + 1) + left,
                 "cells[%d] is %d, expected %d (from PE %d)", i * npes + left,
                 cells[i * npes + left], 100 * (i + 1) + left, left);

    /* shmem_pcontrol, which this program leaves to the library, under both names. */
    shmem_pcontrol(0);
    pshmem_pcontrol(1);

    shmem_barrier_all(); /* no PE frees what another still reads */
    check_counts("at the end", 1, 2, 2, 3);
    shmem_free(other);
    shmem_free(inbox);
    shmem_free(cells);
    return pe_test_finish("pe_profile");
}
