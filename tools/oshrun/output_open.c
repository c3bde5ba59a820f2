/* Where the PEs' output goes, made before they start: two streams per PE that oshrun reads
 * (output.c forwards them), and the destinations: oshrun's stdout and stderr, or with
 * --output-filename DIR one file per PE and stream, laid out as Open MPI lays them
 * (DIR/1/rank.R/stdout), so that scripts written for mpirun's files read these. */
#define _GNU_SOURCE /* pipe2, ptsname_r, posix_openpt */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "oshrun.h"

/* A pseudo-terminal for a PE's stdout, raw (no "\n" to "\r\n"), as wide as oshrun's
 * terminal: fds[0] oshrun's end, fds[1] the PE's. 0, or -1 (a pipe will do). */
static int open_pty(int fds[2])
{
    struct termios t;
    struct winsize ws;
    char name[128];
    int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC), s;

    if (m < 0) {
        return -1;
    }
    if (grantpt(m) != 0 || unlockpt(m) != 0 || ptsname_r(m, name, sizeof(name)) != 0 ||
        (s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
        goto err_master;
    }
    if (tcgetattr(s, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(s, TCSANOW, &t);
    }
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) {
        ioctl(s, TIOCSWINSZ, &ws);
    }
    fds[0] = m;
    fds[1] = s;
    return 0;

err_master:
    close(m);
    return -1;
}

/* mkdir -p; 0, or -1 with errno */
static int make_dirs(char *path)
{
    for (char *p = path + 1; *p != '\0'; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0777); /* a failure shows at the last one */
            *p = '/';
        }
    }
    return mkdir(path, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

/* --output-filename DIR: DIR/1/rank.R/stdout and stderr for every PE, R zero-padded to the
 * width of the last rank, as Open MPI pads it (listings sort). 0, or exit status 2. */
static int open_files(shoal_job_t *job)
{
    int width = snprintf(NULL, 0, "%d", job->np - 1);
    char path[PATH_MAX];

    for (int r = 0; r < job->np; r++) {
        int len = snprintf(path, sizeof(path) - 8, "%s/1/rank.%0*d", job->output_dir, width, r);

        errno = ENAMETOOLONG;
        if (len < 0 || len >= (int)sizeof(path) - 8 || make_dirs(path) != 0) {
            goto err_path;
        }
        for (int s = 0; s < 2; s++) {
            snprintf(path + len, 8, s == 0 ? "/stdout" : "/stderr");
            job->dests[2 + 2 * r + s] =
                open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
            if (job->dests[2 + 2 * r + s] < 0) {
                goto err_path;
            }
        }
    }
    return 0;

err_path:
    fprintf(stderr, "oshrun: --output-filename %s: cannot create %s: %s\n", job->output_dir, path,
            strerror(errno));
    return 2;
}

/* Room for the streams (2 per PE, and their ends during fork) and PMIx's connections. */
static void raise_fd_limit(int np)
{
    struct rlimit rl;
    rlim_t need = (rlim_t)np * 6 + 64;

    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need) {
        rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
        setrlimit(RLIMIT_NOFILE, &rl); /* when it cannot, a pipe fails with a message */
    }
}

int shoal_oshrun_output_init(shoal_job_t *job)
{
    int nout = 2 * job->np;

    raise_fd_limit(job->np);
    job->ndests = job->output_dir != NULL ? 2 + nout : 2;
    job->dests = malloc((size_t)job->ndests * sizeof(*job->dests));
    job->outs = calloc((size_t)nout, sizeof(*job->outs));
    job->pfds = calloc((size_t)nout + 1, sizeof(*job->pfds));
    job->pfd_out = calloc((size_t)nout, sizeof(*job->pfd_out));
    if (job->dests == NULL || job->outs == NULL || job->pfds == NULL || job->pfd_out == NULL) {
        fprintf(stderr, "oshrun: out of memory\n");
        return 1;
    }
    for (int d = 0; d < job->ndests; d++) {
        job->dests[d] = d < 2 ? d + 1 : -1; /* STDOUT_FILENO, STDERR_FILENO */
    }
    for (int i = 0; i < nout; i++) {
        job->outs[i].fd = -1;
        job->outs[i].dest = job->output_dir != NULL ? 2 + i : i % 2;
    }
    job->tty[0] = isatty(STDOUT_FILENO);
    job->tty[1] = isatty(STDERR_FILENO);
    return job->output_dir != NULL ? open_files(job) : 0;
}

int shoal_oshrun_output_open(shoal_job_t *job, int rank, int child[2])
{
    for (int s = 0; s < 2; s++) {
        shoal_out_t *o = &job->outs[2 * rank + s];
        int fds[2];

        if (!(o->dest == 0 && job->tty[0] && open_pty(fds) == 0) && pipe2(fds, O_CLOEXEC) != 0) {
            fprintf(stderr, "oshrun: cannot make PE %d's output pipe: %s\n", rank, strerror(errno));
            if (s == 1) {
                close(child[0]);
            }
            return -1;
        }
        fcntl(fds[0], F_SETFL, O_NONBLOCK);
        o->fd = fds[0];
        child[s] = fds[1];
    }
    return 0;
}

void shoal_oshrun_output_cleanup(shoal_job_t *job)
{
    for (int i = 0; job->outs != NULL && i < 2 * job->np; i++) {
        if (job->outs[i].fd >= 0) {
            close(job->outs[i].fd);
        }
        free(job->outs[i].line);
    }
    for (int d = 2; job->dests != NULL && d < job->ndests; d++) {
        if (job->dests[d] >= 0) {
            close(job->dests[d]);
        }
    }
    free(job->outs);
    free(job->dests);
    free(job->pfds);
    free(job->pfd_out);
    job->outs = NULL;
    job->dests = NULL;
    job->pfds = NULL;
    job->pfd_out = NULL;
}
