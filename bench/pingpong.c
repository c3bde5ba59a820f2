/* pingpong.c: ping-pong between PE 0 and the target PE, reported as half a round trip (the
 * definition raw.c uses for its cache-line ping-pong): shmem_long_p + shmem_long_wait_until,
 * and shmem_putmem_signal + shmem_signal_wait_until (emulated, and labelled so, before 1.5). */
#include "bench.h"

static long flag; /* each PE's copy is written only by the other PE */
static long seq;  /* both PEs step it in lockstep */
#if BENCH_SHMEM_15
static uint64_t sig;
#else
static long sig;
#endif
static char payload[8]; /* put_signal's data, static so both forms target the same memory */

typedef struct pp_arg {
    int me;
    int peer; /* the other PE, or -1 for a PE that sits the ping-pong out */
} pp_arg_t;

static void do_p_wait(void *arg, long n)
{
    pp_arg_t *a = arg;

    if (a->peer < 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        seq++;
        if (a->me == 0) {
            shmem_long_p(&flag, seq, a->peer);
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, seq);
        } else {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, seq);
            shmem_long_p(&flag, seq, a->peer);
        }
    }
}

static void send_signal(int pe)
{
    static const char src[8] = {1, 2, 3, 4, 5, 6, 7, 8};

#if BENCH_SHMEM_15
    shmem_putmem_signal(payload, src, sizeof(src), &sig, (uint64_t)seq, SHMEM_SIGNAL_SET, pe);
#else
    shmem_putmem(payload, src, sizeof(src), pe);
    shmem_fence();
    shmem_long_atomic_set(&sig, seq, pe);
#endif
}

static void wait_signal(void)
{
#if BENCH_SHMEM_15
    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, (uint64_t)seq);
#else
    shmem_long_wait_until(&sig, SHMEM_CMP_EQ, seq);
#endif
}

static void do_put_signal(void *arg, long n)
{
    pp_arg_t *a = arg;

    if (a->peer < 0) {
        return;
    }
    for (long i = 0; i < n; i++) {
        seq++;
        if (a->me == 0) {
            send_signal(a->peer);
            wait_signal();
        } else {
            wait_signal();
            send_signal(a->peer);
        }
    }
}

static const char *const notes[] = {
    "half round trip: PE 0 -> target -> PE 0, divided by 2",
    "p_wait = shmem_long_p, then shmem_long_wait_until on the reply",
#if BENCH_SHMEM_15
    "put_signal = shmem_putmem_signal (8 B, SHMEM_SIGNAL_SET), then shmem_signal_wait_until",
#else
    "put_signal EMULATED (OpenSHMEM < 1.5): putmem 8 B + fence + long atomic_set + wait_until",
#endif
    NULL,
};

int main(int argc, char **argv)
{
    bench_opts_t o;

    shmem_init();
    bench_opts_parse(&o, argc, argv, "8", "Ping-pong half round trip: p + wait_until, put_signal.");
    pp_arg_t a;
    int target = o.pe >= 0 ? o.pe : 1;
    a.me = shmem_my_pe();
    a.peer = a.me == 0 ? target : a.me == target ? 0 : -1;
    if (shmem_n_pes() < 2 || target == 0 || target >= shmem_n_pes()) {
        if (a.me == 0) {
            fprintf(stderr, "pingpong: needs 2 PEs or more and a target PE other than 0\n");
        }
        shmem_finalize();
        return 77;
    }
    bench_header(&o, "pingpong", notes);

    bench_row_t pw = {"p_wait", sizeof(long), 2, 0, "half_rtt=1"};
    if (bench_want(&o, pw.name, pw.size)) {
        bench_run(&o, &pw, do_p_wait, &a);
    }
    bench_row_t ps = {"put_signal", sizeof(payload), 2, 0,
                      BENCH_SHMEM_15 ? "half_rtt=1"
                                     : "half_rtt=1 emulated=putmem+fence+atomic_set"};
    if (bench_want(&o, ps.name, ps.size)) {
        bench_run(&o, &ps, do_put_signal, &a);
    }

    bench_end(&o);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
