/* oshrun beyond one node: -H/--host, --hostfile and -N hand the job to an installed PMIx
 * launcher (srun inside a Slurm allocation, else Open MPI's mpirun, else PRRTE's prterun),
 * with oshrun's options translated. It starts nothing remotely itself: it runs the launcher
 * as a child, forwards the runtime's settings (SHMEM_*, SHOAL_*, UCX_* and every -x), ends
 * it at --timeout and passes its exit status on. */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oshrun.h"

extern char **environ;

typedef struct argv_buf {
    char **v;
    int n, max;
} argv_buf_t;

static int add(argv_buf_t *a, const char *s)
{
    if (a->n + 2 > a->max) {
        int want = a->max ? 2 * a->max : 32;
        char **grown = realloc(a->v, (size_t)want * sizeof(*grown));

        if (grown == NULL) {
            return -1;
        }
        a->v = grown;
        a->max = want;
    }
    a->v[a->n] = strdup(s);
    if (a->v[a->n] == NULL) {
        return -1;
    }
    a->v[++a->n] = NULL;
    return 0;
}

static void argv_free(argv_buf_t *a)
{
    for (int i = 0; i < a->n; i++) {
        free(a->v[i]);
    }
    free(a->v);
}

/* Whether `prog --version` says it is Open MPI's mpirun (another MPI's mpirun
 * speaks neither PMIx nor these options). */
static int is_open_mpi(const char *prog)
{
    char cmd[4200], line[256];
    int found = 0;
    FILE *p;

    snprintf(cmd, sizeof(cmd), "'%s' --version 2>/dev/null", prog);
    p = popen(cmd, "r");
    if (p == NULL) {
        return 0;
    }
    while (fgets(line, sizeof(line), p) != NULL) {
        found |= strstr(line, "Open MPI") != NULL;
    }
    pclose(p);
    return found;
}

/* Picks the launcher: --launcher if given, else srun inside a Slurm allocation, else
 * Open MPI's mpirun, else prterun. Sets *kind_out and returns its path. */
static char *find_launcher(const shoal_job_t *job, const char **kind_out)
{
    static const char *const kinds[] = {"srun", "mpirun", "prterun"};
    char *path;
    int err;

    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        if (job->launcher != NULL && strcmp(job->launcher, kinds[k]) != 0) {
            continue;
        }
        if (job->launcher == NULL && k == 0 && getenv("SLURM_JOB_ID") == NULL) {
            continue; /* srun needs an allocation */
        }
        path = shoal_oshrun_path_find(kinds[k], getenv("PATH"), &err);
        if (path != NULL && k == 1 && !is_open_mpi(path)) {
            free(path);
            path = NULL;
        }
        if (path != NULL) {
            *kind_out = kinds[k];
            return path;
        }
    }
    return NULL;
}

/* Whether NAME=VALUE configures the runtime, so that the PEs on other nodes need it. */
static int runtime_setting(const char *assign)
{
    return strncmp(assign, "SHMEM_", 6) == 0 || strncmp(assign, "SHOAL_", 6) == 0 ||
           strncmp(assign, "UCX_", 4) == 0 || strncmp(assign, "SMA_", 4) == 0;
}

/* The variables to forward, as a malloc'd NAME=VALUE array (NULL when out of memory):
 * the runtime's settings in oshrun's environment and each -x (VAR=VALUE as given, or
 * VAR with its value here), no name twice. */
static char **forwarded(const shoal_job_t *job)
{
    char **vars = calloc(1, sizeof(*vars));

    for (char **e = environ; vars != NULL && *e != NULL; e++) {
        if (runtime_setting(*e) && shoal_oshrun_env_put(&vars, *e) != 0) {
            goto err_free;
        }
    }
    for (int i = 0; vars != NULL && i < job->nxvars; i++) {
        const char *x = job->xvars[i], *value;
        char buf[8192];

        if (strchr(x, '=') == NULL) {
            value = getenv(x);
            if (value == NULL) {
                continue;
            }
            snprintf(buf, sizeof(buf), "%s=%s", x, value);
            x = buf;
        }
        if (shoal_oshrun_env_put(&vars, x) != 0) {
            goto err_free;
        }
    }
    return vars;

err_free:
    shoal_oshrun_env_free(vars);
    return NULL;
}

