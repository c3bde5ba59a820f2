/* The UCX component (shoal_transport.h): the table through which the core
 * reaches every object of this transport, and what shoal_info asks of it. */
#include "ucx_impl.h"
#include "shoal_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <uct/api/version.h>

/* The resources a context would use here: one made and dropped (no connection;
 * milliseconds), as the core makes it. */
static shoal_status_t ucx_resources(char ***list_out, size_t *n_out, char *why, size_t why_len)
{
    ucp_config_t *config;
    ucp_context_h context;
    ucs_status_t st = shoal_ucx_context_open(&config, &context);
    char *text;

    if (st != UCS_OK) {
        snprintf(why, why_len, "%s", ucs_status_string(st));
        return SHOAL_ERR_TRANSPORT;
    }
    ucp_config_release(config);
    text = shoal_ucx_context_text(context);
    ucp_cleanup(context);
    *list_out = text != NULL ? shoal_ucx_resource_words(text, n_out) : NULL;
    free(text);
    if (*list_out == NULL) {
        snprintf(why, why_len, "%s", ucs_status_string(UCS_ERR_NO_MEMORY));
        return SHOAL_ERR_NO_MEMORY;
    }
    return SHOAL_OK;
}

static void ucx_versions(const char **built_out, const char **loaded_out)
{
    *built_out = UCT_VERNO_STRING;
    *loaded_out = ucp_get_version_string();
}

const shoal_component_t shoal_ucx_component = {
    .name = "ucx",
    .ops = &shoal_ucx_ops,
    .create = shoal_ucx_create,
    .destroy = shoal_ucx_destroy,
    .cpu_atomics = shoal_ucx_cpu_atomics,
    .main_worker = shoal_ucx_main_worker,
    .worker_create = shoal_ucx_worker_create,
    .worker_destroy = shoal_ucx_worker_destroy,
    .progress_start = shoal_ucx_progress_start,
    .progress = shoal_ucx_progress,
    .untracked = shoal_ucx_untracked,
    .quiet = shoal_ucx_quiet,
    .fence = shoal_ucx_fence,
    .stuck_pe = shoal_ucx_stuck_pe,
    .mem_alloc = shoal_ucx_alloc,
    .mem_unmap = shoal_ucx_unmap,
    .mem_register = shoal_ucx_register,
    .address = shoal_ucx_address,
    .peer_create = shoal_ucx_peer_create,
    .resources = ucx_resources,
    .versions = ucx_versions,
};
