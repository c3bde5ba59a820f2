/* oshrun's process side: fork and exec the PEs, wait for them, and end the job when one fails.
 * The main thread alone forks, reaps and signals; it sleeps in ppoll (no polling timers) and
 * is woken by signals (unblocked only inside ppoll), by a byte from the PMIx thread, or by
 * the PEs' output, which it forwards (output.c) before it says anything of its own. */
#define _GNU_SOURCE /* pipe2, ppoll */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#ifdef __linux__
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <sys/prctl.h>
#endif

#include "oshrun.h"
#include "shoal_exit.h"

#define KILL_GRACE_S 1.0
/* --timeout: how long the PEs have to print their hang reports (libshoal answers
 * HANG_SIGNAL within 16 turns of a wait, 32 ms asleep, longer on a loaded machine)
 * before the job is ended. */
#define REPORT_GRACE_S 2.0
#define HANG_SIGNAL SIGUSR2

static volatile sig_atomic_t got_signal; /* SIGINT/SIGTERM/SIGHUP received by oshrun */

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};

static void on_signal(int sig)
{
    if (sig != SIGCHLD) {
        got_signal = sig;
    }
}

int shoal_oshrun_procs_got_signal(void)
{
    return got_signal;
}

double shoal_oshrun_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs between fork and exec of a multithreaded parent: async-signal-safe calls only. out[]:
 * the ends of its stdout and stderr streams. */
static void child_exec(shoal_job_t *job, int rank, char **env, const int out[2], int errfd,
                       pid_t parent)
{
    sigset_t none;
    int err;

    for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++) {
        signal(forwarded[i], SIG_DFL);
    }
    signal(SIGCHLD, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (job->pes[rank].pgid != 0) {
        setpgid(0, 0);
    }
    if ((rank != 0 && dup2(job->devnull, STDIN_FILENO) < 0) || dup2(out[0], STDOUT_FILENO) < 0 ||
        dup2(out[1], STDERR_FILENO) < 0) {
        goto err_exit;
    }
    if (job->nbind_sets > 0) {
        /* a hint: a failure costs speed only */
        sched_setaffinity(0, sizeof(cpu_set_t), &job->bind_sets[rank % job->nbind_sets]);
    }
#ifdef __linux__
    /* if oshrun is killed outright, take the PEs with it */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) {
        _exit(127);
    }
#else
    (void)parent;
#endif
    execve(job->path, job->argv, env);
err_exit:
    err = errno;
    if (write(errfd, &err, sizeof(err)) < 0) {
        /* nothing left to tell anyone */
    }
    _exit(127);
}

int shoal_oshrun_procs_spawn(shoal_job_t *job)
{
    /* rank 0 shares the terminal: in a group of its own, reading it would stop it (SIGTTIN) */
    int rank0_own_group = !isatty(STDIN_FILENO);
    pid_t parent = getpid();

    for (int r = 0; r < job->np; r++) {
        shoal_pe_t *pe = &job->pes[r];
        char **env = shoal_oshrun_env_dup(job->env);
        int fds[2], out[2];

        if (env == NULL || shoal_oshrun_server_setup_fork(job, r, &env) != 0) {
            shoal_oshrun_env_free(env);
            return -1;
        }
        if (shoal_oshrun_output_open(job, r, out) != 0) {
            shoal_oshrun_env_free(env);
            return -1;
        }
        if (pipe2(fds, O_CLOEXEC) != 0) {
            fprintf(stderr, "oshrun: pipe: %s\n", strerror(errno));
            close(out[0]);
            close(out[1]);
            shoal_oshrun_env_free(env);
            return -1;
        }
        pe->pgid = (r == 0 && !rank0_own_group) ? 0 : -1;
        /* The PMIx thread checks a connection against pid: have it set before the child can
         * connect. The child never touches the lock it inherits held. */
        pthread_mutex_lock(&job->lock);
        pe->pid = fork();
        if (pe->pid == 0) {
            child_exec(job, r, env, out, fds[1], parent);
        }
        pthread_mutex_unlock(&job->lock);
        close(fds[1]);
        close(out[0]);
        close(out[1]);
        shoal_oshrun_env_free(env);
        if (pe->pid < 0) {
            fprintf(stderr, "oshrun: cannot start PE %d: %s\n", r, strerror(errno));
            pe->pid = 0;
            close(fds[0]);
            return -1;
        }
        pe->errpipe = fds[0];
        if (pe->pgid != 0) {
            /* both sides set it, so no signal can find the child in our group */
            setpgid(pe->pid, pe->pid);
            pe->pgid = pe->pid;
        }
    }
    return 0;
}

void shoal_oshrun_procs_kill(shoal_job_t *job, int sig)
{
    for (int r = 0; r < job->np; r++) {
        shoal_pe_t *pe = &job->pes[r];

        if (pe->pid > 0 && !pe->reaped) {
            kill(pe->pgid > 0 ? -pe->pgid : pe->pid, sig);
        }
    }
}

