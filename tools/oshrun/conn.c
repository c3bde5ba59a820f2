/* Who holds the far end of a PMIx connection: the kernel's socket diagnostics (or
 * /proc/net/tcp) name the peer socket's inode, and the PEs' open files (and those of the
 * processes they started) say whose it is. Read-only: it never signals or changes a process. */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#ifdef __linux__
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#endif

#include "oshrun.h"

typedef struct {
    unsigned long *v;
    size_t n, cap;
} list_t;

static int list_add(list_t *l, unsigned long x)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 32;
        unsigned long *v = realloc(l->v, cap * sizeof(*v));

        if (v == NULL) {
            return -1;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return 0;
}

/* Whether process pid holds socket:[ino]; adds the pids of its children to procs. */
static int holds_socket(unsigned long pid, unsigned long ino, list_t *procs)
{
    char path[64], link[64], want[32];
    struct dirent *e;
    int found = 0;
    DIR *d;

    snprintf(want, sizeof(want), "socket:[%lu]", ino);
    snprintf(path, sizeof(path), "/proc/%lu/fd", pid);
    d = opendir(path);
    while (d != NULL && !found && (e = readdir(d)) != NULL) {
        ssize_t n = readlinkat(dirfd(d), e->d_name, link, sizeof(link) - 1);

        found = n > 0 && (size_t)n == strlen(want) && memcmp(link, want, (size_t)n) == 0;
    }
    if (d != NULL) {
        closedir(d);
    }
    snprintf(path, sizeof(path), "/proc/%lu/task", pid);
    d = found ? NULL : opendir(path);
    while (d != NULL && (e = readdir(d)) != NULL) {
        unsigned long child;
        FILE *f;

        snprintf(path, sizeof(path), "/proc/%lu/task/%.20s/children", pid, e->d_name);
        f = e->d_name[0] != '.' ? fopen(path, "r") : NULL;
        while (f != NULL && fscanf(f, "%lu", &child) == 1) {
            list_add(procs, child);
        }
        if (f != NULL) {
            fclose(f);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    return found;
}

/* Costs a look at every fd of each PE tried: PEs connect in about rank order, so the owner
 * is mostly among the first without a connection. */
static int socket_owner(shoal_job_t *job, unsigned long ino)
{
    list_t procs = {NULL, 0, 0};
    int owner = -1;

    for (int pass = 0; pass < 2 && owner < 0; pass++) {
        for (int r = 0; r < job->np && owner < 0; r++) {
            pid_t pid;
            int busy;

            pthread_mutex_lock(&job->lock);
            pid = job->pes[r].pid;
            busy = job->pes[r].connected || job->pes[r].pending;
            pthread_mutex_unlock(&job->lock);
            if (pid <= 0 || busy != pass) {
                continue;
            }
            procs.n = 0;
            list_add(&procs, (unsigned long)pid);
            /* the PE and what it started, breadth first; 256 is plenty for a wrapper */
            for (size_t i = 0; i < procs.n && i < 256 && owner < 0; i++) {
                if (holds_socket(procs.v[i], ino, &procs)) {
                    owner = r;
                }
            }
        }
    }
    free(procs.v);
    return owner;
}

/* An address as /proc/net/tcp{,6} prints it: each 32-bit word in host order as %08X, then
 * ":%04X" for the port. */
static void tcp_name(const struct sockaddr_storage *ss, char out[48])
{
    const struct sockaddr_in *in = (const struct sockaddr_in *)ss;
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;
    const unsigned char *a = ss->ss_family == AF_INET ? (const unsigned char *)&in->sin_addr
                                                      : (const unsigned char *)&in6->sin6_addr;
    int n = ss->ss_family == AF_INET ? 4 : 16;

    for (int i = 0; i < n; i += 4) {
        uint32_t word;

        memcpy(&word, a + i, sizeof(word));
        snprintf(out + 2 * i, 9, "%08X", (unsigned)word);
    }
    snprintf(out + 2 * n, 6, ":%04X",
             ntohs(ss->ss_family == AF_INET ? in->sin_port : in6->sin6_port));
}

/* The inode of the socket whose address is theirs and whose peer's is mine, searched for in
 * /proc/net/tcp{,6}: it takes milliseconds, as the kernel prints every socket. 0: none;
 * -1: no such file. */
static long proc_lookup(const struct sockaddr_storage *mine, const struct sockaddr_storage *theirs)
{
    char me[48], peer[48], local[48], remote[48], line[512];
    unsigned long ino;
    long found = 0;
    FILE *f = fopen(mine->ss_family == AF_INET ? "/proc/net/tcp" : "/proc/net/tcp6", "r");

    if (f == NULL) {
        return -1;
    }
    tcp_name(mine, me);
    tcp_name(theirs, peer);
    /* "sl local rem st tx:rx tr:when retrnsmt uid timeout inode ..." */
    while (found == 0 && fgets(line, sizeof(line), f) != NULL) {
        if (sscanf(line, "%*s %47s %47s %*s %*s %*s %*s %*s %*s %lu", local, remote, &ino) == 3 &&
            strcmp(local, peer) == 0 && strcmp(remote, me) == 0) {
            found = (long)ino;
        }
    }
    fclose(f);
    return found;
}

/* The same in microseconds: the kernel's sock_diag looks up that one socket. 0: not found,
 * which is also its answer when the diag modules are missing. */
static long diag_lookup(const struct sockaddr_storage *mine, const struct sockaddr_storage *theirs)
{
#ifdef __linux__
    struct {
        struct nlmsghdr nlh;
        struct inet_diag_req_v2 req;
    } q;
    union {
        struct nlmsghdr nlh;
        char buf[1024];
    } a;
    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG), v6;
    long ino = 0;
    ssize_t n;

    if (fd < 0) {
        return 0;
    }
    memset(&q, 0, sizeof(q));
    q.nlh.nlmsg_len = sizeof(q);
    q.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    q.nlh.nlmsg_flags = NLM_F_REQUEST;
    q.req.sdiag_family = (uint8_t)mine->ss_family;
    q.req.sdiag_protocol = IPPROTO_TCP;
    q.req.idiag_states = ~0u;
    q.req.id.idiag_cookie[0] = q.req.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
    /* from the far end's side: the source is theirs, the destination ours */
    v6 = mine->ss_family == AF_INET6;
    q.req.id.idiag_sport = v6 ? ((const struct sockaddr_in6 *)theirs)->sin6_port
                              : ((const struct sockaddr_in *)theirs)->sin_port;
    q.req.id.idiag_dport = v6 ? ((const struct sockaddr_in6 *)mine)->sin6_port
                              : ((const struct sockaddr_in *)mine)->sin_port;
    memcpy(q.req.id.idiag_src,
           v6 ? (const void *)&((const struct sockaddr_in6 *)theirs)->sin6_addr
              : (const void *)&((const struct sockaddr_in *)theirs)->sin_addr,
           v6 ? 16 : 4);
    memcpy(q.req.id.idiag_dst,
           v6 ? (const void *)&((const struct sockaddr_in6 *)mine)->sin6_addr
              : (const void *)&((const struct sockaddr_in *)mine)->sin_addr,
           v6 ? 16 : 4);
    /* the kernel answers within sendto: the reply is queued when it returns */
    if (sendto(fd, &q, sizeof(q), 0, (struct sockaddr *)&kernel, sizeof(kernel)) ==
            (ssize_t)sizeof(q) &&
        (n = recv(fd, &a, sizeof(a), MSG_DONTWAIT)) >=
            (ssize_t)NLMSG_LENGTH(sizeof(struct inet_diag_msg)) &&
        a.nlh.nlmsg_type == SOCK_DIAG_BY_FAMILY) {
        ino = (long)((struct inet_diag_msg *)NLMSG_DATA(&a.nlh))->idiag_inode;
    }
    close(fd);
    return ino;
#else
    (void)mine;
    (void)theirs;
    return 0;
#endif
}

int shoal_oshrun_conn_owner(shoal_job_t *job, int sd)
{
    struct sockaddr_storage mine, theirs;
    socklen_t len1 = sizeof(mine), len2 = sizeof(theirs);
    long ino;

    if (getsockname(sd, (struct sockaddr *)&mine, &len1) != 0 ||
        getpeername(sd, (struct sockaddr *)&theirs, &len2) != 0 ||
        (mine.ss_family != AF_INET && mine.ss_family != AF_INET6)) {
        return -2;
    }
    ino = diag_lookup(&mine, &theirs);
    if (ino == 0) {
        ino = proc_lookup(&mine, &theirs);
    }
    return ino < 0 ? -2 : ino == 0 ? -1 : socket_owner(job, (unsigned long)ino);
}
