/* The transports: same-node load/store, which needs nothing, and UCX's transports as a
 * UCP context with Shoal's features lists them under this environment's UCX_*
 * variables. Creating the context opens no connection and takes milliseconds; when UCX
 * cannot start (no device, a bad UCX_TLS), that is the answer, and the rest goes on. */
#include "shoal_info.h"

#include <stdlib.h>
#include <string.h>

#include <ucp/api/ucp.h>

#define WRAP_COLUMN 96

/* UCX's resource lines ("#  resource 2 : md 1 dev 2 flags -- tcp/eth0"), as
 * "tcp/eth0" words in text (the memstream's buffer, rewritten in place). */
static size_t resources(char *text, char **out, size_t max)
{
    char *line, *rest = NULL, *tl;
    size_t n = 0;

    for (line = strtok_r(text, "\n", &rest); line != NULL && n < max;
         line = strtok_r(NULL, "\n", &rest)) {
        if (strstr(line, "resource") == NULL || (tl = strstr(line, "-- ")) == NULL)
            continue;
        tl += 3;
        tl[strcspn(tl, " \t")] = '\0';
        if (tl[0] != '\0')
            out[n++] = tl;
    }
    return n;
}

/* A UCP context as shoal_ucx_create makes it; its printout in *text (free it). */
static ucs_status_t ucx_context_info(char **text)
{
    ucp_params_t params = {
        .field_mask = UCP_PARAM_FIELD_FEATURES,
        .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64,
    };
    ucp_config_t *config;
    ucp_context_h context;
    ucs_status_t st;
    size_t size = 0;
    FILE *mem;

    *text = NULL;
    st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK)
        return st;
    st = ucp_init(&params, config, &context);
    ucp_config_release(config);
    if (st != UCS_OK)
        return st;
    mem = open_memstream(text, &size);
    if (mem != NULL) {
        ucp_context_print_info(context, mem);
        fclose(mem);
    }
    ucp_cleanup(context);
    return mem != NULL ? UCS_OK : UCS_ERR_NO_MEMORY;
}

static void words_print(FILE *f, const char *label, char **words, size_t n)
{
    size_t i, column = WRAP_COLUMN;

    for (i = 0; i < n; i++) {
        if (i == 0) {
            column = (size_t)fprintf(f, "  %-15s", label);
        } else if (column + strlen(words[i]) + 2 > WRAP_COLUMN) {
            column = (size_t)fprintf(f, ",\n  %-15s", "");
            column -= 2;
        } else {
            column += (size_t)fprintf(f, ", ");
        }
        column += (size_t)fprintf(f, "%s", words[i]);
    }
    fputc('\n', f);
}

static void ucx_print(FILE *f, int parsable)
{
    char *text, *tl[128];
    const char *tls = getenv("UCX_TLS");
    ucs_status_t st = ucx_context_info(&text);
    size_t n, i;

    if (st != UCS_OK) {
        if (parsable)
            shoal_info_kv(f, "transport", "ucx:error:%s", ucs_status_string(st));
        else
            shoal_info_line(f, "UCX", "cannot start here (%s)%s%s", ucs_status_string(st),
                            tls ? "; UCX_TLS=" : "", tls ? tls : "");
        free(text);
        return;
    }
    n = resources(text, tl, sizeof(tl) / sizeof(tl[0]));
    if (parsable) {
        shoal_info_kv(f, "transport", "ucx:yes");
        for (i = 0; i < n; i++)
            shoal_info_kv(f, "transport", "ucx:resource:%s", tl[i]);
    } else if (n == 0) {
        shoal_info_line(f, "UCX", "started, but lists no transport");
    } else {
        words_print(f, "UCX:", tl, n);
    }
    if (tls != NULL && !parsable)
        shoal_info_line(f, "", "(as UCX_TLS=%s allows)", tls);
    free(text);
}

void shoal_info_transports_print(FILE *f, int parsable)
{
    int ucx_only = shoal_info_settings_values()->transport == SHOAL_TRANSPORT_UCX;

    if (parsable) {
        shoal_info_kv(f, "transport", "shm:load/store");
        ucx_print(f, 1);
        shoal_info_kv(f, "transport", "selected:%s", ucx_only ? "ucx" : "auto");
        return;
    }
    fprintf(f, "Transports:\n");
    shoal_info_line(f, "same node", "load/store on shared memory (memfd segments), CPU atomics");
    ucx_print(f, 0);
    if (ucx_only)
        shoal_info_line(f, "selected", "SHOAL_TRANSPORT=ucx: UCX for every peer");
    else
        shoal_info_line(f, "selected", "SHOAL_TRANSPORT=auto: load/store on a node, UCX between");
}
