/* The UCP context: opened with Shoal's features and its privacy rules
 * (keep_private), destroyed with everything registered on it; and what UCX
 * 1.13 says only in its printouts: its resources (one parser, for the atomicity
 * question and for shoal_info) and whether its AMOs on this PE's memory are CPU
 * atomics. */
#include "ucx_impl.h"
#include "shoal_env.h"
#include "shoal_log.h"
#include "shoal_status.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Transports that never do device (NIC) atomics: their AMOs are the target's CPU
 * atomics (software AMOs, which UCX runs on the target with locked instructions)
 * or CPU atomics on shared memory. A name not listed counts as a NIC's. */
static const char *const cpu_atomic_tls[] = {
    "self",    "tcp",       "sysv",     "posix",    "cma",       "knem",     "xpmem",    "ud_verbs",
    "ud_mlx5", "cuda_copy", "cuda_ipc", "gdr_copy", "rocm_copy", "rocm_ipc", "rocm_gdr", "ze_copy",
};

static int cpu_atomic_tl(const char *tl, size_t len)
{
    size_t i;

    for (i = 0; i < sizeof(cpu_atomic_tls) / sizeof(cpu_atomic_tls[0]); i++)
        if (strlen(cpu_atomic_tls[i]) == len && strncmp(tl, cpu_atomic_tls[i], len) == 0)
            return 1;
    return 0;
}

/* The value UCX's configuration holds for UCX_<name>, read from its printout
 * (UCX 1.13 has no getter), into buf; 0, or -1 when it is not there. */
static int config_value(const ucp_config_t *config, const char *name, char *buf, size_t len)
{
    char *text = NULL, *line, *rest = NULL;
    size_t size = 0, nlen = strlen(name);
    int found = -1;
    FILE *f = open_memstream(&text, &size);

    if (f == NULL)
        return -1;
    ucp_config_print(config, f, NULL, UCS_CONFIG_PRINT_CONFIG);
    fclose(f);
    for (line = strtok_r(text, "\n", &rest); line != NULL; line = strtok_r(NULL, "\n", &rest)) {
        if (strncmp(line, "UCX_", 4) == 0 && strncmp(line + 4, name, nlen) == 0 &&
            line[4 + nlen] == '=' && strlen(line + 5 + nlen) < len) {
            strcpy(buf, line + 5 + nlen);
            found = 0;
            break;
        }
    }
    free(text);
    return found;
}

char **shoal_ucx_resource_words(const char *text, size_t *n_out)
{
    size_t lines = 1, n = 0, len = strlen(text);
    char **list, *copy, *line, *tl, *rest = NULL;

    for (const char *c = text; *c != '\0'; c++)
        lines += *c == '\n';
    list = malloc((lines + 1) * sizeof(*list) + len + 1);
    if (list == NULL)
        return NULL;
    copy = memcpy(list + lines + 1, text, len + 1);
    for (line = strtok_r(copy, "\n", &rest); line != NULL; line = strtok_r(NULL, "\n", &rest)) {
        if (strstr(line, "resource") == NULL || (tl = strstr(line, "-- ")) == NULL)
            continue;
        tl += 3;
        tl[strcspn(tl, " \t")] = '\0';
        if (tl[0] != '\0')
            list[n++] = tl;
    }
    list[n] = NULL;
    *n_out = n;
    return list;
}

char *shoal_ucx_context_text(ucp_context_h context)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);

    if (f == NULL)
        return NULL;
    ucp_context_print_info(context, f);
    fclose(f);
    return text;
}

/* Whether every AMO UCX does on this PE's memory is a CPU atomic, so that PEs of
 * this node may use CPU atomics on it too (one atomicity domain): UCX_ATOMIC_MODE
 * is cpu, or no transport of this context can do NIC atomics. UCX 1.13 has no
 * query for either, so this reads what it prints: the configuration and the
 * resource lines. */
static int uses_cpu_atomics(ucp_context_h context, const ucp_config_t *config)
{
    char *text = shoal_ucx_context_text(context), **tl = NULL, mode[32];
    size_t n = 0, i;
    int cpu = 1;

    if (text == NULL)
        return 0;
    if (config_value(config, "ATOMIC_MODE", mode, sizeof(mode)) != 0 || strcmp(mode, "cpu") != 0) {
        tl = shoal_ucx_resource_words(text, &n);
        cpu = tl != NULL;
        for (i = 0; i < n && cpu; i++)
            cpu = cpu_atomic_tl(tl[i], strcspn(tl[i], "/"));
    }
    free(tl);
    free(text);
    return cpu;
}

