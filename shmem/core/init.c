/* Start-up and shut-down of a PE. Reads the environment once, makes the
 * segments, wires up through the runtime, and times each step for SHMEM_INFO.
 * Order matters: the data segment is remapped before any other thread exists.
 * Above every room of the core, it hands the lower ones what they are told
 * (the hang reporter's reads, the statistics' figures); no room calls it. */
#include "config.h"
#include "shmem.h"
#include "shoal_coll.h"
#include "shoal_core.h"
#include "shoal_core_gpu.h"
#include "shoal_hang.h"
#include "shoal_rt.h"
#include "shoal_stats.h"
#include "shoal_status.h"
#include "shoal_wireup.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* What the hang reporter reads of this PE. */
static int hang_find(const void *addr, size_t *off_out)
{
    return shoal_segment_find(addr, off_out);
}

static const shoal_hang_env_t hang_env = {.read = shoal_peer_read, .find = hang_find};

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A PE that fails, its line printed: peers that wait for it in a collective
 * leave the ending to the launcher (shoal_coll_mark_left). */
static void abort_job(int status, const char *message)
{
    if (shoal_core_state.initialized)
        shoal_coll_mark_left(SHOAL_LEFT_FAILED);
    shoal_rt_abort(status, message);
}

static void finalize(int by_exit);
static int exit_hooked; /* finalize_at_exit is registered */

/* A program that ends without shmem_finalize. With status 0 (every PE returning
 * from main, say) the exit finalizes for it, collectively; a peer still waiting
 * for it in a collective then ends the job (see shoal_coll_mark_left). With any
 * other status the PE is failing: it ends the job at once, with its status. */
static void exit_hook(int status)
{
    char msg[128];

    if (!shoal_core_state.initialized) {
        shoal_rt_close(); /* after the last shmem_finalize: the launcher's connection */
        return;
    }
    if (status == 0) {
        finalize(1);
        return;
    }
    /* exit(3) flushes stdio only after its handlers, and this one never returns:
     * flush here, or what the program printed to a file or pipe is lost. */
    fflush(stdout);
    fflush(stderr);
    snprintf(msg, sizeof(msg), "exit status %d before shmem_finalize; ending the job", status);
    shoal_log_error("%s", msg);
    abort_job(status, msg);
}

#ifdef __GLIBC__
static void finalize_at_exit(int status, void *arg)
{
    (void)arg;
    exit_hook(status);
}
#else
static void finalize_at_exit(void)
{
    exit_hook(0); /* no way to learn the status: finalize as before */
}
#endif

static void fail(const char *routine, const char *what, int status)
{
    shoal_log_fatal("%s: %s failed (%s)", routine, what, shoal_status_string(status));
}

static void print_info(const double *t, int net_on, const char *gpu)
{
    printf("Shoal %s, OpenSHMEM %d.%d, %d PEs\n", PACKAGE_VERSION, SHMEM_MAJOR_VERSION,
           SHMEM_MINOR_VERSION, shoal_core_state.n_pes);
    if (!shoal_core_state.settings.info) {
        fflush(stdout);
        return;
    }
    printf("Settings:\n");
    shoal_env_print(stdout, &shoal_core_state.settings);
    printf("Transports: same-node peers by %s, other nodes by %s\n",
           shoal_core_state.settings.transport == SHOAL_TRANSPORT_UCX ? "UCX" : "load/store",
           net_on ? "UCX" : "UCX (not started: every PE is on this node)");
    printf("Atomics: %s\n",
           shoal_core_state.amo_net
               ? "UCX for every AMO, this PE's own included (the job spans nodes "
                 "and a NIC may do UCX's AMOs)"
           : net_on && !shoal_core_state.one_node
               ? "CPU atomics within a node, UCX between nodes (UCX's AMOs are CPU atomics "
                 "on the target: no NIC atomics among its transports, or UCX_ATOMIC_MODE=cpu)"
               : "CPU atomics on mapped memory (UCX's same-node transports use "
                 "CPU atomics on the same memory)");
    if (gpu[0] != '\0')
        printf("GPU: %s\n", gpu);
    if (shoal_env_oshrun_binding() != NULL) /* what oshrun chose, and why */
        printf("oshrun binding: %s\n", shoal_env_oshrun_binding());
    printf("Start-up (ms): runtime %.2f, UCX %.2f, segments %.2f, wire-up %.2f, GPU %.2f, "
           "total %.2f\n",
           t[1] - t[0], t[2] - t[1], t[3] - t[2], t[4] - t[3], t[5] - t[4], t[5] - t[0]);
    fflush(stdout);
}

