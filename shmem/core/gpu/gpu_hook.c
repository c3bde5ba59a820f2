/* The GPU library's hooks (shoal_gpu_hook.h): where libshoal_gpu, when a program
 * links it, joins start-up, barriers and shut-down. Without it every call here
 * is one test of a NULL pointer. Nothing here knows about CUDA. */
#include "shoal_coll.h"
#include "shoal_core.h"
#include "shoal_core_gpu.h"

#include <stdarg.h>
#include <stdio.h>

const shoal_gpu_hooks_t *shoal_gpu_hooks;

static shoal_gpu_env_t gpu_env;

void shoal_gpu_hooks_set(const shoal_gpu_hooks_t *hooks)
{
    shoal_gpu_hooks = hooks;
}

__attribute__((format(printf, 2, 3))) static void gpu_log(int level, const char *fmt, ...)
{
    va_list ap;

    if (level > shoal_log_level)
        return;
    va_start(ap, fmt);
    shoal_log_vprint(level, fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 1, 2), noreturn)) static void gpu_fatal(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    shoal_log_vfatal(fmt, ap); /* does not return: no va_end */
}

static unsigned gpu_progress(void)
{
    return shoal_core_state.net != NULL ? shoal_core_net->progress(shoal_core_state.net) : 0;
}

static void gpu_coll_args(const char *routine, const unsigned long long *vals,
                          const char *const *names, int n)
{
    uint64_t v[SHOAL_CHECK_VALS];
    int i;

    if (!shoal_core_state.settings.check_coll)
        return;
    for (i = 0; i < n && i < SHOAL_CHECK_VALS; i++)
        v[i] = vals[i];
    shoal_coll_check(&shoal_team_world.pset, routine, v, names, i, 0);
}

static void gpu_barrier(const char *routine)
{
    shoal_coll_barrier(&shoal_team_world.pset, 1, routine);
}

void shoal_core_gpu_init(char *summary, size_t len)
{
    summary[0] = '\0';
    if (shoal_gpu_hooks == NULL)
        return;
    gpu_env = (shoal_gpu_env_t){
        .my_pe = shoal_core_state.my_pe,
        .n_pes = shoal_core_state.n_pes,
        .heap_base = shoal_core_state.seg[SHOAL_SEG_HEAP].base,
        .heap_size = shoal_core_state.seg[SHOAL_SEG_HEAP].size,
        .peer_heap = shoal_peer_heap,
        .proxy = shoal_core_state.settings.gpu_proxy,
        .gpu_heap_size = shoal_core_state.settings.gpu_symmetric_size,
        .coll_args = gpu_coll_args,
        .barrier = gpu_barrier,
        .progress = gpu_progress,
        .log = gpu_log,
        .fatal = gpu_fatal,
    };
    shoal_gpu_hooks->init(&gpu_env, summary, len);
    /* The GPU heap, if any: the direct path leaves local buffers there to the
     * checked one (the CPU cannot copy device memory). */
    if (shoal_gpu_hooks->gheap_range != NULL) {
        shoal_core_state.device_lo = shoal_gpu_hooks->gheap_range->base;
        shoal_core_state.device_size = shoal_gpu_hooks->gheap_range->size;
    }
}

void shoal_core_gpu_finalize(void)
{
    shoal_core_state.device_lo = 0;
    shoal_core_state.device_size = 0;
    if (shoal_gpu_hooks != NULL)
        shoal_gpu_hooks->finalize();
}
