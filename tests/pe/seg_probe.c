/* Not a test by itself: seg-private.sh runs it as another user of the job owner's
 * group. It reads a list of the job's shared mappings (lines "PID <maps line>", taken
 * by root from /proc/PID/maps) and tries to reach each one as an outsider would: a
 * SysV segment by its id (shmat), a file by its name, and both through
 * /proc/PID/map_files and /proc/PID/fd. Exit 0 when none is reachable, 1 when one
 * is (each named), 99 when the list held no mapping at all (nothing was tested). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <unistd.h>

static int reached;

static void try_open(const char *path, const char *what)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

    if (fd < 0 && errno == ELOOP) /* /proc's links: follow them, as an attacker would */
        fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        printf("seg_probe: REACHABLE: %s opened for reading (%s)\n", path, what);
        reached++;
        close(fd);
    }
}

/* Every descriptor the PE holds: a memfd or deleted file is reachable only there. */
static void try_fds(int pid)
{
    char path[64];
    DIR *d;
    struct dirent *e;

    snprintf(path, sizeof(path), "/proc/%d/fd", pid);
    d = opendir(path);
    if (d == NULL)
        return; /* the expected answer: only its user may list them */
    printf("seg_probe: REACHABLE: %s can be listed\n", path);
    reached++;
    while ((e = readdir(d)) != NULL) {
        char fdpath[300];

        if (e->d_name[0] == '.')
            continue;
        snprintf(fdpath, sizeof(fdpath), "/proc/%d/fd/%s", pid, e->d_name);
        try_open(fdpath, "a descriptor of the PE");
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    char line[1024];
    int mappings = 0, last_pid = -1;
    FILE *f = argc == 2 ? fopen(argv[1], "r") : NULL;

    if (f == NULL) {
        fprintf(stderr, "usage: seg_probe MAPS_LIST (a readable file)\n");
        return 99;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        int pid, n = 0;
        unsigned long start, end, inode;
        char perms[8], path[700] = "", mf[128];

        if (sscanf(line, "%d %lx-%lx %7s %*s %*s %lu %n", &pid, &start, &end, perms, &inode, &n) <
                5 ||
            perms[3] != 's')
            continue;
        sscanf(line + n, "%699[^\n]", path);
        mappings++;
        if (pid != last_pid)
            try_fds(pid);
        last_pid = pid;
        snprintf(mf, sizeof(mf), "/proc/%d/map_files/%lx-%lx", pid, start, end);
        try_open(mf, path);
        if (strncmp(path, "/SYSV", 5) == 0) {
            void *p = shmat((int)inode, NULL, 0);

            if (p == (void *)-1)
                p = shmat((int)inode, NULL, SHM_RDONLY);
            if (p != (void *)-1) {
                printf("seg_probe: REACHABLE: SysV segment %lu (%lu bytes) of PID %d "
                       "attached\n",
                       inode, end - start, pid);
                reached++;
                shmdt(p);
            }
        } else if (path[0] == '/') {
            char *del = strstr(path, " (deleted)");

            if (del != NULL)
                *del = '\0';
            try_open(path, "by its name");
        }
    }
    fclose(f);
    printf("seg_probe: %d shared mappings probed, %d reachable\n", mappings, reached);
    return mappings == 0 ? 99 : reached > 0;
}
