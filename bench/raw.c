/* raw.c: what the hardware does without any SHMEM, the reference the compare script divides
 * by: a cache-line ping-pong between two processes (fork + MAP_SHARED, half a round trip, as
 * pingpong.c counts it), an uncontended lock xadd, and single-thread memcpy bandwidth. */
#define BENCH_NO_SHMEM 1
#include "bench.h"

#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

typedef struct pp_shared {
    volatile long ping; /* written by the parent */
    char pad1[120];
    volatile long pong; /* written by the child; 128 B apart: no shared or adjacent line */
    char pad2[120];
} pp_shared_t;

static pp_shared_t *pp;
static long pp_seq;

/* Put the calling process on the n-th CPU it may run on, as SHMEM launchers bind PEs to
 * cores; nothing happens when there are fewer CPUs. */
static void bind_nth_cpu(int n)
{
    cpu_set_t set, one;

    if (sched_getaffinity(0, sizeof(set), &set) != 0) {
        return;
    }
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &set) && n-- == 0) {
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            sched_setaffinity(0, sizeof(one), &one);
            return;
        }
    }
}

/* Spin on a word; after 4096 polls yield, so that two spinners on one oversubscribed core
 * hand over in microseconds instead of time slices (free cores never get that far). */
static inline void spin_until_eq(volatile long *w, long v)
{
    for (unsigned k = 1; __atomic_load_n(w, __ATOMIC_ACQUIRE) != v; k++) {
        if ((k & 4095) == 0) {
            sched_yield();
        }
    }
}

static void do_pingpong(void *arg, long n)
{
    (void)arg;
    for (long i = 0; i < n; i++) {
        pp_seq++;
        __atomic_store_n(&pp->ping, pp_seq, __ATOMIC_RELEASE);
        spin_until_eq(&pp->pong, pp_seq);
    }
}

/* the child: echo each new ping value until it reads a negative one (or the parent dies) */
static void pong_loop(void)
{
    long last = 0, v;

    for (;;) {
        for (unsigned k = 1; (v = __atomic_load_n(&pp->ping, __ATOMIC_ACQUIRE)) == last; k++) {
            if ((k & 4095) == 0) {
                sched_yield();
            }
        }
        if (v < 0) {
            _exit(0);
        }
        __atomic_store_n(&pp->pong, v, __ATOMIC_RELEASE);
        last = v;
    }
}

static volatile long xadd_sink;

static void do_xadd(void *arg, long n)
{
    long *x = arg, s = 0;

    for (long i = 0; i < n; i++) {
        s += __atomic_fetch_add(x, 1, __ATOMIC_SEQ_CST); /* lock xadd: the result is used */
    }
    xadd_sink = s;
}

typedef struct copy_arg {
    char *dst;
    const char *src;
    size_t size;
} copy_arg_t;

static void do_memcpy(void *arg, long n)
{
    copy_arg_t *c = arg;

    for (long i = 0; i < n; i++) {
        memcpy(c->dst, c->src, c->size);
        __asm__ __volatile__("" : : "r"(c->dst) : "memory");
    }
}

/* DRAM-sized: a power of two at least twice the last-level cache, and at least 64 MiB */
static size_t dram_size(void)
{
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    size_t s = 64u << 20;

    while (l3 > 0 && s < 2 * (size_t)l3) {
        s *= 2;
    }
    return s;
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    char sizes[64], l3note[96];

    snprintf(sizes, sizeof(sizes), "32K,%zu", dram_size());
    bench_opts_parse(&o, argc, argv, sizes,
                     "Hardware reference: cache-line ping-pong, lock xadd, memcpy bandwidth.\n"
                     "Default memcpy sizes: 32 KiB (cache-hot) and a DRAM-sized one.");
    snprintf(l3note, sizeof(l3note),
             "last-level cache %ld KiB (sysconf); memcpy: src and dst "
             "of size bytes each",
             sysconf(_SC_LEVEL3_CACHE_SIZE) / 1024);
    const char *notes[] = {
        "cacheline_pingpong: fork + MAP_SHARED, one process on each of the first two CPUs, each "
        "spins on a line the other writes (yield every 4096 polls); half round trip",
        "lock_xadd: back-to-back uncontended __atomic_fetch_add on one local word",
        l3note,
        NULL,
    };
    bench_header(&o, "raw (no SHMEM)", notes);

    bench_row_t pr = {"cacheline_pingpong", 64, 2, 0, "half_rtt=1"};
    if (bench_want(&o, pr.name, 0)) {
        pp = mmap(NULL, sizeof(*pp), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (pp == MAP_FAILED) {
            perror("raw: mmap");
            return 1;
        }
        pid_t child = fork();
        if (child < 0) {
            perror("raw: fork");
            return 1;
        }
        if (child == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive a killed parent */
            bind_nth_cpu(1);
            pong_loop();
        }
        cpu_set_t saved;
        int restore = sched_getaffinity(0, sizeof(saved), &saved) == 0;
        bind_nth_cpu(0);
        bench_run(&o, &pr, do_pingpong, NULL);
        if (restore) {
            sched_setaffinity(0, sizeof(saved), &saved);
        }
        __atomic_store_n(&pp->ping, -1L, __ATOMIC_RELEASE);
        waitpid(child, NULL, 0);
        munmap(pp, sizeof(*pp));
    }

    static long x;
    bench_row_t xr = {"lock_xadd", 8, 1, 0, NULL};
    if (bench_want(&o, xr.name, 0)) {
        bench_run(&o, &xr, do_xadd, &x);
    }

    for (int i = 0; i < o.nsizes; i++) {
        bench_row_t mr = {"memcpy", o.sizes[i], 1, 1, NULL};
        if (!bench_want(&o, mr.name, mr.size)) {
            continue;
        }
        copy_arg_t c = {bench_alloc(mr.size), bench_alloc(mr.size), mr.size};
        bench_run(&o, &mr, do_memcpy, &c);
        free(c.dst);
        free((void *)c.src);
    }
    bench_end(&o);
    return 0;
}