/* Whether this node runs more PEs (local) than they have cores: more than the
 * node has, or than this PE's affinity mask allows when that holds several (a
 * mask of one is a PE that oshrun bound to a core of its own). */
static int oversubscribed(int local)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;

    if (online > 0 && local > online)
        return 1;
    return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 1 &&
           local > CPU_COUNT(&set);
}

/* A SHMEM_*, SHOAL_* or SMA_* variable Shoal does not read is most likely a typo
 * (SHMEM_SYMETRIC_SIZE): say so, once, from PE 0 (every PE has the same list, as
 * a rule; the others say it with SHMEM_DEBUG). */
static void warn_unknown_settings(const char *routine)
{
    char name[128], near[64];
    int n = shoal_env_unknown(NULL, name, sizeof(name), near, sizeof(near));

    if (n == 0)
        return;
    if (shoal_core_state.my_pe == 0)
        shoal_log_warn(
            "%s: environment variable %s is not a setting of Shoal's and is ignored%s%s%s "
            "(%d such variable%s; SHMEM_INFO=1 lists the settings)",
            routine, name, near[0] ? "; did you mean " : "", near, near[0] ? "?" : "", n,
            n > 1 ? "s" : "");
    else
        shoal_log_debug("%s: %d unknown SHMEM_/SHOAL_/SMA_ variables, the first %s", routine, n,
                        name);
}

/* Whether waits for collective tokens may sleep on a futex: only where every PE
 * of the job may, because a sender wakes a sleeper only if it sleeps too (it
 * otherwise sends its token without looking for one), and a sleeper nobody wakes
 * waits out its timeout on every token. Never with UCX up: a sleeping PE would
 * not progress its peers' UCX requests, so a job across nodes never sleeps. */
static int sleep_agreed(const char *routine)
{
    uint64_t here = shoal_core_state.spins_before_yield == 0 && shoal_core_state.direct_amo &&
                    shoal_core_state.net == NULL && shoal_core_state.settings.sleep_waits;
    int all;

    if (!shoal_core_state.one_node) /* the same answer on every PE, without asking */
        return 0;
    all = shoal_team_and(&shoal_team_world, here, routine) != 0;
    shoal_log_debug("sleeping waits: this PE %s, the job %s", here ? "may" : "may not",
                    all ? "sleeps" : "does not");
    return all;
}

