/* The PEs' output. Each PE writes into pipes of its own (its stdout into a pseudo-terminal
 * when that is where oshrun's goes, so that its stdio still flushes by line), and oshrun
 * passes the bytes on a whole line at a time, so that lines of several PEs never mix; it is
 * the only writer of its stdout and stderr while the job runs. It never waits on a PE, and
 * gives up a destination that takes nothing once the job must end. */
#define _GNU_SOURCE /* memrchr, ppoll */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "oshrun.h"

/* A longer line goes out in pieces of this size. At a terminal, a line left unended
 * STALL_S is shown so far (a prompt). Once the job must end, a destination that takes
 * nothing for GRACE_S is given up. */
#define LINE_BYTES 65536
#define STALL_S 0.1
#define GRACE_S 0.5

enum { LINE, PIECE, PARTIAL }; /* a piece of output ends its line, is cut, or waits for more */

/* Whole pieces for one destination, written together: one write for many short lines. */
static struct {
    int dest;
    size_t len;
    char buf[4 * LINE_BYTES];
} stage = {-1, 0, {0}};

/* Stops forwarding to destination d. After EPIPE the PEs' streams to it are closed too, so
 * that a PE's next write gets SIGPIPE, as it would writing to d itself. */
static void give_up(shoal_job_t *job, int d, int broken)
{
    if (d >= 2 && job->dests[d] >= 0) {
        close(job->dests[d]);
    }
    job->dests[d] = -1;
    for (int i = 0; broken && i < 2 * job->np; i++) {
        shoal_out_t *o = &job->outs[i];

        if (o->dest == d && o->fd >= 0) {
            close(o->fd);
            o->fd = -1;
        }
    }
}

/* Writes it all: PIPE_BUF at a time after ppoll, so that no write blocks for long. Gives up
 * (-1) when nothing is taken for GRACE_S after job->write_until, or when a signal to oshrun
 * comes while it waits (the job must end even if nothing reads its output). */
static int write_all(const shoal_job_t *job, int fd, const char *p, size_t n)
{
    int signalled = shoal_oshrun_procs_got_signal(); /* then write_until bounds the wait */
    sigset_t none;

    sigemptyset(&none);
    while (n > 0) {
        struct pollfd pfd = {fd, POLLOUT, 0};
        double left = job->write_until - shoal_oshrun_now();
        struct timespec ts, *tsp = NULL;
        ssize_t w;
        int rc;

        if (job->write_until > 0 && left < 1e6) {
            left = left > GRACE_S ? left : GRACE_S;
            ts.tv_sec = (time_t)left;
            ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
            tsp = &ts;
        }
        rc = ppoll(&pfd, 1, tsp, &none);
        if (rc == 0) {
            errno = ETIMEDOUT;
            return -1;
        }
        if (rc < 0 && (errno != EINTR || (!signalled && shoal_oshrun_procs_got_signal()))) {
            return -1;
        }
        if (rc < 0) {
            continue;
        }
        w = write(fd, p, n < PIPE_BUF ? n : PIPE_BUF);
        if (w < 0 && errno != EINTR && errno != EAGAIN) {
            return -1;
        }
        if (w > 0) {
            p += w;
            n -= (size_t)w;
        }
    }
    return 0;
}

static void stage_flush(shoal_job_t *job)
{
    int d = stage.dest;

    if (stage.len > 0 && job->dests[d] >= 0 &&
        write_all(job, job->dests[d], stage.buf, stage.len) != 0) {
        give_up(job, d, errno == EPIPE); /* errno: write's, or ppoll's */
    }
    stage.len = 0;
}

/* Queues one piece of PE rank's output for o's destination, tagged when asked. */
static void emit(shoal_job_t *job, shoal_out_t *o, int rank, const char *p, size_t n, int how)
{
    char tag[32] = "";
    size_t tlen = 0;
    int newline = job->tag_output && how == PIECE && (n == 0 || p[n - 1] != '\n');

    if (job->dests[o->dest] < 0) {
        return;
    }
    if (job->tag_output && !o->midline) {
        tlen = (size_t)snprintf(tag, sizeof(tag), "[PE %d] ", rank);
    }
    if (stage.dest != o->dest || stage.len + tlen + n + 1 > sizeof(stage.buf)) {
        stage_flush(job);
        stage.dest = o->dest;
    }
    memcpy(stage.buf + stage.len, tag, tlen);
    memcpy(stage.buf + stage.len + tlen, p, n);
    stage.len += tlen + n;
    if (newline) {
        stage.buf[stage.len++] = '\n';
    }
    o->midline = how == PARTIAL;
}

