/* oshrun: the single-node launcher. State shared by its parts: main.c (the job's life cycle,
 * exit status), args.c (options), bind.c (which CPUs the PEs get), server.c (the embedded
 * PMIx server), procs.c (fork, wait, kill), output.c and output_open.c (the PEs' output,
 * forwarded a whole line at a time) and delegate.c (a job on several nodes, handed to srun,
 * mpirun or prterun). oshrun never starts processes on another node itself. Its includers
 * define _GNU_SOURCE (cpu_set_t). */
#ifndef SHOAL_OSHRUN_H
#define SHOAL_OSHRUN_H

#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/types.h>

#define SHOAL_OSHRUN_MAX_NP 65536

/* --bind-to: AUTO binds each PE to an idle CPU of its own when there are enough (bind.c) */
enum {
    SHOAL_OSHRUN_BIND_AUTO = -1,
    SHOAL_OSHRUN_BIND_NONE,
    SHOAL_OSHRUN_BIND_CORE,
    SHOAL_OSHRUN_BIND_HWTHREAD
};
/* --map-by: on one node slot, core and node all place PE r on the r-th core; hwthread fills
 * a core's hardware threads before the next core's */
enum {
    SHOAL_OSHRUN_MAP_SLOT,
    SHOAL_OSHRUN_MAP_CORE,
    SHOAL_OSHRUN_MAP_NODE,
    SHOAL_OSHRUN_MAP_HWTHREAD
};

/* One output stream of one PE (output.c): what oshrun reads, and the line it has begun. */
typedef struct shoal_out {
    int fd;     /* read end (a pipe, or a pty's master); -1 once at its end */
    int dest;   /* index into the job's destinations */
    char *line; /* a line begun and not yet ended; NULL when none */
    size_t len;
    double since; /* when the line began, to show a stalled one at a terminal */
    int midline;  /* part of this line was written already (no second tag) */
} shoal_out_t;

/* What the PMIx progress thread has seen a PE do; read by the main thread under the lock. */
typedef struct shoal_pe {
    pid_t pid;     /* 0 until forked */
    pid_t pgid;    /* group to signal; 0: signal pid alone (rank 0 reading a tty) */
    int errpipe;   /* read end: child writes errno there when exec fails; -1 when done */
    int pending;   /* a PMIx connection from its processes, accepted, not yet announced */
    int connected; /* PMIx client_connected seen (written under job lock) */
    int finalized; /* PMIx client_finalized seen (written under job lock) */
    int reaped;    /* waitpid returned it */
    int judged;    /* its exit was already examined by the main loop */
    int wstatus;   /* from waitpid, valid when reaped */
} shoal_pe_t;

typedef struct shoal_job {
    int np;
    double timeout;          /* seconds; 0 = none */
    const char *timeout_arg; /* as the user wrote it, for the message */
    char **argv;             /* program and its arguments */
    char *path;              /* resolved program path */
    char **env;              /* base environment of every PE (malloc'd strings) */
    char nspace[256];
    char tmpdir[4096];
    int devnull;
    shoal_pe_t *pes;
    /* --bind-to (SHOAL_OSHRUN_BIND_*) and --map-by (SHOAL_OSHRUN_MAP_*), and the plan
     * bind.c makes of them: PE r is bound to bind_sets[r % nbind_sets] (none when 0);
     * binding says what was chosen and why, for the PEs (OSHRUN_BINDING) */
    int bind;
    int map;
    const char *bind_arg; /* as given, for a launcher; NULL when not given */
    const char *map_arg;
    cpu_set_t *bind_sets;
    int nbind_sets;
    char binding[512];

    /* The PEs' output (output.c): --tag-output prefixes each line with "[PE r] ";
     * --output-filename DIR writes DIR/1/rank.R/stdout and stderr instead */
    int tag_output;
    const char *output_dir;
    int oversubscribe; /* --oversubscribe: for a launcher; one node always may */
    shoal_out_t *outs; /* 2 per PE: stdout, stderr */
    int *dests;        /* fds the lines go to: 1, 2, or 2 files per PE; -1 given up */
    int ndests;
    int tty[2];          /* oshrun's stdout, stderr are terminals */
    double write_until;  /* once past, a destination that takes nothing is given up; 0 never */
    struct pollfd *pfds; /* 1 + 2 per PE: the wake pipe, then the open streams */
    int *pfd_out;        /* which stream each of pfds[1..] is */

    /* Server-thread -> main-thread hand-off: flags in pes[] and the abort record, all under
     * lock; a byte on wake[1] tells the main loop to look. */
    pthread_mutex_t lock;
    int wake[2];
    int abort_rank; /* -1: nobody called PMIx_Abort */
    int abort_status;
    char *abort_msg;

    /* Beyond one node (delegate.c): any of hosts, hostfile, npernode hands the job to a
     * PMIx launcher. */
    int np_set;           /* -np was given */
    const char *hosts;    /* -H/--host list, as mpirun takes it (a:2,b:2) */
    const char *hostfile; /* --hostfile */
    int npernode;         /* -N: PEs per node; 0 unset */
    const char *launcher; /* --launcher srun|mpirun|prterun; NULL: pick one */
    int verbose;          /* --verbose: print the command run */
    char **xvars;         /* every -x argument, as given */
    int nxvars;
} shoal_job_t;

