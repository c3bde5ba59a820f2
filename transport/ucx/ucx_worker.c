/* Workers and progress. A worker's lock serialises every call on it, from any
 * thread, so the progress thread can serve peers while the PE computes (UCX
 * over shared memory or TCP does RMA in software: the target must progress).
 * Progress never blocks: a worker another thread holds is skipped. */
#include "ucx_impl.h"
#include "shoal_log.h"
#include "shoal_status.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

shoal_status_t shoal_ucx_worker_init(shoal_ucx_t *ucx, shoal_ucx_worker_t *w)
{
    /* Our lock serialises every call, from any thread. */
    ucp_worker_params_t wparams = {
        .field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
        .thread_mode = UCS_THREAD_MODE_SERIALIZED,
    };
    ucs_status_t st;

    memset(w, 0, sizeof(*w));
    w->ucx = ucx;
    w->stuck_pe = -1;
    st = ucp_worker_create(ucx->context, &wparams, &w->worker);
    if (st != UCS_OK) {
        shoal_log_error("UCX: cannot create a worker: %s", ucs_status_string(st));
        return SHOAL_ERR_TRANSPORT;
    }
    pthread_mutex_init(&w->lock, NULL);
    return SHOAL_OK;
}

void shoal_ucx_worker_cleanup(shoal_ucx_worker_t *w)
{
    shoal_ucx_quiet(w, 1);
    free(w->pending);
    ucp_worker_destroy(w->worker);
    pthread_mutex_destroy(&w->lock);
}

shoal_ucx_worker_t *shoal_ucx_main_worker(shoal_ucx_t *ucx)
{
    return &ucx->main;
}

shoal_status_t shoal_ucx_worker_create(shoal_ucx_t *ucx, shoal_ucx_worker_t **w_out)
{
    shoal_ucx_worker_t *w = malloc(sizeof(*w));
    int status;

    if (w == NULL)
        return SHOAL_ERR_NO_MEMORY;
    status = shoal_ucx_worker_init(ucx, w);
    if (status != SHOAL_OK) {
        free(w);
        return status;
    }
    pthread_mutex_lock(&ucx->workers_lock);
    w->next = ucx->main.next;
    ucx->main.next = w;
    pthread_mutex_unlock(&ucx->workers_lock);
    *w_out = w;
    return SHOAL_OK;
}

void shoal_ucx_worker_destroy(shoal_ucx_worker_t *w)
{
    shoal_ucx_worker_t **link;

    if (w == NULL)
        return;
    pthread_mutex_lock(&w->ucx->workers_lock);
    for (link = &w->ucx->main.next; *link != NULL; link = &(*link)->next) {
        if (*link == w) {
            *link = w->next;
            break;
        }
    }
    pthread_mutex_unlock(&w->ucx->workers_lock);
    shoal_ucx_worker_cleanup(w);
    free(w);
}

static void *progress_main(void *arg)
{
    shoal_ucx_t *ucx = arg;
    struct timespec pause = {.tv_sec = ucx->progress_us / 1000000,
                             .tv_nsec = (long)(ucx->progress_us % 1000000) * 1000};

    while (!__atomic_load_n(&ucx->progress_stop, __ATOMIC_RELAXED)) {
        while (shoal_ucx_progress(ucx) != 0)
            ;
        nanosleep(&pause, NULL);
    }
    return NULL;
}

shoal_status_t shoal_ucx_progress_start(shoal_ucx_t *ucx)
{
    int rc;

    if (ucx->progress_us == 0 || ucx->progress_running)
        return SHOAL_OK;
    rc = pthread_create(&ucx->progress_thread, NULL, progress_main, ucx);
    if (rc != 0) {
        shoal_log_error("cannot start the UCX progress thread: %s", strerror(rc));
        return SHOAL_ERR_SYSTEM;
    }
    ucx->progress_running = 1;
    return SHOAL_OK;
}

/* Every worker, not only the main one: a peer may wait on any of them. A flush
 * of the main worker covers the endpoints UCX made back to a peer's contexts,
 * and over TCP those complete only when that context's worker progresses (the
 * peer may be sitting in a barrier, never touching the context). A worker that
 * another thread holds is skipped: that thread progresses it. */
unsigned shoal_ucx_progress(shoal_ucx_t *ucx)
{
    shoal_ucx_worker_t *w;
    unsigned events = 0;

    if (__atomic_load_n(&ucx->gave_up, __ATOMIC_RELAXED) ||
        pthread_mutex_trylock(&ucx->workers_lock) != 0)
        return 0;
    for (w = &ucx->main; w != NULL; w = w->next) {
        if (pthread_mutex_trylock(&w->lock) != 0)
            continue;
        events += ucp_worker_progress(w->worker);
        pthread_mutex_unlock(&w->lock);
    }
    pthread_mutex_unlock(&ucx->workers_lock);
    return events;
}
