/* oshrun: the single-node launcher. State shared by its parts: main.c (options, exit
 * status), server.c (the embedded PMIx server), procs.c (fork, wait, kill) and delegate.c
 * (a job on several nodes, handed to srun, mpirun or prterun). oshrun never starts
 * processes on another node itself. */
#ifndef SHOAL_OSHRUN_H
#define SHOAL_OSHRUN_H

#include <pthread.h>
#include <sched.h>
#include <sys/types.h>

#define SHOAL_OSHRUN_MAX_NP 65536

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
    /* --bind-to: -1 decide (core when the PEs fit on oshrun's CPUs), 0 none, 1 core.
     * cpus: the CPUs oshrun may use, in order; PE r is bound to cpus[r]. */
    int bind;
    int ncpus;
    int *cpus;

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