/* A host list as srun takes it: the names, without mpirun's ":slots". */
static void strip_slots(char *hosts)
{
    char *r = hosts, *w = hosts;

    while (*r != '\0') {
        if (*r == ':') {
            while (*r != '\0' && *r != ',') {
                r++;
            }
            continue;
        }
        *w++ = *r++;
    }
    *w = '\0';
}

/* --bind-to, --map-by, --oversubscribe and --tag-output in srun's words (--output-filename
 * was refused before: srun makes no directories) */
static int add_srun_placement(const shoal_job_t *job, argv_buf_t *cmd)
{
    static const char *const binds[] = {"--cpu-bind=none", "--cpu-bind=cores",
                                        "--cpu-bind=threads"};

    if (job->bind >= 0 && add(cmd, binds[job->bind]) != 0) {
        return -1;
    }
    if (job->map_arg != NULL && strchr(job->map_arg, ':') != job->map_arg &&
        add(cmd, job->map == SHOAL_OSHRUN_MAP_NODE ? "--distribution=cyclic"
                                                   : "--distribution=block") != 0) {
        return -1;
    }
    if (job->oversubscribe && add(cmd, "--overcommit") != 0) {
        return -1;
    }
    return job->tag_output ? add(cmd, "--label") : 0;
}

/* The same for mpirun and prterun, which take oshrun's spellings (-N became --map-by) */
static int add_mpirun_placement(const shoal_job_t *job, argv_buf_t *cmd)
{
    if (job->bind_arg != NULL && (add(cmd, "--bind-to") != 0 || add(cmd, job->bind_arg) != 0)) {
        return -1;
    }
    if (job->map_arg != NULL && job->npernode == 0 &&
        (add(cmd, "--map-by") != 0 || add(cmd, job->map_arg) != 0)) {
        return -1;
    }
    if (job->oversubscribe && add(cmd, "--oversubscribe") != 0) {
        return -1;
    }
    if (job->output_dir != NULL &&
        (add(cmd, "--output-filename") != 0 || add(cmd, job->output_dir) != 0)) {
        return -1;
    }
    return job->tag_output ? add(cmd, "--tag-output") : 0;
}

static int build_command(const shoal_job_t *job, const char *kind, const char *path,
                         argv_buf_t *cmd)
{
    char **vars = forwarded(job);
    char num[32], buf[8300];
    int rc = -1;

    if (vars == NULL || add(cmd, path) != 0) {
        goto out;
    }
    snprintf(num, sizeof(num), "%d", job->np);
    if (strcmp(kind, "srun") == 0) {
        if (add(cmd, "--mpi=pmix") != 0 ||
            (job->np_set && (add(cmd, "-n") != 0 || add(cmd, num) != 0))) {
            goto out;
        }
        if (job->npernode > 0) {
            snprintf(buf, sizeof(buf), "--ntasks-per-node=%d", job->npernode);
            if (add(cmd, buf) != 0) {
                goto out;
            }
        }
        if (job->hosts != NULL) {
            snprintf(buf, sizeof(buf), "--nodelist=%s", job->hosts);
            strip_slots(buf + strlen("--nodelist="));
            if (add(cmd, buf) != 0) {
                goto out;
            }
        }
        if (job->hostfile != NULL) {
            snprintf(buf, sizeof(buf), "--nodefile=%s", job->hostfile);
            if (add(cmd, buf) != 0) {
                goto out;
            }
        }
        if (add_srun_placement(job, cmd) != 0) {
            goto out;
        }
        /* srun passes its whole environment on; the -x values are set for the child below */
    } else {
        /* mpirun and prterun take the same spellings for these */
        if (job->np_set && (add(cmd, "-np") != 0 || add(cmd, num) != 0)) {
            goto out;
        }
        if (strcmp(kind, "mpirun") == 0 && geteuid() == 0 && add(cmd, "--allow-run-as-root") != 0) {
            goto out;
        }
        if (job->hosts != NULL && (add(cmd, "--host") != 0 || add(cmd, job->hosts) != 0)) {
            goto out;
        }
        if (job->hostfile != NULL &&
            (add(cmd, "--hostfile") != 0 || add(cmd, job->hostfile) != 0)) {
            goto out;
        }
        if (job->npernode > 0) {
            snprintf(buf, sizeof(buf), "ppr:%d:node", job->npernode);
            if (add(cmd, "--map-by") != 0 || add(cmd, buf) != 0) {
                goto out;
            }
        }
        if (add_mpirun_placement(job, cmd) != 0) {
            goto out;
        }
        for (char **v = vars; *v != NULL; v++) {
            if (add(cmd, "-x") != 0 || add(cmd, *v) != 0) {
                goto out;
            }
        }
    }
    for (char **a = job->argv; *a != NULL; a++) {
        if (add(cmd, *a) != 0) {
            goto out;
        }
    }
    rc = 0;
out:
    shoal_oshrun_env_free(vars);
    return rc;
}

