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
#include <stdarg.h>
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

/* --output-filename may be run by root into a directory others can reach, so every name
 * below DIR is opened without following a symbolic link (openat, O_NOFOLLOW), and each
 * directory oshrun writes into (DIR, DIR/1, DIR/1/rank.R) must be the caller's and writable
 * by no one else: then no one else can have planted a link or a file in them. DIR itself may
 * be a link that the caller made. Each refusal is one line and exit status 2. */
typedef struct {
    const char *dir;     /* DIR as given, for the messages */
    char path[PATH_MAX]; /* what is being opened: DIR (without trailing '/'), DIR/1/... */
} out_path_t;

/* "refusing PATH: " why, in one write; returns 2 */
__attribute__((format(printf, 2, 3))) static int refuse(const out_path_t *op, const char *why, ...)
{
    char reason[128];
    va_list ap;

    va_start(ap, why);
    vsnprintf(reason, sizeof(reason), why, ap);
    va_end(ap);
    fprintf(stderr, "oshrun: --output-filename %s: refusing %s: %s\n", op->dir, op->path, reason);
    return 2;
}

static int cannot(const out_path_t *op, int err)
{
    fprintf(stderr, "oshrun: --output-filename %s: cannot create %s: %s\n", op->dir, op->path,
            strerror(err));
    return 2;
}

/* fd, open on op->path, is the caller's, and a directory no one else may write to:
 * 0, or 2 after a line */
static int check_owner(const out_path_t *op, int fd)
{
    struct stat st;

    if (fstat(fd, &st) != 0) {
        return cannot(op, errno);
    }
    if (st.st_uid != geteuid()) {
        return refuse(op, "it is owned by uid %ld, not by you", (long)st.st_uid);
    }
    if (S_ISDIR(st.st_mode) && (st.st_mode & S_IWOTH)) {
        return refuse(op, "it is writable by others");
    }
    if (S_ISDIR(st.st_mode) && (st.st_mode & S_IWGRP)) {
        return refuse(op, "it is writable by its group");
    }
    if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
        return refuse(op, "it is not a regular file");
    }
    return 0;
}

/* Why openat(at, name, ... O_NOFOLLOW) failed with err: a link there, something other than
 * the directory or regular file wanted, or err. Returns 2. */
static int open_failed(const out_path_t *op, int at, const char *name, int want_dir, int err)
{
    struct stat st;

    if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        return cannot(op, err);
    }
    if (S_ISLNK(st.st_mode)) {
        return refuse(op, "it is a symbolic link");
    }
    if (want_dir && !S_ISDIR(st.st_mode)) {
        return refuse(op, "it is not a directory");
    }
    if (!want_dir && !S_ISREG(st.st_mode)) {
        return refuse(op, "it is not a regular file");
    }
    return cannot(op, err);
}

/* The directory name in at (op->path names it), made first if missing, as *fd_out;
 * or 2 after a line. */
static int open_dir_at(const out_path_t *op, int at, const char *name, int *fd_out)
{
    int fd, ret;

    /* 0755: a group-writable directory would be refused on the next run (umask 002) */
    if (mkdirat(at, name, 0755) != 0 && errno != EEXIST) {
        return cannot(op, errno);
    }
    fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        return open_failed(op, at, name, 1, errno);
    }
    if ((ret = check_owner(op, fd)) != 0) {
        close(fd);
        return ret;
    }
    *fd_out = fd;
    return 0;
}

/* DIR: its parents made as mkdir -p makes them (links followed: the user named the path),
 * DIR made if missing. DIR may be a link only if the caller owns it (as the kernel's
 * fs.protected_symlinks rule has it for sticky directories). *fd_out, or 2 after a line. */
static int open_top(out_path_t *op, int *fd_out)
{
    size_t len = strlen(op->dir);
    struct stat st;
    int fd, ret;

    while (len > 1 && op->dir[len - 1] == '/') {
        len--; /* "DIR/" would follow a link at DIR */
    }
    snprintf(op->path, sizeof(op->path), "%.*s", (int)len, op->dir);
    for (char *p = op->path + 1; *p != '\0'; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(op->path, 0777); /* a failure shows at DIR */
            *p = '/';
        }
    }
    if (lstat(op->path, &st) != 0 || !S_ISLNK(st.st_mode)) {
        return open_dir_at(op, AT_FDCWD, op->path, fd_out);
    }
    if (st.st_uid != geteuid()) {
        return refuse(op, "it is a symbolic link owned by uid %ld, not by you", (long)st.st_uid);
    }
    fd = open(op->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        return cannot(op, errno);
    }
    if ((ret = check_owner(op, fd)) != 0) {
        close(fd);
        return ret;
    }
    *fd_out = fd;
    return 0;
}

/* The file name in at (op->path names its directory), made, or truncated if it is a regular
 * file of the caller's: the fd, or -1 after a line. */
static int open_file_at(out_path_t *op, int at, const char *name)
{
    size_t len = strlen(op->path);
    int fd;

    snprintf(op->path + len, sizeof(op->path) - len, "/%s", name);
    /* O_NONBLOCK: a FIFO there must not hold oshrun up; not truncated before the checks */
    fd =
        openat(at, name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0) {
        open_failed(op, at, name, 0, errno);
        return -1;
    }
    if (check_owner(op, fd) != 0) {
        close(fd);
        return -1;
    }
    if (ftruncate(fd, 0) != 0 || fcntl(fd, F_SETFL, 0) != 0) {
        cannot(op, errno);
        close(fd);
        return -1;
    }
    op->path[len] = '\0';
    return fd;
}

/* --output-filename DIR: DIR/1/rank.R/stdout and stderr for every PE, R zero-padded to the
 * width of the last rank, as Open MPI pads it (listings sort). 0, or exit status 2. */
static int open_files(shoal_job_t *job)
{
    int width = snprintf(NULL, 0, "%d", job->np - 1), top, one, ret;
    out_path_t op = {.dir = job->output_dir};
    size_t len;

    if (strlen(op.dir) + 32 > sizeof(op.path)) {
        snprintf(op.path, sizeof(op.path), "%s", op.dir);
        return cannot(&op, ENAMETOOLONG);
    }
    if ((ret = open_top(&op, &top)) != 0) {
        return ret;
    }
    len = strlen(op.path);
    snprintf(op.path + len, sizeof(op.path) - len, "/1");
    if ((ret = open_dir_at(&op, top, "1", &one)) != 0) {
        goto err_top;
    }
    len += 2;
    for (int r = 0; r < job->np && ret == 0; r++) {
        char name[32];
        int rank;

        snprintf(name, sizeof(name), "rank.%0*d", width, r);
        snprintf(op.path + len, sizeof(op.path) - len, "/%s", name);
        if ((ret = open_dir_at(&op, one, name, &rank)) != 0) {
            break;
        }
        for (int s = 0; s < 2 && ret == 0; s++) {
            job->dests[2 + 2 * r + s] = open_file_at(&op, rank, s == 0 ? "stdout" : "stderr");
            ret = job->dests[2 + 2 * r + s] >= 0 ? 0 : 2;
        }
        close(rank);
    }
    close(one);
err_top:
    close(top);
    return ret;
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
