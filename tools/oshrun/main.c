/* oshrun: start N copies of a program on this node as the PEs of one Shoal job, with an
 * embedded PMIx server for their wire-up. Options and the job's life cycle live here. It must
 * never grow a remote launcher: multi-node jobs are handed to srun, prterun or mpirun
 * (delegate.c). */
#define _GNU_SOURCE /* pipe2 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <pmix.h>

#include "oshrun.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

extern char **environ;

static const char usage[] =
    "Usage: oshrun [-np|-n N] [--timeout SEC] [--bind-to core|none] [-x VAR[=VALUE]]...\n"
    "              [-H HOSTS | --hostfile FILE] [-N PES] [--launcher NAME] [--verbose]\n"
    "              [--] program [args...]\n"
    "Run N copies of program as the PEs of one OpenSHMEM job: on this node, or on\n"
    "several through an installed PMIx launcher.\n"
    "\n"
    "  -np N, -n N        number of PEs (default 1)\n"
    "  --timeout SEC      end the job after SEC seconds, exit status 124\n"
    "  --bind-to core     bind each PE to a CPU of its own (the default when the PEs\n"
    "                     are no more than oshrun's CPUs)\n"
    "  --bind-to none     let the PEs run on any of oshrun's CPUs (the default when\n"
    "                     there are more PEs than CPUs)\n"
    "  -x VAR[=VALUE]     set VAR to VALUE for the PEs (-x VAR alone passes it on, as all\n"
    "                     of oshrun's environment is)\n"
    "  -H, --host HOSTS   run on these nodes (a,b or a:2,b:2 with slots)\n"
    "  --hostfile FILE    run on the nodes FILE lists (one per line, \"slots=N\" optional)\n"
    "  -N PES             PEs per node\n"
    "  --launcher NAME    the launcher for several nodes: srun, mpirun (Open MPI's) or\n"
    "                     prterun (default: srun inside a Slurm allocation, else the\n"
    "                     first of mpirun and prterun found in PATH)\n"
    "  -v, --verbose      print the launcher command before running it\n"
    "  -h, --help         show this help\n"
    "  -V, --version      show the version\n"
    "\n"
    "Without -H, --hostfile or -N, oshrun starts the PEs on this node itself. With any\n"
    "of them it runs the launcher, which starts the PEs wherever it places them; the\n"
    "PEs get oshrun's SHMEM_*, SHOAL_* and UCX_* variables and each -x.\n"
    "Exit status: the failing PE's status (128+signal if killed), 124 on timeout,\n"
    "127 if the program cannot be run, 2 on a usage error.\n";

void shoal_oshrun_wake(shoal_job_t *job)
{
    char c = 0;

    if (write(job->wake[1], &c, 1) < 0) {
        /* pipe full: the main thread has a wake-up pending anyway */
    }
}

char **shoal_oshrun_env_dup(char **env)
{
    size_t n = 0;
    char **copy;

    while (env[n] != NULL) {
        n++;
    }
    copy = calloc(n + 1, sizeof(*copy));
    for (size_t i = 0; copy != NULL && i < n; i++) {
        copy[i] = strdup(env[i]);
        if (copy[i] == NULL) {
            shoal_oshrun_env_free(copy);
            copy = NULL;
        }
    }
    if (copy == NULL) {
        fprintf(stderr, "oshrun: out of memory\n");
    }
    return copy;
}

void shoal_oshrun_env_free(char **env)
{
    for (size_t i = 0; env != NULL && env[i] != NULL; i++) {
        free(env[i]);
    }
    free(env);
}

int shoal_oshrun_env_put(char ***envp, const char *assign)
{
    size_t len = strcspn(assign, "="), n;
    char **env = *envp, *s = strdup(assign);

    if (s == NULL) {
        return -1;
    }
    for (n = 0; env[n] != NULL; n++) {
        if (strncmp(env[n], assign, len) == 0 && env[n][len] == '=') {
            free(env[n]);
            env[n] = s;
            return 0;
        }
    }
    env = realloc(env, (n + 2) * sizeof(*env));
    if (env == NULL) {
        free(s);
        return -1;
    }
    env[n] = s;
    env[n + 1] = NULL;
    *envp = env;
    return 0;
}