static volatile sig_atomic_t launcher_pid;

/* SIGINT, SIGTERM and SIGHUP to oshrun go on to the launcher, which ends its PEs. */
static void forward_signal(int sig)
{
    if (launcher_pid > 0) {
        kill((pid_t)launcher_pid, sig);
    }
}

static void forward_signals(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = forward_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Runs the launcher in oshrun's process group (a Ctrl-C reaches both, and the launcher
 * ends its job; other signals to oshrun are forwarded); returns its exit status, 124 when --timeout
 * ended it: SIGTERM first, which the launcher answers by ending every PE, SIGKILL 5 s later. */
static int run_launcher(const shoal_job_t *job, char **cmd)
{
    struct timespec start;
    int wstatus, termed = 0, killed = 0;
    pid_t pid, got;

    clock_gettime(CLOCK_MONOTONIC, &start);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "oshrun: cannot start %s: %s\n", cmd[0], strerror(errno));
        return 1;
    }
    if (pid == 0) {
        for (int i = 0; i < job->nxvars; i++) { /* for srun, which forwards its environment */
            if (strchr(job->xvars[i], '=') != NULL) {
                putenv(job->xvars[i]);
            }
        }
        execv(cmd[0], cmd);
        fprintf(stderr, "oshrun: cannot run %s: %s\n", cmd[0], strerror(errno));
        _exit(127);
    }
    launcher_pid = pid;
    forward_signals();
    for (;;) {
        got = waitpid(pid, &wstatus, job->timeout > 0 ? WNOHANG : 0);
        if (got == pid) {
            break;
        }
        if (got < 0 && errno != EINTR) {
            return 1;
        }
        if (job->timeout > 0 && !termed && seconds_since(&start) > job->timeout) {
            fprintf(stderr, "oshrun: job timed out after %s s; ending the job\n", job->timeout_arg);
            kill(pid, SIGTERM);
            termed = 1;
        } else if (termed && !killed && seconds_since(&start) > job->timeout + 5) {
            kill(pid, SIGKILL);
            killed = 1;
        }
        if (got == 0) {
            usleep(20000);
        }
    }
    if (termed) {
        return 124;
    }
    if (WIFSIGNALED(wstatus)) {
        return 128 + WTERMSIG(wstatus);
    }
    return WEXITSTATUS(wstatus);
}

int shoal_oshrun_delegate(shoal_job_t *job)
{
    argv_buf_t cmd = {0};
    const char *kind = NULL;
    char *path = find_launcher(job, &kind);
    int status;

    if (job->npernode > 0 && job->map_arg != NULL) {
        free(path);
        return shoal_oshrun_usage_error("%s", "-N and --map-by both place the PEs: give one");
    }
    if (path != NULL && strcmp(kind, "srun") == 0 && job->output_dir != NULL) {
        free(path);
        return shoal_oshrun_usage_error(
            "%s", "--output-filename: srun makes no directories; use srun's --output");
    }
    if (path == NULL) {
        if (job->launcher != NULL) {
            fprintf(stderr, "oshrun: --launcher %s: %s not found in PATH%s\n", job->launcher,
                    job->launcher,
                    strcmp(job->launcher, "mpirun") == 0 ? " (or it is not Open MPI's)" : "");
        } else {
            fprintf(stderr, "oshrun: a job on several nodes needs a PMIx launcher and none was "
                            "found: install Open MPI (Debian: openmpi-bin) or PRRTE (prrte-bin), "
                            "or run inside a Slurm allocation\n");
        }
        return 127;
    }
    if (build_command(job, kind, path, &cmd) != 0) {
        fprintf(stderr, "oshrun: out of memory\n");
        free(path);
        argv_free(&cmd);
        return 1;
    }
    if (job->verbose) {
        fprintf(stderr, "oshrun: running:");
        for (int i = 0; i < cmd.n; i++) {
            fprintf(stderr, " %s", cmd.v[i]);
        }
        fprintf(stderr, "\n");
    }
    fflush(NULL);
    status = run_launcher(job, cmd.v);
    free(path);
    argv_free(&cmd);
    return status;
}