void shoal_core_init(int requested_thread_level, const char *routine)
{
    char err[256], gpu[256];
    double t[6];
    int status, local_size;

    /* OpenSHMEM 1.6: each initialisation is matched by a finalize; one made
     * while Shoal is up only counts. One after the last finalize starts it
     * again from nothing, as the first did. */
    if (shoal_core_state.initialized) {
        shoal_core_state.init_count++;
        return;
    }
    t[0] = now_ms();
    if (shoal_env_parse(NULL, err, sizeof(err), &shoal_core_state.settings) != SHOAL_OK)
        shoal_log_fatal("%s: %s", routine, err);
    if (shoal_core_state.settings.debug)
        shoal_log_level = SHOAL_LOG_DEBUG;
    shoal_core_state.thread_level = requested_thread_level;
    /* The network component allocates the segments under SHOAL_TRANSPORT=ucx, but
     * not beside the GPU library: a UCX-allocated heap and the CUDA runtime crash
     * UCX 1.13 now and then when the job ends. */
    shoal_core_state.net_may_allocate =
        shoal_core_state.settings.transport == SHOAL_TRANSPORT_UCX && !shoal_core_gpu_linked();

    /* The data segment's pages are replaced (and, where SHOAL_TRANSPORT=ucx, then
     * replaced again by UCX's) before PMIx starts its threads. No library thread
     * writes the program's own globals (theirs live in their shared objects), so
     * only the program's threads could lose a write here: shmem_init(3) says none
     * may run yet. */
    status = shoal_segment_data_setup(&shoal_core_state.seg[SHOAL_SEG_DATA]);
    if (status != SHOAL_OK)
        fail(routine, "making global/static data symmetric", status);
    if (shoal_core_state.settings.transport == SHOAL_TRANSPORT_UCX) {
        status = shoal_core_net->create((unsigned)shoal_core_state.settings.progress_us,
                                        (unsigned)shoal_core_state.settings.peer_timeout_s,
                                        &shoal_core_state.net);
        if (status != SHOAL_OK)
            fail(routine, "starting UCX", status);
        shoal_segment_data_to_net();
    }

    status = shoal_rt_init(&shoal_core_state.my_pe, &shoal_core_state.n_pes, &local_size);
    if (status != SHOAL_OK)
        fail(routine, "connecting to the launcher", status);
    shoal_log_set_pe(shoal_core_state.my_pe);
    warn_unknown_settings(routine);
    if (shoal_core_state.n_pes > SHOAL_COLL_MAX_PES)
        shoal_log_fatal("%s: the job has %d PEs; Shoal's collectives count rounds for up to %d",
                        routine, shoal_core_state.n_pes, SHOAL_COLL_MAX_PES);
    shoal_log_set_abort_cb(abort_job);
    t[1] = now_ms();

    /* UCX is needed for other nodes, or for every peer when forced (then it also
     * allocates the heap, below). Once it is up, peers may need this PE to
     * progress while it computes: start the thread. */
    if (shoal_core_state.settings.transport == SHOAL_TRANSPORT_UCX && shoal_core_state.n_pes == 1) {
        /* a job of one PE has nobody to reach: no UCX, as without the setting */
        shoal_segment_data_from_net();
        shoal_core_net->destroy(shoal_core_state.net);
        shoal_core_state.net = NULL;
    }
    if (shoal_core_state.settings.transport == SHOAL_TRANSPORT_UCX
            ? shoal_core_state.n_pes > 1
            : local_size < shoal_core_state.n_pes) {
        status = shoal_core_state.net != NULL
                     ? SHOAL_OK
                     : shoal_core_net->create((unsigned)shoal_core_state.settings.progress_us,
                                              (unsigned)shoal_core_state.settings.peer_timeout_s,
                                              &shoal_core_state.net);
        if (status == SHOAL_OK) {
            shoal_core_state.net_main = shoal_core_net->main_worker(shoal_core_state.net);
            status = shoal_core_net->progress_start(shoal_core_state.net);
        }
        if (status != SHOAL_OK)
            fail(routine, "starting UCX", status);
        /* One atomicity domain. On one node UCX's shared-memory transports use
         * CPU atomics too. Across nodes, where a NIC may do UCX's AMOs, every AMO
         * takes UCX so that its atomics never meet the CPU's; where UCX's AMOs are
         * CPU atomics anyway (software AMOs over TCP, UCX_ATOMIC_MODE=cpu), the
         * PEs of a node keep CPU atomics on each other's memory. */
        shoal_core_state.amo_net = local_size < shoal_core_state.n_pes &&
                                   !shoal_core_net->cpu_atomics(shoal_core_state.net);
    }
    t[2] = now_ms();

    status = shoal_segment_heap_setup(shoal_core_state.settings.symmetric_size,
                                      &shoal_core_state.seg[SHOAL_SEG_HEAP]);
    if (status != SHOAL_OK)
        shoal_log_fatal("%s: cannot create a symmetric heap of %zu bytes (%m); set "
                        "SHMEM_SYMMETRIC_SIZE to a size this machine can map",
                        routine, shoal_core_state.settings.symmetric_size);
    if (shoal_heap_setup(&shoal_core_state.heap, shoal_core_state.settings.symmetric_size) !=
            SHOAL_OK ||
        shoal_team_setup(local_size) != SHOAL_OK || shoal_ctx_setup(&shoal_team_world) != SHOAL_OK)
        shoal_log_fatal("%s: SHMEM_SYMMETRIC_SIZE (%zu bytes) is too small for Shoal's own "
                        "synchronisation counters (%zu teams of %zu bytes; see SHOAL_TEAMS_MAX)",
                        routine, shoal_core_state.settings.symmetric_size,
                        shoal_core_state.settings.teams_max, shoal_team_slot_bytes());
    if (shoal_peer_setup() != SHOAL_OK)
        fail(routine, "allocating the peer table", SHOAL_ERR_NO_MEMORY);
    t[3] = now_ms();

    /* the teams' counts exist now */
    shoal_hang_setup(shoal_core_state.settings.hang_report_s, &hang_env);
    status = shoal_wireup_publish();
    if (status == SHOAL_OK)
        status = shoal_rt_exchange();
    if (status != SHOAL_OK)
        fail(routine, "exchanging wire-up data", status);
    shoal_core_state.initialized = 1;
    shoal_core_state.finalized = 0;
    shoal_core_state.init_count = 1;
    shoal_core_state.direct_amo = !shoal_core_state.amo_net;
    /* SHOAL_STATS counts the program's operations where they are not direct. */
    shoal_core_state.direct_pes = shoal_core_state.settings.check || shoal_core_state.settings.stats
                                      ? 0
                                      : shoal_core_state.n_pes;
    shoal_core_state.direct_amo_pes = shoal_core_state.direct_amo ? shoal_core_state.direct_pes : 0;
    shoal_core_state.direct_coll_pes = shoal_core_state.settings.check ? 0 : shoal_core_state.n_pes;
    shoal_core_state.spins_before_yield = oversubscribed(local_size) ? 0 : 64;
    shoal_core_state.one_node = local_size >= shoal_core_state.n_pes;
    shoal_core_state.sleep_waits = sleep_agreed(routine);
    shoal_stats_setup((int)shoal_core_state.settings.stats, /* after init's own collectives */
                      shoal_core_state.heap.in_use);
    t[4] = now_ms();
    /* Before atexit: the GPU library's runtime then outlives finalize_at_exit. */
    shoal_core_gpu_init(gpu, sizeof(gpu));
    if (!exit_hooked) { /* once per process, however often Shoal starts */
#ifdef __GLIBC__
        on_exit(finalize_at_exit, NULL);
#else
        atexit(finalize_at_exit);
#endif
        exit_hooked = 1;
    }
    t[5] = now_ms();
    if (shoal_core_state.my_pe == 0 &&
        (shoal_core_state.settings.info || shoal_core_state.settings.version))
        print_info(t, shoal_core_state.net != NULL, gpu);
}

