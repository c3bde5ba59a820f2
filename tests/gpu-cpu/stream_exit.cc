/* A stream destroyed while its work still runs, and the process ending before its
 * worker does (as shmem_finalize destroys the GPU heap's streams, and a loaded
 * machine may run their workers only once main has returned): the worker must
 * then touch nothing that exit's static destructors freed. Here a kernel on the
 * stream waits until a handler registered before every static object of the
 * program releases it, so the worker ends strictly after those destructors;
 * the handler waits until the kernel threads and the worker are gone. No PE:
 * only the CPU engine's streams. Exit 0 pass, 99 fail (a crash or a timeout
 * fails too). */
#include <cuda_runtime_api.h> /* this directory's */

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int started; /* set by the kernel */
static int release; /* set by the handler: the kernel returns */
static int busy;    /* the threads while the first kernel runs, the worker's among them */

/* This process's threads, from /proc/self/task; -1 when it cannot be read. */
static int threads(void)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;

    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void pause_ms(long ms)
{
    struct timespec ts = {0, ms * 1000000L};

    nanosleep(&ts, NULL);
}

/* Runs after every static destructor of the program (registered first, below). */
static void after_statics(void)
{
    int n;

    __atomic_store_n(&release, 1, __ATOMIC_RELEASE);
    /* Both kernels run to their end and their threads are joined; then the
     * worker finds its stream destroyed and ends: two fewer threads than busy
     * (the alarm ends a hang). */
    cudaDeviceSynchronize();
    while ((n = threads()) > busy - 2)
        pause_ms(1);
    if (n < 0) {
        printf("stream_exit: cannot read /proc/self/task at exit\n");
        _exit(99);
    }
    printf("stream_exit: the destroyed stream's worker ended after the static destructors\n");
    fflush(stdout);
}

/* Before the default-priority constructors, so before any static object of the
 * engine registers its destructor: exit calls this handler after them all. */
__attribute__((constructor(101))) static void register_first(void)
{
    atexit(after_statics);
}

int main(void)
{
    cudaStream_t s;

    alarm(60);
    if (cudaStreamCreate(&s) != cudaSuccess) {
        printf("stream_exit: cudaStreamCreate failed\n");
        return 99;
    }
    shoal_dev_cpu_launch_on(s, 1, 1, [] {
        __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
        while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE))
            pause_ms(1);
    });
    /* Queued behind it: the worker starts this one's thread after the static
     * destructors too. */
    shoal_dev_cpu_launch_on(s, 1, 1, [] {});
    while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
        pause_ms(1);
    busy = threads();
    if (busy < 3) {
        printf("stream_exit: %d threads with a kernel running, expected main, the stream's "
               "worker and the kernel's thread at least\n",
               busy);
        return 99;
    }
    /* Returns at once, as CUDA's does: the kernel still runs. */
    if (cudaStreamDestroy(s) != cudaSuccess) {
        printf("stream_exit: cudaStreamDestroy failed\n");
        return 99;
    }
    return 0;
}
