/* CUDA streams for the CPU engine: a stream is a FIFO of launches and one worker
 * thread that starts each launch (dev_cpu.cc's threads) only once the one before
 * it has finished, so the _on_stream routines run in stream order here as on a
 * GPU. Test code, like dev_cpu.cc: it must never hold a lock while a kernel runs,
 * or a kernel that waits on the host would wait forever. */
#include <cuda_runtime_api.h> /* this directory's */

#include "shoal_wake.h"

#include <pthread.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

typedef struct launch {
    unsigned grid, block;
    std::function<void()> kernel;
} launch_t;

struct CUstream_st {
    std::deque<launch_t> queue;
    unsigned long long enqueued, completed; /* idle when equal */
    bool destroyed;                         /* the worker ends once the queue is empty */
    cudaError_t error;                      /* sticky: later work is dropped */
};

/* One lock and one wake-up word for every stream: enqueues and completions are
 * rare next to the kernels' work, and a drain must see all streams at once. Not
 * a std::condition_variable: glibc's can hang in notify_all (see shoal_wake.h),
 * which 4 PEs of gpu_stream on 2 busy CPUs met about once in 20 runs. */
static std::mutex lock;
static unsigned changes; /* shoal_wake.h: bumped, under lock, when a stream changes */

/* The streams, live and destroyed but not yet idle. Made once and never freed,
 * like the lock and the word (which have no destructor): a destroyed stream's
 * worker may end after main has returned (shmem_finalize destroys the GPU heap's
 * streams, and a loaded machine may run their workers only later), and a static
 * vector would be freed under it by exit's destructors. */
static std::vector<CUstream_st *> &stream_list(void)
{
    static std::vector<CUstream_st *> *streams = new std::vector<CUstream_st *>;

    return *streams;
}

/* Under lock: waits until done() holds. */
template <typename Pred> static void wait_until(std::unique_lock<std::mutex> &g, Pred done)
{
    while (!done()) {
        unsigned seen = shoal_wake_seen(&changes);

        g.unlock();
        shoal_wake_sleep(&changes, seen);
        g.lock();
    }
}

/* Counts a launch's threads out: the worker waits until the last one ends. */
typedef struct latch {
    unsigned left;  /* atomic */
    unsigned ended; /* shoal_wake.h: bumped by the last thread */
} latch_t;

/* Runs one launch to its end. A launch that could not start all its threads
 * fails the stream, as a sticky CUDA error does: its started threads are never
 * counted, so waiting for them could hang. cudaGetLastError is global here, so
 * it may also take the error of a launch made at the same moment elsewhere;
 * both are failures of the same resource. */
static cudaError_t run(launch_t &l)
{
    std::shared_ptr<latch_t> done = std::make_shared<latch_t>();
    std::function<void()> kernel = std::move(l.kernel);
    cudaError_t rc;

    done->left = l.grid * l.block;
    done->ended = 0;
    shoal_dev_cpu_launch(l.grid, l.block, [done, kernel]() {
        kernel();
        if (__atomic_sub_fetch(&done->left, 1, __ATOMIC_ACQ_REL) == 0)
            shoal_wake_all(&done->ended);
    });
    rc = cudaGetLastError();
    if (rc != cudaSuccess)
        return rc;
    for (;;) {
        unsigned seen = shoal_wake_seen(&done->ended);

        if (__atomic_load_n(&done->left, __ATOMIC_ACQUIRE) == 0)
            return cudaSuccess;
        shoal_wake_sleep(&done->ended, seen);
    }
}

static void *worker_main(void *arg)
{
    CUstream_st *s = (CUstream_st *)arg;
    std::vector<CUstream_st *> &streams = stream_list();
    std::unique_lock<std::mutex> g(lock);

    for (;;) {
        wait_until(g, [s] { return !s->queue.empty() || s->destroyed; });
        if (s->queue.empty())
            break;
        launch_t l = std::move(s->queue.front());
        s->queue.pop_front();
        if (s->error == cudaSuccess) {
            g.unlock();
            cudaError_t rc = run(l);
            g.lock();
            if (rc != cudaSuccess)
                s->error = rc;
        }
        s->completed++;
        shoal_wake_all(&changes);
    }
    streams.erase(std::find(streams.begin(), streams.end(), s));
    shoal_wake_all(&changes);
    g.unlock();
    delete s;
    return NULL;
}

static cudaError_t stream_start(CUstream_st **out)
{
    CUstream_st *s = new CUstream_st();
    pthread_t tid;

    if (pthread_create(&tid, NULL, worker_main, s) != 0) {
        delete s;
        return cudaErrorLaunchOutOfResources;
    }
    pthread_detach(tid);
    std::lock_guard<std::mutex> g(lock);
    stream_list().push_back(s);
    *out = s;
    return cudaSuccess;
}

/* The NULL stream: a worker of its own, started at first use and never ended
 * (a static destructor at exit could wait for a kernel that never returns). It
 * does not synchronize with the other streams as CUDA's legacy default stream
 * does: work on it is ordered only against other work on it. */
static CUstream_st *stream_of(cudaStream_t stream)
{
    static CUstream_st *null_stream;
    static std::once_flag once;

    if (stream != NULL)
        return stream;
    std::call_once(once, [] {
        if (stream_start(&null_stream) != cudaSuccess)
            abort(); /* no thread for the default stream: nothing can run */
    });
    return null_stream;
}

void shoal_dev_cpu_launch_on(cudaStream_t stream, unsigned grid, unsigned block,
                             std::function<void()> kernel)
{
    CUstream_st *s = stream_of(stream);
    std::lock_guard<std::mutex> g(lock);

    s->queue.push_back(launch_t{grid, block, std::move(kernel)});
    s->enqueued++;
    shoal_wake_all(&changes);
}

cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    return stream_start(stream);
}

/* Every stream here is non-blocking already (see stream_of): flags change nothing. */
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags)
{
    (void)flags;
    return stream_start(stream);
}

/* As CUDA's: returns at once; the stream's work still runs, then the worker
 * frees it. */
cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    if (stream == NULL)
        return cudaErrorInvalidResourceHandle;
    std::lock_guard<std::mutex> g(lock);
    stream->destroyed = true;
    shoal_wake_all(&changes);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    CUstream_st *s = stream_of(stream);
    std::unique_lock<std::mutex> g(lock);
    unsigned long long target = s->enqueued;

    wait_until(g, [s, target] { return s->completed >= target; });
    return s->error;
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    CUstream_st *s = stream_of(stream);
    std::lock_guard<std::mutex> g(lock);

    if (s->error != cudaSuccess)
        return s->error;
    return s->completed == s->enqueued ? cudaSuccess : cudaErrorNotReady;
}

void shoal_dev_cpu_streams_drain(void)
{
    std::unique_lock<std::mutex> g(lock);

    wait_until(g, [] {
        for (CUstream_st *s : stream_list())
            if (s->completed != s->enqueued)
                return false;
        return true;
    });
}
