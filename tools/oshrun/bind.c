/* Which CPUs each PE may run on. By default a PE is bound only where binding cannot hurt: to
 * a CPU of its own that nothing else is using. A PE bound to a busy CPU cannot move off it,
 * and one slow PE slows every barrier, so with fewer idle CPUs than PEs none is bound. An
 * explicit --bind-to is obeyed as given. Reads /proc and /sys; never changes oshrun's own
 * affinity. */
#define _GNU_SOURCE /* CPU_* */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "oshrun.h"

#define SAMPLE_NS 50000000L /* how long CPU use is watched: 5 ticks at 100 Hz */
#define PF_KTHREAD_FLAG 0x00200000u

typedef struct cpu {
    int id;     /* CPU number */
    int core;   /* lowest CPU number among its core's hardware threads */
    int thread; /* its place among the threads of its core that oshrun may use */
    int busy;   /* 1 busy with other work, 2 another process is bound to it alone */
} cpu_t;

/* The first number in a /sys file (a CPU list begins with its lowest); fallback if none. */
static int first_number(const char *path, int fallback)
{
    FILE *f = fopen(path, "r");
    int v;

    if (f == NULL) {
        return fallback;
    }
    if (fscanf(f, "%d", &v) != 1) {
        v = fallback;
    }
    fclose(f);
    return v;
}

/* oshrun's CPUs with their cores, in CPU order; the count, or -1 */
static int allowed_cpus(cpu_t **out)
{
    cpu_set_t set;
    char path[128];
    cpu_t *c;
    int n = 0;

    if (sched_getaffinity(0, sizeof(set), &set) != 0) {
        return -1;
    }
    c = calloc((size_t)CPU_COUNT(&set) + 1, sizeof(*c));
    if (c == NULL) {
        return -1;
    }
    for (int id = 0; id < CPU_SETSIZE; id++) {
        if (CPU_ISSET(id, &set)) {
            snprintf(path, sizeof(path),
                     "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", id);
            c[n].id = id;
            c[n].core = first_number(path, id);
            for (int j = 0; j < n; j++) {
                c[n].thread += c[j].core == c[n].core;
            }
            n++;
        }
    }
    *out = c;
    return n;
}

/* --map-by slot/core/node: a core's first thread before any core's second */
static int by_spread(const void *a, const void *b)
{
    const cpu_t *x = a, *y = b;

    if (x->thread != y->thread) {
        return x->thread - y->thread;
    }
    return x->core != y->core ? x->core - y->core : x->id - y->id;
}

/* --map-by hwthread: a core's threads together */
static int by_packing(const void *a, const void *b)
{
    const cpu_t *x = a, *y = b;

    return x->core != y->core ? x->core - y->core : x->thread - y->thread;
}

/* Busy and total time of every CPU from /proc/stat, indexed by CPU number; 0 or -1. */
static int read_stat(unsigned long long (*t)[2])
{
    unsigned long long v[8];
    char line[512];
    FILE *f = fopen("/proc/stat", "r");
    int id;

    if (f == NULL) {
        return -1;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        memset(v, 0, sizeof(v));
        if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &id, &v[0], &v[1], &v[2],
                   &v[3], &v[4], &v[5], &v[6], &v[7]) >= 5 &&
            id >= 0 && id < CPU_SETSIZE) {
            /* user nice system idle iowait irq softirq steal: idle and iowait are free time */
            t[id][0] = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
            t[id][1] = t[id][0] + v[3] + v[4];
        }
    }
    fclose(f);
    return 0;
}

/* Marks the CPUs busy more than half of a 50 ms look; 0, or -1 when /proc/stat is unread. */
static int sample_busy(cpu_t *c, int n)
{
    struct timespec pause = {0, SAMPLE_NS};
    unsigned long long(*t0)[2] = calloc(2 * CPU_SETSIZE, sizeof(*t0)), (*t1)[2];

    if (t0 == NULL) {
        return -1;
    }
    t1 = t0 + CPU_SETSIZE;
    if (read_stat(t0) != 0) {
        goto err_free;
    }
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
    }
    if (read_stat(t1) != 0) {
        goto err_free;
    }
    for (int i = 0; i < n; i++) {
        unsigned long long busy = t1[c[i].id][0] - t0[c[i].id][0];
        unsigned long long total = t1[c[i].id][1] - t0[c[i].id][1];

        c[i].busy = total > 0 && 2 * busy > total;
    }
    free(t0);
    return 0;

err_free:
    free(t0);
    return -1;
}

/* Whether pid is a kernel thread (they are bound to one CPU each, and hold none). */
static int kernel_thread(const char *pid)
{
    char path[300], buf[1024], *p;
    unsigned flags = 0;
    FILE *f;
    size_t len;

    snprintf(path, sizeof(path), "/proc/%s/stat", pid);
    f = fopen(path, "r");
    if (f == NULL) {
        return 1; /* gone: counts for nothing */
    }
    len = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[len] = '\0';
    p = strrchr(buf, ')');
    /* after the name: state ppid pgrp session tty_nr tpgid flags */
    if (p == NULL || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %u", &flags) != 1) {
        return 1;
    }
    return (flags & PF_KTHREAD_FLAG) != 0;
}

/* Marks the CPUs that another process is bound to alone (a PE of another job that has not
 * got busy yet, say), unless busy already. */
