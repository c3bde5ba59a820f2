/* oshrun's options: mpirun's spellings where they mean something on one node (-np, -x,
 * --bind-to, --map-by, --tag-output, --output-filename, --oversubscribe), each with one or
 * two dashes. A wrong value is one line naming the option, the value and what it takes,
 * and exit status 2; nothing here starts or opens anything. */
#define _GNU_SOURCE /* cpu_set_t in oshrun.h */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <pmix.h>

#include "oshrun.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

static const char usage[] =
    "Usage: oshrun [-np|-n N] [--timeout SEC] [--bind-to WHAT] [--map-by HOW]\n"
    "              [-x VAR[=VALUE]]... [--tag-output] [--output-filename DIR]\n"
    "              [--oversubscribe] [-H HOSTS | --hostfile FILE] [-N PES]\n"
    "              [--launcher NAME] [--verbose] [--] program [args...]\n"
    "Run N copies of program as the PEs of one OpenSHMEM job: on this node, or on\n"
    "several through an installed PMIx launcher.\n"
    "\n"
    "  -np N, -n N        number of PEs (default 1)\n"
    "  --timeout SEC      end the job after SEC seconds, exit status 124; first each\n"
    "                     waiting PE says what it waits for (SIGUSR2, 2 s)\n"
    "  --bind-to core     bind each PE to a core of its own (all of its threads)\n"
    "  --bind-to hwthread bind each PE to a CPU (hardware thread) of its own\n"
    "  --bind-to none     let the PEs run on any of oshrun's CPUs\n"
    "                     Default: each PE on a CPU of its own when at least N of\n"
    "                     oshrun's CPUs are idle (sampled for 50 ms), else none\n"
    "  --map-by HOW       slot, core or node: PE r on the r-th core; hwthread: fill a\n"
    "                     core's hardware threads before the next core (default slot)\n"
    "  --tag-output       begin each line of the PEs' output with \"[PE r] \"\n"
    "  --output-filename DIR  write PE r's output to DIR/1/rank.r/stdout and stderr\n"
    "                     instead (r zero-padded as Open MPI does)\n"
    "  --oversubscribe    accepted as mpirun takes it; one node may always run more\n"
    "                     PEs than CPUs\n"
    "  -x VAR[=VALUE]     set VAR to VALUE for the PEs (-x VAR alone passes it on, as all\n"
    "                     of oshrun's environment is)\n"
    "  -H, --host HOSTS   run on these nodes (a,b or a:2,b:2 with slots)\n"
    "  --hostfile FILE    run on the nodes FILE lists (one per line, \"slots=N\" optional)\n"
    "  -N PES             PEs per node\n"
    "  --launcher NAME    the launcher for several nodes: srun, mpirun (Open MPI's) or\n"
    "                     prterun (default: srun inside a Slurm allocation, else the\n"
    "                     first of mpirun and prterun found in PATH)\n"
    "  -v, --verbose      print the binding chosen, or the launcher command\n"
    "  -h, --help         show this help\n"
    "  -V, --version      show the version\n"
    "\n"
    "Each line a PE writes reaches oshrun's output whole, never mixed with another\n"
    "PE's (a line longer than 64 KiB in pieces of 64 KiB).\n"
    "Without -H, --hostfile or -N, oshrun starts the PEs on this node itself. With any\n"
    "of them it runs the launcher, which starts the PEs wherever it places them; the\n"
    "PEs get oshrun's SHMEM_*, SHOAL_* and UCX_* variables and each -x.\n"
    "Exit status: the failing PE's status (128+signal if killed), 124 on timeout,\n"
    "127 if the program cannot be run, 2 on a usage error.\n";

int shoal_oshrun_usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "oshrun: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see oshrun --help)\n");
    return 2;
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

/* Whether a, up to its '=' if any, is one of the spellings in names (NULL-terminated). */
static int is_one_of(const char *a, const char *const *names)
{
    size_t nlen = strcspn(a, "=");

    for (; *names != NULL; names++) {
        if (strlen(*names) == nlen && strncmp(a, *names, nlen) == 0) {
            return 1;
        }
    }
    return 0;
}

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* clang-format off */
static const char *const valued[] = {
    "-np", "--np", "-n", "--n", "--timeout", "-timeout", "-x", "--bind-to", "-bind-to",
    "--map-by", "-map-by", "--output-filename", "-output-filename", "-H", "--host", "-host",
    "--hostfile", "-hostfile", "--machinefile", "-machinefile", "-N", "--npernode",
    "-npernode", "--launcher", NULL};
/* clang-format on */

static int parse_bind(shoal_job_t *job, const char *val)
{
    static const char *const names[] = {"none", "core", "hwthread"};

    for (int b = 0; b < 3; b++) {
        if (strcmp(val, names[b]) == 0) {
            job->bind = b; /* SHOAL_OSHRUN_BIND_NONE, _CORE, _HWTHREAD */
            job->bind_arg = val;
            return -1;
        }
    }
    return shoal_oshrun_usage_error("--bind-to takes core, hwthread or none, got '%s'", val);
}

/* slot, core, node or hwthread, with mpirun's ":oversubscribe" (either case) allowed after */
static int parse_map(shoal_job_t *job, const char *val)
{
    static const char *const names[] = {"slot", "core", "node", "hwthread"};
    size_t len = strcspn(val, ":");

    if (val[len] == ':' && strcasecmp(val + len + 1, "oversubscribe") != 0) {
        goto err_value;
    }
    job->oversubscribe |= val[len] == ':';
    job->map_arg = val;
    if (len == 0) {
        return -1; /* ":oversubscribe" alone keeps the mapping */
    }
    for (int m = 0; m < 4; m++) {
        if (strlen(names[m]) == len && strncmp(val, names[m], len) == 0) {
            job->map = m; /* SHOAL_OSHRUN_MAP_SLOT, _CORE, _NODE, _HWTHREAD */
            return -1;
        }
    }
err_value:
    return shoal_oshrun_usage_error(
        "--map-by takes slot, core, node or hwthread (and :oversubscribe), got '%s'", val);
}