/* server.c */
int shoal_oshrun_server_init(shoal_job_t *job);
int shoal_oshrun_server_register(shoal_job_t *job);
int shoal_oshrun_server_setup_fork(shoal_job_t *job, int rank, char ***env);
/* 0 when PMIx's teardown is unsafe (a connection was refused): _exit instead */
int shoal_oshrun_server_can_cleanup(shoal_job_t *job);
void shoal_oshrun_server_cleanup(shoal_job_t *job);
/* At the job's end: the total of each kind of refused connection told only once so far */
void shoal_oshrun_server_report(shoal_job_t *job);

/* args.c: parses the options into job; -1 when they are good, else oshrun's exit status */
int shoal_oshrun_args_parse(shoal_job_t *job, int argc, char **argv);
/* Prints "oshrun: " fmt (with arg) " (see oshrun --help)"; returns 2 */
int shoal_oshrun_usage_error(const char *fmt, const char *arg);

/* bind.c: fills bind_sets and binding; 0, or an exit status after one line */
int shoal_oshrun_bind_plan(shoal_job_t *job);

/* output_open.c: _init makes the destinations (1, 2, or --output-filename's files) and the
 * streams' table; _open makes PE rank's two streams and gives the ends the PE writes to in
 * child[] (the caller closes them after fork); _cleanup closes and frees all. */
int shoal_oshrun_output_init(shoal_job_t *job);
int shoal_oshrun_output_open(shoal_job_t *job, int rank, int child[2]);
void shoal_oshrun_output_cleanup(shoal_job_t *job);
/* output.c: _pollfds lists the open streams in pfds (room for 2 per PE) and returns how many;
 * _drain forwards the whole lines that are there, from the streams pfds says are ready (all
 * when pfds is NULL); _finish forwards everything left, unended lines too, once the PEs are
 * gone; _flush_at is when a line stalled at a terminal must be shown (0: none waits). */
int shoal_oshrun_output_pollfds(shoal_job_t *job, struct pollfd *pfds);
void shoal_oshrun_output_drain(shoal_job_t *job, const struct pollfd *pfds, int n);
void shoal_oshrun_output_finish(shoal_job_t *job);
double shoal_oshrun_output_flush_at(const shoal_job_t *job);

/* main.c, also for delegate.c */
/* Sets or replaces "NAME=VALUE" in a malloc'd, NULL-terminated array; 0 on success. */
int shoal_oshrun_env_put(char ***envp, const char *assign);
/* Where execvp would find prog along path (a PATH value; NULL: the system's default):
 * a malloc'd path, or NULL with *err_out saying why (ENOENT, EACCES, ENOMEM). */
char *shoal_oshrun_path_find(const char *prog, const char *path, int *err_out);

/* delegate.c: runs the job through srun, mpirun or prterun; returns the exit status */
int shoal_oshrun_delegate(shoal_job_t *job);

/* procs.c */
void shoal_oshrun_procs_block_signals(void);
int shoal_oshrun_procs_spawn(shoal_job_t *job);
int shoal_oshrun_procs_wait(shoal_job_t *job);
void shoal_oshrun_procs_kill(shoal_job_t *job, int sig);
/* The signal (SIGINT, SIGTERM, SIGHUP) oshrun received, or 0 */
int shoal_oshrun_procs_got_signal(void);
double shoal_oshrun_now(void); /* CLOCK_MONOTONIC seconds */
/* The rank of the PE whose process, or one it started, holds the far end of the TCP
 * connection sd (accepted from loopback); -1 if none, -2 if that cannot be told (not TCP,
 * no /proc). */
int shoal_oshrun_conn_owner(shoal_job_t *job, int sd);

/* tmpdir.c: job->tmpdir made (after sweeping stale ones; 0 or -1), and removed. */
int shoal_oshrun_tmpdir_make(shoal_job_t *job);
void shoal_oshrun_tmpdir_remove(shoal_job_t *job);

/* main.c */
char **shoal_oshrun_env_dup(char **env);
void shoal_oshrun_env_free(char **env);
void shoal_oshrun_wake(shoal_job_t *job);

#endif
