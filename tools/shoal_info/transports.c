/* The transports: same-node load/store, which needs nothing, and UCX's resources as
 * the UCX component lists them under this environment's UCX_* variables (a context
 * made as Shoal makes it, then dropped: no connection, milliseconds). When UCX cannot
 * start (no device, a bad UCX_TLS), that is the answer, and the rest goes on. */
#include "shoal_info.h"
#include "shoal_transport.h"

#include <stdlib.h>
#include <string.h>

#define WRAP_COLUMN 96

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

/* Whether UCX lists a transport that moves GPU memory (cuda_copy, cuda_ipc,
 * gdr_copy: a UCX built with CUDA; Debian's is not). */
static int ucx_has_cuda(char **words, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strncmp(words[i], "cuda", 4) == 0 || strncmp(words[i], "gdr_copy", 8) == 0)
            return 1;
    return 0;
}

/* What reaches another node's GPU heap: always the owner's host proxy (host
 * memory over UCX, a cudaMemcpy at the owner). A UCX with CUDA transports
 * could map the GPU heap itself (ucp_mem_map of the cudaMalloc, its rkey
 * exchanged as the host heap's); Shoal does not use them yet, and says so. */
static void ucx_cuda_print(FILE *f, int cuda, int parsable)
{
    if (parsable) {
        shoal_info_kv(f, "transport", "ucx:cuda:%s", cuda ? "yes" : "no");
        return;
    }
    if (cuda)
        shoal_info_line(f, "UCX CUDA",
                        "cuda transports present, not used yet: other nodes' GPU heaps go "
                        "through their host proxy");
    else
        shoal_info_line(f, "UCX CUDA",
                        "none (no cuda_copy, cuda_ipc or gdr_copy; Debian's UCX has no CUDA): "
                        "other nodes' GPU heaps go through their host proxy");
}

static void ucx_print(FILE *f, int parsable)
{
    char **tl = NULL, why[128];
    const char *tls = getenv("UCX_TLS");
    size_t n = 0, i;

    if (shoal_ucx_component.resources(&tl, &n, why, sizeof(why)) != SHOAL_OK) {
        if (parsable)
            shoal_info_kv(f, "transport", "ucx:error:%s", why);
        else
            shoal_info_line(f, "UCX", "cannot start here (%s)%s%s", why, tls ? "; UCX_TLS=" : "",
                            tls ? tls : "");
        return;
    }
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
    ucx_cuda_print(f, ucx_has_cuda(tl, n), parsable);
    free(tl);
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