/* Sends the line begun so far (how: PIECE or PARTIAL) and forgets it. */
static void emit_begun(shoal_job_t *job, shoal_out_t *o, int rank, int how)
{
    if (o->len > 0) {
        emit(job, o, rank, o->line, o->len, how);
    }
    o->len = 0;
}

/* Bytes just read from o: whole lines go out, the rest waits in o->line for its end. Costs
 * a memchr and a copy into the stage per line (untagged: per read), and a copy into o->line
 * only for the unended rest. */
static void feed(shoal_job_t *job, shoal_out_t *o, int rank, const char *p, size_t n)
{
    while (n > 0) {
        const char *nl = memchr(p, '\n', n);
        size_t take = nl != NULL ? (size_t)(nl - p) + 1 : n;

        if (o->len + take > LINE_BYTES) {
            take = LINE_BYTES - o->len;
            nl = NULL;
        }
        if (o->len == 0 && nl != NULL && !job->tag_output) {
            /* the fast way: every whole line up to the last newline, in one piece */
            const char *last = memrchr(p, '\n', n);

            take = (size_t)(last - p) + 1;
            emit(job, o, rank, p, take, LINE);
        } else if (o->len == 0 && nl != NULL) {
            emit(job, o, rank, p, take, LINE);
        } else {
            if (o->line == NULL && (o->line = malloc(LINE_BYTES)) == NULL) {
                emit(job, o, rank, p, take, PIECE); /* no room: the piece as it is */
                p += take;
                n -= take;
                continue;
            }
            if (o->len == 0) {
                o->since = shoal_oshrun_now();
            }
            memcpy(o->line + o->len, p, take);
            o->len += take;
            if (nl != NULL || o->len == LINE_BYTES) {
                emit_begun(job, o, rank, nl != NULL ? LINE : PIECE);
            }
        }
        p += take;
        n -= take;
    }
}

/* Reads o until it is empty, at its end, or rounds reads were made. */
static void read_out(shoal_job_t *job, int i, int rounds)
{
    static char buf[LINE_BYTES];
    shoal_out_t *o = &job->outs[i];

    while (o->fd >= 0 && rounds-- > 0) {
        ssize_t n = read(o->fd, buf, sizeof(buf));

        if (n > 0) {
            feed(job, o, i / 2, buf, (size_t)n);
        } else if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
            if (errno == EAGAIN) {
                return;
            }
        } else {
            /* end of the stream (a pty's master reads EIO once the PE's side is closed) */
            emit_begun(job, o, i / 2, PIECE);
            close(o->fd);
            o->fd = -1;
        }
    }
}

/* At a terminal, shows the lines that have waited STALL_S for their end (a prompt). */
static void show_stalled(shoal_job_t *job)
{
    double now = shoal_oshrun_now();

    for (int i = 0; (job->tty[0] || job->tty[1]) && i < 2 * job->np; i++) {
        shoal_out_t *o = &job->outs[i];

        if (o->len > 0 && o->dest < 2 && job->tty[o->dest] && now >= o->since + STALL_S) {
            emit_begun(job, o, i / 2, PARTIAL);
        }
    }
}

void shoal_oshrun_output_drain(shoal_job_t *job, const struct pollfd *pfds, int n)
{
    for (int i = 0; pfds == NULL && i < 2 * job->np; i++) {
        read_out(job, i, 16);
    }
    for (int k = 0; pfds != NULL && k < n; k++) {
        if (pfds[k].revents != 0) {
            read_out(job, job->pfd_out[k], 16);
        }
    }
    show_stalled(job);
    stage_flush(job);
}

void shoal_oshrun_output_finish(shoal_job_t *job)
{
    for (int i = 0; i < 2 * job->np; i++) {
        read_out(job, i, 1024);
        emit_begun(job, &job->outs[i], i / 2, PIECE);
    }
    stage_flush(job);
}

double shoal_oshrun_output_flush_at(const shoal_job_t *job)
{
    double at = 0;

    for (int i = 0; (job->tty[0] || job->tty[1]) && i < 2 * job->np; i++) {
        const shoal_out_t *o = &job->outs[i];

        if (o->len > 0 && o->dest < 2 && job->tty[o->dest] &&
            (at == 0 || o->since + STALL_S < at)) {
            at = o->since + STALL_S;
        }
    }
    return at;
}

int shoal_oshrun_output_pollfds(shoal_job_t *job, struct pollfd *pfds)
{
    int n = 0;

    for (int i = 0; i < 2 * job->np; i++) {
        if (job->outs[i].fd >= 0) {
            pfds[n].fd = job->outs[i].fd;
            pfds[n].events = POLLIN;
            pfds[n].revents = 0;
            job->pfd_out[n++] = i;
        }
    }
    return n;
}