/* Whether process pid catches sig (/proc/pid/status, SigCgt): a PE that does not
 * would die of HANG_SIGNAL, so it is not asked. */
static int catches(pid_t pid, int sig)
{
    char path[64], line[256];
    unsigned long long mask = 0;
    int found = 0;
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    f = fopen(path, "r");
    if (f == NULL) {
        return 0;
    }
    while (!found && fgets(line, sizeof(line), f) != NULL) {
        found = sscanf(line, "SigCgt: %llx", &mask) == 1;
    }
    fclose(f);
    return found && (mask >> (sig - 1) & 1);
}

/* Asks every live PE that catches HANG_SIGNAL (libshoal does, from shmem_init) for
 * its hang report: each waiting PE prints what it waits for. Returns how many. */
static int ask_reports(shoal_job_t *job)
{
    int asked = 0;

    for (int r = 0; r < job->np; r++) {
        shoal_pe_t *pe = &job->pes[r];

        if (pe->pid > 0 && !pe->reaped && catches(pe->pid, HANG_SIGNAL) &&
            kill(pe->pid, HANG_SIGNAL) == 0) {
            asked++;
        }
    }
    return asked;
}

/* How bad a reaped PE's end is: 3 killed by a signal, 2 non-zero exit, 1 exit without
 * PMIx_Finalize after connecting, 0 fine. */
static int severity(const shoal_pe_t *pe)
{
    if (WIFSIGNALED(pe->wstatus)) {
        return 3;
    }
    if (WEXITSTATUS(pe->wstatus) != 0) {
        return 2;
    }
    return pe->connected && !pe->finalized ? 1 : 0;
}

/* First failure of the job: print its one line and return the exit status, or -1. When one
 * wake-up finds several dead PEs, the cause is likelier the worst end (a peer that merely saw
 * a fence fail exits with a status), then the lowest rank. *after_finalize: the failure is a
 * PE that finalized and then exited with a status, so the others need not be cut short. */
static int judge(shoal_job_t *job, int *after_finalize)
{
    shoal_pe_t *worst = NULL;
    int status = -1, sev = 0;
    char what[64];

    pthread_mutex_lock(&job->lock);
    if (job->abort_rank >= 0) {
        shoal_pe_t *pe = &job->pes[job->abort_rank];

        /* set once, by the PMIx thread: safe to read unlocked from here on */
        pthread_mutex_unlock(&job->lock);
        /* what the PE printed before it called abort comes first */
        shoal_oshrun_output_drain(job, NULL, 0);
        /* the status the job can end with (Shoal's PEs pass one already) */
        status = shoal_exit_status(job->abort_status);
        if (status != job->abort_status) {
            snprintf(what, sizeof(what), "status %d; the job exits with %d", job->abort_status,
                     status);
        } else {
            snprintf(what, sizeof(what), "status %d", status);
        }
        /* An empty message means the PE has printed its own error line already. */
        if (job->abort_msg != NULL && job->abort_msg[0] != '\0')
            fprintf(stderr, "oshrun: PE %d (pid %d) called abort (%s): %s\n", job->abort_rank,
                    (int)pe->pid, what, job->abort_msg);
        else
            fprintf(stderr, "oshrun: PE %d (pid %d) ended the job (%s)\n", job->abort_rank,
                    (int)pe->pid, what);
        return status;
    }
    for (int r = 0; r < job->np; r++) {
        shoal_pe_t *pe = &job->pes[r];

        if (pe->reaped && !pe->judged) {
            pe->judged = 1;
            if (severity(pe) > sev) {
                sev = severity(pe);
                worst = pe;
            }
        }
    }
    pthread_mutex_unlock(&job->lock);
    if (worst != NULL) {
        int st = worst->wstatus, r = (int)(worst - job->pes);

        shoal_oshrun_output_drain(job, NULL, 0); /* the PE's last words first */
        if (sev == 3) {
            fprintf(stderr, "oshrun: PE %d (pid %d) killed by signal %d (%s); ending the job\n", r,
                    (int)worst->pid, WTERMSIG(st), strsignal(WTERMSIG(st)));
            status = 128 + WTERMSIG(st);
        } else if (sev == 2) {
            fprintf(stderr, "oshrun: PE %d (pid %d) exited with status %d; ending the job\n", r,
                    (int)worst->pid, WEXITSTATUS(st));
            status = WEXITSTATUS(st);
            *after_finalize = worst->finalized;
        } else {
            fprintf(stderr, "oshrun: PE %d (pid %d) exited without finalizing; ending the job\n", r,
                    (int)worst->pid);
            status = 1;
        }
    }
    return status;
}

static void reap(shoal_job_t *job, int *live)
{
    pid_t pid;
    int st;

    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        for (int r = 0; r < job->np; r++) {
            if (job->pes[r].pid == pid && !job->pes[r].reaped) {
                job->pes[r].reaped = 1;
                job->pes[r].wstatus = st;
                (*live)--;
                break;
            }
        }
    }
}

