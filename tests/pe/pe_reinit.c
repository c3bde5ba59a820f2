/* OpenSHMEM 1.6's lifecycle: shmem_init and shmem_init_thread may be called
 * again while Shoal is up (each call matched by a shmem_finalize; one that is
 * not the last only synchronises and frees nothing), and after the last
 * finalize Shoal may be initialised again, with the same behaviour as the first
 * time. Three rounds, each: a second initialisation (and the thread level it
 * reports), RMA on the heap and on static data, an AMO, a team and a reduction
 * on it, a context of its own, and the first finalize that leaves everything
 * in place. After each last finalize: Shoal reports itself down, the heap is no
 * longer mapped, and no thread or file descriptor is left beyond what the first
 * round left (the launcher's connection, kept to the process's end, and the
 * data segment's file, which stays with its pages); as a single PE (no
 * launcher), no thread at all. Then a fourth
 * initialisation reports for the whole job. */
#define _GNU_SOURCE /* mincore */
#include "pe_test.h"

#include <dirent.h>
#include <errno.h>
#include <sys/mman.h>

#define ROUNDS 3
#define N 8

static long data_word; /* static data: symmetric in every round */
static long ctx_word;  /* written through a context of its own */
static long sum_src, sum_dst;
static int me0 = -1, npes0 = -1;
static int failures_down; /* checks failed while Shoal was down (PE_CHECK needs it up) */

/* The process's thread count, from /proc (0 where it cannot be read). */
static int thread_count(void)
{
    char line[128];
    int n = 0;
    FILE *f = fopen("/proc/self/status", "r");

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL)
        if (sscanf(line, "Threads: %d", &n) == 1)
            break;
    fclose(f);
    return n;
}

/* The process's open file descriptors. */
static int fd_count(void)
{
    struct dirent *e;
    DIR *d = opendir("/proc/self/fd");
    int n = 0;

    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the directory's own */
}

/* Whether the page at addr is mapped in this process. */
static int mapped(const void *addr)
{
    unsigned char vec;
    void *page = (void *)((uintptr_t)addr & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1));

    return mincore(page, 1, &vec) == 0 || errno != ENOMEM;
}

static void down_check(int ok, const char *what, int round)
{
    if (!ok) {
        fprintf(stderr, "FAIL PE %d round %d, after the last shmem_finalize: %s\n", me0, round,
                what);
        failures_down++;
    }
}

/* The second initialisation of a round: by shmem_init in even rounds, by
 * shmem_init_thread asking more than the first one got in odd rounds. The level
 * stays the first one's: the running library cannot change it. */
static void init_again(int round, int level)
{
    int provided = -1, initialized = 0;

    if (round % 2 == 0) {
        shmem_init();
    } else {
        PE_CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0,
                 "round %d: second shmem_init_thread failed", round);
        PE_CHECK(provided == level,
                 "round %d: a second shmem_init_thread provided %d, expected "
                 "the level in force, %d",
                 round, provided, level);
    }
    shmem_query_thread(&provided);
    PE_CHECK(provided == level, "round %d: shmem_query_thread says %d, expected %d", round,
             provided, level);
    shmem_query_initialized(&initialized);
    PE_CHECK(initialized == 1, "round %d: shmem_query_initialized is %d", round, initialized);
}

/* One round's use of the library; returns the heap block, still allocated. */
static long *work(int round)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes, i;
    long *heap = shmem_malloc(N * sizeof(long)), expect;
    shmem_team_t even = SHMEM_TEAM_INVALID;
    shmem_ctx_t ctx;

    PE_CHECK(me == me0 && npes == npes0, "round %d: PE %d of %d, the first round had %d of %d",
             round, me, npes, me0, npes0);
    PE_CHECK(heap != NULL, "round %d: shmem_malloc returned NULL", round);
    if (heap == NULL)
        return NULL;
    for (i = 0; i < N; i++)
        heap[i] = -1;
    data_word = 0;
    ctx_word = 0;
    shmem_barrier_all();
    for (i = 0; i < N; i++)
        shmem_long_p(&heap[i], 1000 * round + 10 * me + i, right);
    shmem_long_atomic_add(&data_word, me + 1, 0);
    PE_CHECK(shmem_ctx_create(0, &ctx) == 0, "round %d: shmem_ctx_create failed", round);
    shmem_ctx_long_p(ctx, &ctx_word, 100 * round + me, right);
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();
    for (i = 0; i < N; i++)
        PE_CHECK_EQ("heap word from the left neighbour",
                    1000 * round + 10 * ((me + npes - 1) % npes) + i, heap[i]);
    shmem_barrier_all();
    if (me == 0)
        PE_CHECK_EQ("static word's sum of AMOs", (long)npes * (npes + 1) / 2, data_word);
    PE_CHECK_EQ("static word put through a context", 100 * round + (me + npes - 1) % npes,
                ctx_word);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even);
    if (even != SHMEM_TEAM_INVALID) {
        sum_src = me + round;
        shmem_long_sum_reduce(even, &sum_dst, &sum_src, 1);
        expect = 0;
        for (i = 0; i < npes; i += 2)
            expect += i + round;
        PE_CHECK_EQ("sum over the even PEs' team", expect, sum_dst);
        shmem_team_destroy(even);
    }
    return heap;
}

int main(void)
{
    int threads_before = thread_count(), threads_after_first = 0, fds_after_first = 0, round, level,
        initialized;
    long *heap;

    for (round = 0; round < ROUNDS; round++) {
        /* Each round may ask another level: the library starts anew. */
        level = round == 1 ? SHMEM_THREAD_MULTIPLE : SHMEM_THREAD_SINGLE;
        if (round == 1) {
            int provided = -1;

            shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
            level = provided;
        } else {
            shmem_init();
        }
        if (round == 0) {
            pe_test_watchdog();
            me0 = shmem_my_pe();
            npes0 = shmem_n_pes();
        }
        init_again(round, level);
        heap = work(round);
        /* Not the last finalize: a barrier, and everything stays. */
        shmem_finalize();
        shmem_query_initialized(&initialized);
        PE_CHECK(initialized == 1,
                 "round %d: shmem_query_initialized is %d after the first of "
                 "two finalizes",
                 round, initialized);
        if (heap != NULL)
            PE_CHECK_EQ("heap word after the first of two finalizes",
                        1000 * round + 10 * ((me0 + npes0 - 1) % npes0), heap[0]);
        shmem_finalize();
        shmem_query_initialized(&initialized);
        down_check(initialized == 0, "shmem_query_initialized is still 1", round);
        down_check(heap == NULL || !mapped(heap), "the symmetric heap is still mapped", round);
        /* UCX's progress thread is joined; PMIx's stays with its connection. */
        if (round == 0) {
            threads_after_first = thread_count();
            fds_after_first = fd_count();
            if (getenv("PMIX_RANK") == NULL)
                down_check(threads_after_first == threads_before, "threads are left running",
                           round);
        } else {
            down_check(thread_count() == threads_after_first, "threads are left running", round);
            down_check(fd_count() == fds_after_first, "file descriptors are left open", round);
        }
    }
    shmem_init();
    pe_test_failures += failures_down;
    return pe_test_finish("pe_reinit");
}