static void mark_held(cpu_t *c, int n)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    cpu_set_t set;

    while (d != NULL && (e = readdir(d)) != NULL) {
        pid_t pid = (pid_t)atoi(e->d_name);

        if (!isdigit((unsigned char)e->d_name[0]) || pid == getpid() ||
            sched_getaffinity(pid, sizeof(set), &set) != 0 || CPU_COUNT(&set) != 1 ||
            kernel_thread(e->d_name)) {
            continue;
        }
        for (int i = 0; i < n; i++) {
            if (CPU_ISSET(c[i].id, &set) && !c[i].busy) {
                c[i].busy = 2;
            }
        }
    }
    if (d != NULL) {
        closedir(d);
    }
}

/* "0-3,8" style: the CPUs of c[0..n), in that order, runs of consecutive numbers joined */
static void cpu_list(char *buf, size_t size, const cpu_t *c, int n)
{
    size_t used = 0;

    buf[0] = '\0';
    for (int i = 0; i < n && used < size; i++) {
        int j = i;

        while (j + 1 < n && c[j + 1].id == c[j].id + 1) {
            j++;
        }
        used += (size_t)snprintf(buf + used, size - used, j > i ? "%s%d-%d" : "%s%d", i ? "," : "",
                                 c[i].id, c[j].id);
        i = j;
    }
}

static int make_sets(shoal_job_t *job, int nsets)
{
    job->bind_sets = calloc((size_t)nsets, sizeof(cpu_set_t));
    if (job->bind_sets == NULL) {
        fprintf(stderr, "oshrun: out of memory\n");
        return 1;
    }
    job->nbind_sets = nsets;
    return 0;
}

/* --bind-to core or hwthread, in --map-by's order c[]: each PE its own core or thread. */
static int plan_explicit(shoal_job_t *job, cpu_t *c, int n)
{
    int core = job->bind == SHOAL_OSHRUN_BIND_CORE, units = 0;
    char list[256];

    for (int i = 0; i < n; i++) {
        units += !core || c[i].thread == 0;
    }
    if (job->np > units) {
        fprintf(stderr,
                "oshrun: --bind-to %s: %d PEs but only %d %s; use --bind-to none to share\n",
                job->bind_arg, job->np, units, core ? "cores" : "CPUs");
        return 2;
    }
    if (make_sets(job, job->np) != 0) {
        return 1;
    }
    for (int r = 0; r < job->np; r++) {
        for (int i = 0; i < n; i++) {
            if (core ? c[i].core == c[r].core : i == r) {
                CPU_SET(c[i].id, &job->bind_sets[r]);
            }
        }
    }
    cpu_list(list, sizeof(list), c, job->np);
    snprintf(job->binding, sizeof(job->binding), "%s: --bind-to %s (%d PEs on %s %s)",
             job->bind_arg, job->bind_arg, job->np, core ? "the cores of CPUs" : "CPUs", list);
    return 0;
}

/* No --bind-to: each PE on an idle CPU of its own (c[] in --map-by's order), if enough. */
static int plan_auto(shoal_job_t *job, cpu_t *c, int n)
{
    int idle = 0, busy = 0, shared = 0;
    char list[256];

    if (job->np > n) {
        snprintf(job->binding, sizeof(job->binding), "none: %d PEs for %d CPUs", job->np, n);
        return 0;
    }
    if (sample_busy(c, n) != 0) {
        snprintf(job->binding, sizeof(job->binding),
                 "none: cannot tell which CPUs are idle (/proc/stat: %s)", strerror(errno));
        return 0;
    }
    mark_held(c, n);
    for (int i = 0; i < n; i++) {
        busy += c[i].busy == 1;
        if (!c[i].busy) {
            c[idle++] = c[i]; /* keeps the order */
        }
    }
    if (idle < job->np) {
        snprintf(job->binding, sizeof(job->binding),
                 "none: %d PEs but only %d of %d CPUs idle (%d busy with other work, %d held)",
                 job->np, idle, n, busy, n - idle - busy);
        return 0;
    }
    if (make_sets(job, job->np) != 0) {
        return 1;
    }
    for (int r = 0; r < job->np; r++) {
        CPU_SET(c[r].id, &job->bind_sets[r]);
        for (int q = 0; q < r; q++) {
            shared |= c[q].core == c[r].core;
        }
    }
    cpu_list(list, sizeof(list), c, job->np);
    snprintf(job->binding, sizeof(job->binding), "%s: %d PEs on idle CPUs %s (%d of %d CPUs idle)",
             shared ? "hwthread" : "core", job->np, list, idle, n);
    return 0;
}

int shoal_oshrun_bind_plan(shoal_job_t *job)
{
    cpu_t *c = NULL;
    int n, status = 0;

    if (job->bind == SHOAL_OSHRUN_BIND_NONE) {
        snprintf(job->binding, sizeof(job->binding), "none: --bind-to none");
        return 0;
    }
    n = allowed_cpus(&c);
    if (n < 0) {
        snprintf(job->binding, sizeof(job->binding), "none: cannot read oshrun's CPUs (%s)",
                 strerror(errno));
        return 0;
    }
    qsort(c, (size_t)n, sizeof(*c), job->map == SHOAL_OSHRUN_MAP_HWTHREAD ? by_packing : by_spread);
    if (job->bind == SHOAL_OSHRUN_BIND_AUTO) {
        status = plan_auto(job, c, n);
    } else {
        status = plan_explicit(job, c, n);
    }
    free(c);
    return status;
}