/* Whether item is one of the comma-separated words of list. */
static int list_has(const char *list, const char *item)
{
    size_t n = strlen(item);

    for (const char *p = list; *p != '\0'; p += strcspn(p, ","), p += *p == ',') {
        if (strncmp(p, item, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return 1;
    }
    return 0;
}

/* Keeps every segment UCX makes for this PE private to its user. UCX's sysv
 * transport makes SysV segments of mode 0660 (its receive FIFOs, and the heap
 * under SHOAL_TRANSPORT=ucx, which UCX allocates): anyone in the job owner's
 * group could attach them and read or write the symmetric heap. Its posix
 * transport does the same job with files of mode 0600 that it unlinks at once
 * and peers open through /proc/PID/fd, as transport/shm does. So: allocate
 * with md:posix, never md:sysv (nor md:*, which may pick it), and leave the
 * sysv transport out unless UCX_TLS lists transports by name (the user's
 * choice stands; docs/design.md says what it costs). */
static void keep_private(ucp_config_t *config)
{
    char value[512], kept[sizeof(value) + 8] = "";
    size_t used = 0;

    if (config_value(config, "ALLOC_PRIO", value, sizeof(value)) == 0 &&
        (list_has(value, "md:sysv") || list_has(value, "md:*"))) {
        for (char *item = strtok(value, ","); item != NULL; item = strtok(NULL, ",")) {
            if (strcmp(item, "md:sysv") != 0 && strcmp(item, "md:*") != 0)
                used += (size_t)snprintf(kept + used, sizeof(kept) - used, "%s%s",
                                         used > 0 ? "," : "", item);
        }
        if (ucp_config_modify(config, "ALLOC_PRIO", kept) != UCS_OK)
            shoal_log_debug("UCX: cannot set UCX_ALLOC_PRIO to %s", kept);
    }
    if (config_value(config, "TLS", value, sizeof(value)) != 0)
        return;
    if (strcmp(value, "all") == 0) {
        snprintf(kept, sizeof(kept), "^sysv");
    } else if (value[0] == '^' && !list_has(value + 1, "sysv")) {
        snprintf(kept, sizeof(kept), "%s,sysv", value);
    } else {
        return;
    }
    if (ucp_config_modify(config, "TLS", kept) != UCS_OK)
        shoal_log_debug("UCX: cannot set UCX_TLS to %s", kept);
}

/* UCX's TCP transport sends a large put in segments of UCX_TCP_TX_SEG_SIZE, 8 KiB
 * by default, one send each. 64 KiB segments moved a 1 MiB put between two
 * simulated nodes in 342 us instead of 1276 (bench/bandwidth put_bw), and a
 * 1 MiB broadcast at 2 PEs in 396 us instead of 1608, with no change in the
 * latency of small operations; a value the user sets stands. */
#define TCP_TX_SEG_SIZE "64K"

static void tune_tcp(ucp_config_t *config)
{
    if (shoal_env_has("UCX_TCP_TX_SEG_SIZE"))
        return;
    if (ucp_config_modify(config, "TX_SEG_SIZE", TCP_TX_SEG_SIZE) != UCS_OK)
        shoal_log_debug("UCX: cannot set UCX_TCP_TX_SEG_SIZE to %s", TCP_TX_SEG_SIZE);
}

int shoal_ucx_cpu_atomics(shoal_ucx_t *ucx)
{
    return ucx->cpu_atomics;
}

/* The context is shared: each shmem context has a worker of its own, and the
 * progress thread, a GPU's host proxy and the program's threads call UCX on
 * different workers at the same time. UCX keeps state for all workers in the
 * context (the pool remote keys are unpacked into, the registration cache):
 * without mt_workers_shared it takes no lock there (each worker's own lock,
 * ours, covers only that worker). */
ucs_status_t shoal_ucx_context_open(ucp_config_t **config_out, ucp_context_h *context_out)
{
    ucp_params_t params = {
        .field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED,
        .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64,
        .mt_workers_shared = 1,
    };
    ucp_config_t *config;
    ucs_status_t st;

    st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK)
        return st;
    keep_private(config);
    tune_tcp(config);
    st = ucp_init(&params, config, context_out);
    if (st != UCS_OK) {
        ucp_config_release(config);
        return st;
    }
    *config_out = config;
    return UCS_OK;
}

shoal_status_t shoal_ucx_create(unsigned progress_us, unsigned timeout_s, shoal_ucx_t **ucx_out)
{
    ucp_config_t *config;
    ucs_status_t st;
    shoal_ucx_t *ucx;

    ucx = calloc(1, sizeof(*ucx));
    if (ucx == NULL)
        return SHOAL_ERR_NO_MEMORY;
    ucx->progress_us = progress_us;
    ucx->timeout_ns = (uint64_t)timeout_s * 1000000000u;
    st = shoal_ucx_context_open(&config, &ucx->context);
    if (st != UCS_OK) {
        shoal_log_error("UCX: cannot start: %s", ucs_status_string(st));
        goto err_free;
    }
    ucx->cpu_atomics = uses_cpu_atomics(ucx->context, config);
    ucp_config_release(config);
    if (shoal_ucx_worker_init(ucx, &ucx->main) != SHOAL_OK)
        goto err_cleanup;
    pthread_mutex_init(&ucx->workers_lock, NULL);
    st = ucp_worker_get_address(ucx->main.worker, &ucx->address, &ucx->address_len);
    if (st != UCS_OK) {
        shoal_log_error("UCX: cannot get the worker address: %s", ucs_status_string(st));
        goto err_worker;
    }
    *ucx_out = ucx;
    return SHOAL_OK;

err_worker:
    shoal_ucx_worker_cleanup(&ucx->main);
err_cleanup:
    ucp_cleanup(ucx->context);
err_free:
    free(ucx);
    return SHOAL_ERR_TRANSPORT;
}

void shoal_ucx_destroy(shoal_ucx_t *ucx)
{
    int seg;

    if (ucx == NULL)
        return;
    if (ucx->progress_running) {
        __atomic_store_n(&ucx->progress_stop, 1, __ATOMIC_RELAXED);
        pthread_join(ucx->progress_thread, NULL);
    }
    shoal_ucx_quiet(&ucx->main, 1);
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        if (ucx->rkey_buf[seg] != NULL)
            ucp_rkey_buffer_release(ucx->rkey_buf[seg]);
        shoal_ucx_unmap(ucx, seg);
    }
    ucp_worker_release_address(ucx->main.worker, ucx->address);
    shoal_ucx_worker_cleanup(&ucx->main);
    pthread_mutex_destroy(&ucx->workers_lock);
    ucp_cleanup(ucx->context);
    free(ucx);
}
