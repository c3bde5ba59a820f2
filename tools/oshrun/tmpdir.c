/* oshrun's temporary directory (PMIx's sockets and files): made at start with a record of
 * its owner, removed at the end, and swept at the next start on the node when an oshrun was
 * killed outright. It must never remove a live oshrun's directory, another user's, or one
 * whose owner it cannot see (another host or container sharing TMPDIR). */
#define _GNU_SOURCE /* O_CLOEXEC, dprintf */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "oshrun.h"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

/* Who owns an oshrun directory, as its file "pid" says: "PID START HOST PIDNS". START is the
 * process's start time (clock ticks after boot, 0 unknown), so that a reused pid does not
 * pass for the owner; HOST and PIDNS because a TMPDIR shared with other nodes or containers
 * holds directories whose owners cannot be seen from here. */
typedef struct {
    long pid;
    unsigned long long start;
    char host[256];
    char pidns[64];
} owner_t;

/* Field 22 of /proc/PID/stat; 0 when it cannot be read. */
static unsigned long long start_time(long pid)
{
    unsigned long long start = 0;
    char path[64], buf[1024], *p;
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    f = fopen(path, "r");
    if (f == NULL) {
        return 0;
    }
    /* the command name, field 2, may hold spaces and ')': count from the last ')' */
    p = fgets(buf, sizeof(buf), f) != NULL ? strrchr(buf, ')') : NULL;
    for (int field = 2; p != NULL && field < 22; field++) {
        p = strchr(p + 1, ' ');
    }
    if (p != NULL) {
        start = strtoull(p + 1, NULL, 10);
    }
    fclose(f);
    return start;
}

static void owner_self(owner_t *o)
{
    ssize_t n;

    o->pid = (long)getpid();
    o->start = start_time(o->pid);
    o->host[sizeof(o->host) - 1] = '\0';
    if (gethostname(o->host, sizeof(o->host) - 1) != 0 || strchr(o->host, ' ') != NULL) {
        strcpy(o->host, "-");
    }
    n = readlink("/proc/self/ns/pid", o->pidns, sizeof(o->pidns) - 1);
    if (n > 0 && memchr(o->pidns, ' ', (size_t)n) == NULL) {
        o->pidns[n] = '\0';
    } else {
        strcpy(o->pidns, "-");
    }
}

/* Whether the oshrun that made directory `name` in dirfd is gone: it says it ran here, and
 * its pid is dead or now another process's. A directory that does not say is left alone: its
 * oshrun may be between mkdtemp and writing "pid", or older than the record. */
static int owner_is_gone(int dirfd, const char *name, const owner_t *self)
{
    char path[300], buf[512];
    owner_t o;
    ssize_t n;
    int fd;

    snprintf(path, sizeof(path), "%s/pid", name);
    fd = openat(dirfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        return 0;
    }
    n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    if (sscanf(buf, "%ld %llu %255s %63s", &o.pid, &o.start, o.host, o.pidns) != 4 || o.pid <= 0 ||
        strcmp(o.host, self->host) != 0 || strcmp(o.pidns, self->pidns) != 0) {
        return 0;
    }
    if (o.start != 0 && self->start != 0) {
        return start_time(o.pid) != o.start;
    }
    return kill((pid_t)o.pid, 0) != 0 && errno == ESRCH;
}

/* An oshrun killed outright (SIGKILL, OOM) cannot remove its directory, some megabytes of
 * PMIx files: the next one on the node does. Only our own uid's, and never a live one's. */
static void remove_stale_tmpdirs(const char *base, const owner_t *self)
{
    DIR *d = opendir(base);
    struct dirent *e;

    if (d == NULL) {
        return;
    }
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        struct stat st;

        if (strncmp(e->d_name, "oshrun.", 7) != 0 || strlen(e->d_name) != 13 ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
            st.st_uid != geteuid() || !owner_is_gone(dirfd(d), e->d_name, self)) {
            continue;
        }
        snprintf(path, sizeof(path), "%s/%s", base, e->d_name);
        nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    closedir(d);
}

int shoal_oshrun_tmpdir_make(shoal_job_t *job)
{
    const char *base = getenv("TMPDIR");
    char path[4200];
    owner_t self;
    int fd;

    /* PMIx puts Unix sockets here: keep the path well short of sun_path's 108 bytes */
    if (base == NULL || base[0] != '/' || strlen(base) > 48) {
        base = "/tmp";
    }
    owner_self(&self);
    remove_stale_tmpdirs(base, &self);
    snprintf(job->tmpdir, sizeof(job->tmpdir), "%s/oshrun.XXXXXX", base);
    if (mkdtemp(job->tmpdir) == NULL) {
        fprintf(stderr, "oshrun: cannot create a directory in %s: %s\n", base, strerror(errno));
        job->tmpdir[0] = '\0';
        return -1;
    }
    /* a directory without the record is merely never swept: no reason to fail the job */
    snprintf(path, sizeof(path), "%s/pid", job->tmpdir);
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        dprintf(fd, "%ld %llu %s %s\n", self.pid, self.start, self.host, self.pidns);
        close(fd);
    }
    return 0;
}

void shoal_oshrun_tmpdir_remove(shoal_job_t *job)
{
    if (job->tmpdir[0] != '\0') {
        nftw(job->tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
}
