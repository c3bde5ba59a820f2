/* oshrun: start N copies of a program on this node as the PEs of one Shoal job, with an
 * embedded PMIx server for their wire-up. The job's life cycle lives here (its options in
 * args.c, its CPUs in bind.c, its output in output.c). It must
 * never grow a remote launcher: multi-node jobs are handed to srun, prterun or mpirun
 * (delegate.c). */
#define _GNU_SOURCE /* pipe2 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "oshrun.h"

extern char **environ;

void shoal_oshrun_wake(shoal_job_t *job)
{
    char c = 0;

    if (write(job->wake[1], &c, 1) < 0) {
        /* pipe full: the main thread has a wake-up pending anyway */
    }
}

char **shoal_oshrun_env_dup(char **env)
{
    size_t n = 0;
    char **copy;

    while (env[n] != NULL) {
        n++;
    }
    copy = calloc(n + 1, sizeof(*copy));
    for (size_t i = 0; copy != NULL && i < n; i++) {
        copy[i] = strdup(env[i]);
        if (copy[i] == NULL) {
            shoal_oshrun_env_free(copy);
            copy = NULL;
        }
    }
    if (copy == NULL) {
        fprintf(stderr, "oshrun: out of memory\n");
    }
    return copy;
}

void shoal_oshrun_env_free(char **env)
{
    for (size_t i = 0; env != NULL && env[i] != NULL; i++) {
        free(env[i]);
    }
    free(env);
}

int shoal_oshrun_env_put(char ***envp, const char *assign)
{
    size_t len = strcspn(assign, "="), n;
    char **env = *envp, *s = strdup(assign);

    if (s == NULL) {
        return -1;
    }
    for (n = 0; env[n] != NULL; n++) {
        if (strncmp(env[n], assign, len) == 0 && env[n][len] == '=') {
            free(env[n]);
            env[n] = s;
            return 0;
        }
    }
    env = realloc(env, (n + 2) * sizeof(*env));
    if (env == NULL) {
        free(s);
        return -1;
    }
    env[n] = s;
    env[n + 1] = NULL;
    *envp = env;
    return 0;
}

/* Tells the PEs (OSHRUN_BINDING, which SHMEM_INFO prints) and --verbose what bind.c chose. */
static int publish_binding(shoal_job_t *job)
{
    char assign[sizeof(job->binding) + 32];

    if (job->verbose) {
        fprintf(stderr, "oshrun: binding %s\n", job->binding);
    }
    snprintf(assign, sizeof(assign), "OSHRUN_BINDING=%s", job->binding);
    if (shoal_oshrun_env_put(&job->env, assign) != 0) {
        fprintf(stderr, "oshrun: out of memory\n");
        return 1;
    }
    return 0;
}

char *shoal_oshrun_path_find(const char *prog, const char *path, int *err_out)
{
    struct stat st;
    char *found;

    *err_out = ENOENT;
    if (path == NULL) {
        path = "/usr/local/bin:/usr/bin:/bin"; /* execvp's own choice without a PATH */
    }
    if (strchr(prog, '/') != NULL) {
        if (stat(prog, &st) != 0) {
            *err_out = errno;
            return NULL;
        }
        if (S_ISDIR(st.st_mode) || access(prog, X_OK) != 0) {
            *err_out = EACCES;
            return NULL;
        }
        found = strdup(prog);
        *err_out = found != NULL ? 0 : ENOMEM;
        return found;
    }
    while (*prog != '\0') {
        size_t dlen = strcspn(path, ":");
        char buf[PATH_MAX];

        snprintf(buf, sizeof(buf), "%.*s%s%s", (int)dlen, dlen ? path : ".", "/", prog);
        if (stat(buf, &st) == 0 && !S_ISDIR(st.st_mode)) {
            if (access(buf, X_OK) == 0) {
                found = strdup(buf);
                *err_out = found != NULL ? 0 : ENOMEM;
                return found;
            }
            *err_out = EACCES;
        }
        if (path[dlen] == '\0') {
            break;
        }
        path += dlen + 1;
    }
    return NULL;
}

/* What execvp would run, found now so that a typo fails once, before anything starts. */
static int resolve_path(shoal_job_t *job)
{
    const char *path = NULL;
    int err;

    for (char **e = job->env; *e != NULL; e++) {
        if (strncmp(*e, "PATH=", 5) == 0) {
            path = *e + 5;
        }
    }
    job->path = shoal_oshrun_path_find(job->argv[0], path, &err);
    if (job->path != NULL) {
        return 0;
    }
    fprintf(stderr, "oshrun: cannot run '%s': %s\n", job->argv[0], strerror(err));
    return err == ENOMEM ? 1 : 127;
}