/* A number of PEs: a whole number from 1 to SHOAL_OSHRUN_MAX_NP; 0 when it is one. */
static int parse_pes(const char *text, int *out)
{
    char *end;
    long n;

    errno = 0;
    n = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || n < 1 || n > SHOAL_OSHRUN_MAX_NP) {
        return -1;
    }
    *out = (int)n;
    return 0;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "oshrun: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see oshrun --help)\n");
    return 2;
}

/* Returns -1 when the options are good, else oshrun's exit status. */
static int parse_args(shoal_job_t *job, int argc, char **argv)
{
    int i;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL, *eq = strchr(a, '=');
        size_t nlen = eq != NULL ? (size_t)(eq - a) : strlen(a);
        char *end;

#define IS(name) (nlen == strlen(name) && strncmp(a, name, nlen) == 0)
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            break;
        }
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (IS("-h") || IS("--help") || IS("-help")) {
            fputs(usage, stdout);
            return 0;
        }
        if (IS("-V") || IS("--version") || IS("-version")) {
            printf("oshrun (Shoal) %s, PMIx %s\n", PACKAGE_VERSION, PMIx_Get_version());
            return 0;
        }
        if (IS("-v") || IS("--verbose") || IS("-verbose")) {
            job->verbose = 1;
            continue;
        }
        if (!(IS("-np") || IS("--np") || IS("-n") || IS("--n") || IS("--timeout") ||
              IS("-timeout") || IS("-x") || IS("--bind-to") || IS("-bind-to") || IS("-H") ||
              IS("--host") || IS("-host") || IS("--hostfile") || IS("-hostfile") ||
              IS("--machinefile") || IS("-machinefile") || IS("-N") || IS("--npernode") ||
              IS("-npernode") || IS("--launcher"))) {
            return usage_error("unknown option '%s'", a);
        }
        if (eq != NULL) {
            val = eq + 1;
        } else if (i + 1 < argc) {
            val = argv[++i];
        } else {
            return usage_error("option %s needs a value", a);
        }
        if (IS("-H") || IS("--host") || IS("-host")) {
            if (val[0] == '\0') {
                return usage_error("%s", "-H needs a list of hosts");
            }
            job->hosts = val;
        } else if (IS("--hostfile") || IS("-hostfile") || IS("--machinefile") ||
                   IS("-machinefile")) {
            if (access(val, R_OK) != 0) {
                return usage_error("cannot read the hostfile '%s'", val);
            }
            job->hostfile = val;
        } else if (IS("--launcher")) {
            if (strcmp(val, "srun") != 0 && strcmp(val, "mpirun") != 0 &&
                strcmp(val, "prterun") != 0) {
                return usage_error("--launcher takes srun, mpirun or prterun, got '%s'", val);
            }
            job->launcher = val;
        } else if (IS("-N") || IS("--npernode") || IS("-npernode")) {
            if (parse_pes(val, &job->npernode) != 0) {
                return usage_error("-N takes a positive number of PEs per node, got '%s'", val);
            }
        } else if (IS("-x")) {
            char **grown;

            if (val[0] == '\0' || val[0] == '=') {
                return usage_error("-x needs VAR or VAR=VALUE, got '%s'", val);
            }
            grown = realloc(job->xvars, (size_t)(job->nxvars + 1) * sizeof(*grown));
            if (grown == NULL) {
                fprintf(stderr, "oshrun: out of memory\n");
                return 1;
            }
            job->xvars = grown;
            job->xvars[job->nxvars++] = (char *)val;
            if (strchr(val, '=') != NULL && shoal_oshrun_env_put(&job->env, val) != 0) {
                fprintf(stderr, "oshrun: out of memory\n");
                return 1;
            }
        } else if (IS("--bind-to") || IS("-bind-to")) {
            if (strcmp(val, "core") != 0 && strcmp(val, "none") != 0) {
                return usage_error("--bind-to takes core or none, got '%s'", val);
            }
            job->bind = strcmp(val, "core") == 0;
        } else if (IS("--timeout") || IS("-timeout")) {
            errno = 0;
            job->timeout = strtod(val, &end);
            if (errno != 0 || end == val || *end != '\0' || !(job->timeout > 0)) {
                return usage_error("--timeout must be a positive number of seconds, got '%s'", val);
            }
            job->timeout_arg = val;
        } else {
            if (parse_pes(val, &job->np) != 0) {
                return usage_error("the number of PEs must be a positive integer, got '%s'", val);
            }
            job->np_set = 1;
        }