/* An exec failure: the child reports errno through its close-on-exec pipe. */
static int check_exec(shoal_job_t *job)
{
    for (int r = 0; r < job->np; r++) {
        shoal_pe_t *pe = &job->pes[r];
        int err;
        ssize_t n;

        if (pe->errpipe < 0) {
            continue;
        }
        do {
            n = read(pe->errpipe, &err, sizeof(err));
        } while (n < 0 && errno == EINTR);
        close(pe->errpipe);
        pe->errpipe = -1;
        if (n == (ssize_t)sizeof(err)) {
            fprintf(stderr, "oshrun: cannot run '%s': %s\n", job->argv[0], strerror(err));
            pe->judged = 1;
            return 127;
        }
    }
    return -1;
}

/* Blocks the signals oshrun handles; call before any thread starts so that all inherit the
 * mask and only ppoll in the main thread ever runs the handler. */
void shoal_oshrun_procs_block_signals(void)
{
    struct sigaction sa;
    sigset_t block;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++) {
        sigaction(forwarded[i], &sa, NULL);
        sigaddset(&block, forwarded[i]);
    }
    sigaction(SIGCHLD, &sa, NULL);
    sigaddset(&block, SIGCHLD);
    sigprocmask(SIG_BLOCK, &block, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Sleeps until t (0: no limit), a signal, a byte on the wake pipe or output from a PE, and
 * forwards that output. */
static void sleep_until(shoal_job_t *job, double t, const sigset_t *waitmask)
{
    double flush = shoal_oshrun_output_flush_at(job), now = shoal_oshrun_now();
    struct timespec ts, *tsp = NULL;
    struct pollfd *pfds = job->pfds;
    char buf[64];
    int n;

    if (flush > 0 && (t == 0 || flush < t)) {
        t = flush;
    }
    if (t > 0) {
        t = t > now ? t - now : 0;
        ts.tv_sec = (time_t)t;
        ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
        tsp = &ts;
    }
    pfds[0].fd = job->wake[0];
    pfds[0].events = POLLIN;
    pfds[0].revents = 0;
    n = shoal_oshrun_output_pollfds(job, pfds + 1);
    if (ppoll(pfds, (nfds_t)n + 1, tsp, waitmask) > 0 && pfds[0].revents != 0) {
        while (read(job->wake[0], buf, sizeof(buf)) == (ssize_t)sizeof(buf)) {
        }
    }
    shoal_oshrun_output_drain(job, pfds + 1, n);
}

int shoal_oshrun_procs_wait(shoal_job_t *job)
{
    double deadline = job->timeout > 0 ? shoal_oshrun_now() + job->timeout : 0, kill_at = 0;
    double reports_until = 0; /* --timeout: the PEs print their hang reports until then */
    int live = job->np, status, ending = 0, first_sig = SIGTERM, after_finalize = 0;
    sigset_t waitmask;

    sigprocmask(SIG_SETMASK, NULL, &waitmask);
    sigdelset(&waitmask, SIGCHLD);
    for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++) {
        sigdelset(&waitmask, forwarded[i]);
    }
    status = check_exec(job);
    if (status >= 0) {
        ending = 1;
    }
    for (;;) {
        double t = ending ? kill_at : deadline;
        int rc = -1;

        reap(job, &live);
        if (!ending) {
            rc = judge(job, &after_finalize);
            if (rc < 0 && got_signal) {
                fprintf(stderr, "oshrun: received signal %d (%s); ending the job\n",
                        (int)got_signal, strsignal(got_signal));
                first_sig = got_signal;
                rc = 128 + got_signal;
            }
            if (rc < 0 && deadline > 0 && shoal_oshrun_now() >= deadline) {
                fprintf(stderr, "oshrun: job timed out after %s s; ending the job\n",
                        job->timeout_arg);
                rc = 124;
                if (ask_reports(job) > 0) {
                    reports_until = shoal_oshrun_now() + REPORT_GRACE_S;
                }
            }
        }
        if (live == 0) {
            shoal_oshrun_output_finish(job);
            return ending ? status : (rc >= 0 ? rc : 0);
        }
        if (!ending && rc >= 0) {
            status = rc;
            ending = 1;
            if (after_finalize) {
                /* The others are likely finalizing too: let them exit before any signal
                 * (one that arrives in a library's teardown can turn into a crash). */
                kill_at = shoal_oshrun_now() + KILL_GRACE_S;
                t = kill_at;
            }
        }
        if (ending && kill_at == 0 && shoal_oshrun_now() < reports_until) {
            t = reports_until; /* their output is forwarded meanwhile */
        } else if (ending && kill_at == 0) {
            shoal_oshrun_procs_kill(job, first_sig);
            kill_at = shoal_oshrun_now() + KILL_GRACE_S;
            t = kill_at;
        } else if (ending && shoal_oshrun_now() >= kill_at) {
            shoal_oshrun_procs_kill(job, SIGKILL);
            t = 0;
        }
        /* a reader that stops taking the PEs' output may not keep the job from ending */
        job->write_until = ending ? (kill_at != 0 ? kill_at : reports_until) : deadline;
        sleep_until(job, t, &waitmask);
    }
}