/* A finalize that leaves an initialisation unmatched (all but the last, which
 * matches the first) leaves Shoal up: it only synchronises (quiet and barrier,
 * as shmem_barrier_all). */
void shoal_core_finalize(void)
{
    if (shoal_core_state.initialized && shoal_core_state.init_count > 1) {
        shoal_core_state.init_count--;
        shoal_core_gpu_check();
        shoal_coll_barrier(&shoal_team_world.pset, 1, "shmem_finalize");
        return;
    }
    finalize(0);
}

/* by_exit: the implicit finalize of a PE that exits with status 0 without it. */
static void finalize(int by_exit)
{
    if (!shoal_core_state.initialized)
        return;
    /* A PE whose kernel failed reports it instead of waiting in the barrier. */
    shoal_core_gpu_check();
    /* PMIx's fence, not a barrier on the world team's counters: those would let a
     * PE that is still in a collective count this PE's arrival as its own, return
     * from it, and then wait forever. The mark makes such a PE end the job. */
    shoal_core_quiet_all();
    shoal_core_quiet_tokens();
    shoal_coll_mark_left(by_exit ? SHOAL_LEFT_EXIT : SHOAL_LEFT_FINALIZE);
    /* SHOAL_STATS: this PE's sums, which PE 0 prints after */
    shoal_stats_publish(shoal_core_state.my_pe, shoal_core_state.heap.in_use_max,
                        shoal_core_state.heap.capacity);
    if (shoal_rt_barrier() != SHOAL_OK) /* said why; the launcher ends the job */
        shoal_log_fatal("shmem_finalize: cannot synchronise with the other PEs");
    shoal_stats_report(shoal_core_state.my_pe, shoal_core_state.n_pes);
    shoal_ctx_cleanup();
    shoal_core_state.direct_pes = shoal_core_state.direct_amo_pes =
        shoal_core_state.direct_coll_pes = 0;
    shoal_core_state.initialized = 0;
    shoal_core_state.init_count = 0;
    shoal_core_state.finalized = 1;
    shoal_core_gpu_finalize(); /* it unregisters the peers' heaps we unmap next */
    /* No PE touches another's memory any more. Endpoints close with a flush that
     * may need the peer's worker, so every PE closes before any worker goes. */
    shoal_peer_cleanup();
    shoal_rt_barrier();
    shoal_segment_data_from_net();
    shoal_core_net->destroy(shoal_core_state.net);
    shoal_core_state.net = NULL;
    shoal_core_state.net_main = NULL;
    shoal_hang_cleanup();
    shoal_coll_scratch_cleanup();
    shoal_team_cleanup();
    shoal_heap_cleanup(&shoal_core_state.heap);
    shoal_segment_heap_cleanup(&shoal_core_state.seg[SHOAL_SEG_HEAP]);
    if (by_exit) /* else kept for a later shmem_init, and closed at exit */
        shoal_rt_close();
}