#undef IS
    }
    if (i >= argc) {
        return usage_error("%s", "no program to run");
    }
    job->argv = &argv[i];
    return -1;
}

/* Which CPU each PE gets, if any. Binding keeps a PE that waits in a polling loop on
 * its own CPU, where the scheduler would otherwise move it under load; with more
 * PEs than CPUs the PEs must share, and binding would only pin them to one. */
static int plan_binding(shoal_job_t *job)
{
    cpu_set_t set;
    int cpu;

    if (job->bind == 0 || sched_getaffinity(0, sizeof(set), &set) != 0) {
        job->bind = 0;
        return 0;
    }
    job->cpus = calloc((size_t)CPU_COUNT(&set) + 1, sizeof(int));
    if (job->cpus == NULL) {
        fprintf(stderr, "oshrun: out of memory\n");
        return 1;
    }
    for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &set)) {
            job->cpus[job->ncpus++] = cpu;
        }
    }
    if (job->np > job->ncpus) {
        if (job->bind == 1) {
            fprintf(stderr, "oshrun: --bind-to core: %d PEs but only %d CPUs to bind them to; "
                    "use --bind-to none to let them share\n", job->np, job->ncpus);
            return 2;
        }
        job->bind = 0;
        return 0;
    }
    job->bind = 1;
    return 0;
}

char *shoal_oshrun_path_find(const char *prog, const char *path, int *err_out)
{
    struct stat st;
    char *found;

    *err_out = ENOENT;
    if (path == NULL) {
        path = "/usr/local/bin:/usr/bin:/bin"; /* execvp's own choice without a PATH */
    }
    if (strchr(prog, '/') != NULL) {
        if (stat(prog, &st) != 0) {
            *err_out = errno;
            return NULL;
        }
        if (S_ISDIR(st.st_mode) || access(prog, X_OK) != 0) {
            *err_out = EACCES;
            return NULL;
        }
        found = strdup(prog);
        *err_out = found != NULL ? 0 : ENOMEM;
        return found;
    }
    while (*prog != '\0') {
        size_t dlen = strcspn(path, ":");
        char buf[PATH_MAX];

        snprintf(buf, sizeof(buf), "%.*s%s%s", (int)dlen, dlen ? path : ".", "/", prog);
        if (stat(buf, &st) == 0 && !S_ISDIR(st.st_mode)) {
            if (access(buf, X_OK) == 0) {
                found = strdup(buf);
                *err_out = found != NULL ? 0 : ENOMEM;
                return found;
            }
            *err_out = EACCES;
        }
        if (path[dlen] == '\0') {
            break;
        }
        path += dlen + 1;
    }
    return NULL;
}

/* What execvp would run, found now so that a typo fails once, before anything starts. */
static int resolve_path(shoal_job_t *job)
{
    const char *path = NULL;
    int err;

    for (char **e = job->env; *e != NULL; e++) {
        if (strncmp(*e, "PATH=", 5) == 0) {
            path = *e + 5;
        }
    }
    job->path = shoal_oshrun_path_find(job->argv[0], path, &err);
    if (job->path != NULL) {
        return 0;
    }
    fprintf(stderr, "oshrun: cannot run '%s': %s\n", job->argv[0], strerror(err));
    return err == ENOMEM ? 1 : 127;
}