/* The PEs get oshrun's environment minus what an outer PMIx launcher put there. */
static char **base_env(void)
{
    char **env = shoal_oshrun_env_dup(environ);
    size_t j = 0;

    for (size_t i = 0; env != NULL && env[i] != NULL; i++) {
        if (strncmp(env[i], "PMIX_", 5) == 0 && strncmp(env[i], "PMIX_MCA_", 9) != 0) {
            free(env[i]);
        } else {
            env[j++] = env[i];
        }
    }
    if (env != NULL) {
        env[j] = NULL;
    }
    return env;
}

/* After a failed start: end whatever was forked, without a message of its own. */
static void end_partial_job(shoal_job_t *job)
{
    shoal_oshrun_procs_kill(job, SIGKILL);
    for (int r = 0; r < job->np; r++) {
        if (job->pes[r].pid > 0) {
            waitpid(job->pes[r].pid, NULL, 0);
        }
    }
}

int main(int argc, char **argv)
{
    shoal_job_t job = {.np = 1,
                       .bind = SHOAL_OSHRUN_BIND_AUTO,
                       .lock = PTHREAD_MUTEX_INITIALIZER,
                       .abort_rank = -1,
                       .wake = {-1, -1},
                       .devnull = -1};
    int status;

    job.env = base_env();
    if (job.env == NULL) {
        return 1;
    }
    status = shoal_oshrun_args_parse(&job, argc, argv);
    if (status < 0 && (job.hosts != NULL || job.hostfile != NULL || job.npernode > 0)) {
        status = shoal_oshrun_delegate(&job);
        goto err_env;
    }
    if (status < 0 && job.launcher != NULL) {
        status = shoal_oshrun_usage_error("%s", "--launcher needs -H, --hostfile or -N");
    }
    if (status >= 0 || (status = resolve_path(&job)) != 0) {
        goto err_env;
    }
    status = 1;
    job.pes = calloc((size_t)job.np, sizeof(*job.pes));
    if (job.pes == NULL) {
        goto err_env;
    }
    for (int r = 0; r < job.np; r++) {
        job.pes[r].errpipe = -1;
    }
    status = shoal_oshrun_bind_plan(&job);
    if (status != 0 || (status = publish_binding(&job)) != 0 ||
        (status = shoal_oshrun_output_init(&job)) != 0) {
        goto err_fds;
    }
    status = 1;
    snprintf(job.nspace, sizeof(job.nspace), "shoal.%d", (int)getpid());
    if (pipe2(job.wake, O_CLOEXEC | O_NONBLOCK) != 0 ||
        (job.devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
        fprintf(stderr, "oshrun: %s\n", strerror(errno));
        goto err_fds;
    }
    /* before PMIx starts its threads, so that they inherit the blocked mask */
    shoal_oshrun_procs_block_signals();
    if (shoal_oshrun_tmpdir_make(&job) != 0) {
        goto err_fds;
    }
    if (shoal_oshrun_server_init(&job) != 0) {
        goto err_tmpdir;
    }
    if (shoal_oshrun_server_register(&job) != 0) {
        goto err_server;
    }
    if (shoal_oshrun_procs_spawn(&job) != 0) {
        end_partial_job(&job);
        shoal_oshrun_server_report(&job);
        goto err_server;
    }
    status = shoal_oshrun_procs_wait(&job);
    shoal_oshrun_server_report(&job);
    if (status != 0 || job.abort_rank >= 0 || !shoal_oshrun_server_can_cleanup(&job)) {
        /* PMIx's teardown is not safe after lost or refused clients (see server.c), an
         * abort with status 0 (shmem_global_exit(0)) included: the PEs are all reaped, so
         * remove our files and leave without it */
        shoal_oshrun_tmpdir_remove(&job);
        fflush(NULL);
        _exit(status);
    }

err_server:
    shoal_oshrun_server_cleanup(&job);
err_tmpdir:
    shoal_oshrun_tmpdir_remove(&job);
err_fds:
    for (int r = 0; job.pes != NULL && r < job.np; r++) {
        if (job.pes[r].errpipe >= 0) {
            close(job.pes[r].errpipe);
        }
    }
    if (job.devnull >= 0) {
        close(job.devnull);
    }
    if (job.wake[0] >= 0) {
        close(job.wake[0]);
        close(job.wake[1]);
    }
    shoal_oshrun_output_cleanup(&job);
    free(job.pes);
    free(job.bind_sets);
    free(job.abort_msg);
    free(job.path);
err_env:
    free(job.xvars);
    shoal_oshrun_env_free(job.env);
    return status;
}