static int parse_x(shoal_job_t *job, const char *val)
{
    char **grown;

    if (val[0] == '\0' || val[0] == '=') {
        return shoal_oshrun_usage_error("-x needs VAR or VAR=VALUE, got '%s'", val);
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
    return -1;
}

static int parse_timeout(shoal_job_t *job, const char *val)
{
    char *end;

    errno = 0;
    job->timeout = strtod(val, &end);
    if (errno != 0 || end == val || *end != '\0' || !(job->timeout > 0)) {
        return shoal_oshrun_usage_error("--timeout must be a positive number of seconds, got '%s'",
                                        val);
    }
    job->timeout_arg = val;
    return -1;
}

/* The options for several nodes: -H, --hostfile, -N, --launcher. */
static int parse_nodes(shoal_job_t *job, const char *a, const char *val)
{
    if (is_one_of(a, NAMES("-H", "--host", "-host"))) {
        if (val[0] == '\0') {
            return shoal_oshrun_usage_error("%s", "-H needs a list of hosts");
        }
        job->hosts = val;
    } else if (is_one_of(a, NAMES("--hostfile", "-hostfile", "--machinefile", "-machinefile"))) {
        if (access(val, R_OK) != 0) {
            return shoal_oshrun_usage_error("cannot read the hostfile '%s'", val);
        }
        job->hostfile = val;
    } else if (is_one_of(a, NAMES("--launcher"))) {
        if (strcmp(val, "srun") != 0 && strcmp(val, "mpirun") != 0 && strcmp(val, "prterun") != 0) {
            return shoal_oshrun_usage_error("--launcher takes srun, mpirun or prterun, got '%s'",
                                            val);
        }
        job->launcher = val;
    } else if (parse_pes(val, &job->npernode) != 0) {
        return shoal_oshrun_usage_error("-N takes a positive number of PEs per node, got '%s'",
                                        val);
    }
    return -1;
}

/* Option a (one of valued[]) with its value; -1 when good, else the exit status. */
static int parse_value(shoal_job_t *job, const char *a, const char *val)
{
    if (is_one_of(a, NAMES("-x"))) {
        return parse_x(job, val);
    }
    if (is_one_of(a, NAMES("--bind-to", "-bind-to"))) {
        return parse_bind(job, val);
    }
    if (is_one_of(a, NAMES("--map-by", "-map-by"))) {
        return parse_map(job, val);
    }
    if (is_one_of(a, NAMES("--timeout", "-timeout"))) {
        return parse_timeout(job, val);
    }
    if (is_one_of(a, NAMES("--output-filename", "-output-filename"))) {
        if (val[0] == '\0') {
            return shoal_oshrun_usage_error("%s", "--output-filename needs a directory");
        }
        job->output_dir = val;
        return -1;
    }
    if (is_one_of(a, NAMES("-np", "--np", "-n", "--n"))) {
        if (parse_pes(val, &job->np) != 0) {
            return shoal_oshrun_usage_error(
                "the number of PEs must be a positive integer, got '%s'", val);
        }
        job->np_set = 1;
        return -1;
    }
    return parse_nodes(job, a, val);
}

/* An option without a value; -1 when a is none of them or it was taken, else the exit
 * status (0 after --help or --version). *taken says which. */
static int parse_flag(shoal_job_t *job, const char *a, int *taken)
{
    *taken = 1;
    if (is_one_of(a, NAMES("-h", "--help", "-help"))) {
        fputs(usage, stdout);
        return 0;
    }
    if (is_one_of(a, NAMES("-V", "--version", "-version"))) {
        printf("oshrun (Shoal) %s, PMIx %s\n", PACKAGE_VERSION, PMIx_Get_version());
        return 0;
    }
    if (is_one_of(a, NAMES("-v", "--verbose", "-verbose"))) {
        job->verbose = 1;
    } else if (is_one_of(a, NAMES("--tag-output", "-tag-output"))) {
        job->tag_output = 1;
    } else if (is_one_of(a, NAMES("--oversubscribe", "-oversubscribe"))) {
        job->oversubscribe = 1;
    } else {
        *taken = 0;
    }
    return -1;
}

int shoal_oshrun_args_parse(shoal_job_t *job, int argc, char **argv)
{
    int i, status, taken;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val, *eq = strchr(a, '=');

        if (a[0] != '-' || strcmp(a, "-") == 0) {
            break;
        }
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        status = parse_flag(job, a, &taken);
        if (status >= 0) {
            return status;
        }
        if (taken && eq != NULL) {
            return shoal_oshrun_usage_error("option %s takes no value", a);
        }
        if (taken) {
            continue;
        }
        if (!is_one_of(a, valued)) {
            return shoal_oshrun_usage_error("unknown option '%s'", a);
        }
        if (eq != NULL) {
            val = eq + 1;
        } else if (i + 1 < argc) {
            val = argv[++i];
        } else {
            return shoal_oshrun_usage_error("option %s needs a value", a);
        }
        status = parse_value(job, a, val);
        if (status >= 0) {
            return status;
        }
    }
    if (i >= argc) {
        return shoal_oshrun_usage_error("%s", "no program to run");
    }
    job->argv = &argv[i];
    return -1;
}