/* The PEs get oshrun's environment minus what an outer PMIx launcher put there. */
static char **base_env(void)
{
    char **env = shoal_oshrun_env_dup(environ);
    size_t j = 0;

    for (size_t i = 0; env != NULL && env[i] != NULL; i++) {
        if (strncmp(env[i], "PMIX_", 5) == 0 && strncmp(env[i], "PMIX_MCA_", 9) != 0) {
            free(env[i]);
        } else {
            env[j++] = env[i];
        }
    }
    if (env != NULL) {
        env[j] = NULL;
    }
    return env;
}

/* After a failed start: end whatever was forked, without a message of its own. */
static void end_partial_job(shoal_job_t *job)
{
    shoal_oshrun_procs_kill(job, SIGKILL);
    for (int r = 0; r < job->np; r++) {
        if (job->pes[r].pid > 0) {
            waitpid(job->pes[r].pid, NULL, 0);
        }
    }
}

int main(int argc, char **argv)
{
    shoal_job_t job = {.np = 1,
                       .bind = -1,
                       .lock = PTHREAD_MUTEX_INITIALIZER,
                       .abort_rank = -1,
                       .wake = {-1, -1},
                       .devnull = -1};
    int status;

    job.env = base_env();
    if (job.env == NULL) {
        return 1;
    }
    status = parse_args(&job, argc, argv);
    if (status < 0 && (job.hosts != NULL || job.hostfile != NULL || job.npernode > 0)) {
        status = shoal_oshrun_delegate(&job);
        goto err_env;
    }
    if (status < 0 && job.launcher != NULL) {
        status = usage_error("%s", "--launcher needs -H, --hostfile or -N");
    }
    if (status >= 0 || (status = resolve_path(&job)) != 0) {
        goto err_env;
    }
    status = 1;
    job.pes = calloc((size_t)job.np, sizeof(*job.pes));
    if (job.pes == NULL) {
        goto err_env;
    }
    for (int r = 0; r < job.np; r++) {
        job.pes[r].errpipe = -1;
    }
    status = plan_binding(&job);
    if (status != 0) {
        goto err_fds;
    }
    status = 1;
    snprintf(job.nspace, sizeof(job.nspace), "shoal.%d", (int)getpid());
    if (pipe2(job.wake, O_CLOEXEC | O_NONBLOCK) != 0 ||
        (job.devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
        fprintf(stderr, "oshrun: %s\n", strerror(errno));
        goto err_fds;
    }
    /* before PMIx starts its threads, so that they inherit the blocked mask */
    shoal_oshrun_procs_block_signals();
    if (shoal_oshrun_tmpdir_make(&job) != 0) {
        goto err_fds;
    }
    if (shoal_oshrun_server_init(&job) != 0) {
        goto err_tmpdir;
    }
    if (shoal_oshrun_server_register(&job) != 0) {
        goto err_server;
    }
    if (shoal_oshrun_procs_spawn(&job) != 0) {
        end_partial_job(&job);
        goto err_server;
    }
    status = shoal_oshrun_procs_wait(&job);
    if (status != 0 || job.abort_rank >= 0 || !shoal_oshrun_server_can_cleanup(&job)) {
        /* PMIx's teardown is not safe after lost or refused clients (see server.c), an
         * abort with status 0 (shmem_global_exit(0)) included: the PEs are all reaped, so
         * remove our files and leave without it */
        shoal_oshrun_tmpdir_remove(&job);
        fflush(NULL);
        _exit(status);
    }

err_server:
    shoal_oshrun_server_cleanup(&job);
err_tmpdir:
    shoal_oshrun_tmpdir_remove(&job);
err_fds:
    for (int r = 0; job.pes != NULL && r < job.np; r++) {
        if (job.pes[r].errpipe >= 0) {
            close(job.pes[r].errpipe);
        }
    }
    if (job.devnull >= 0) {
        close(job.devnull);
    }
    if (job.wake[0] >= 0) {
        close(job.wake[0]);
        close(job.wake[1]);
    }
    free(job.pes);
    free(job.cpus);
    free(job.abort_msg);
    free(job.path);
err_env:
    free(job.xvars);
    shoal_oshrun_env_free(job.env);
    return status;
}
