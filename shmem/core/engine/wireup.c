/* Wire-up: one blob per PE, published at shmem_init through the runtime; a PE
 * connects to another from its blob on first use, never to all at start. */
#include "shoal_core.h"
#include "shoal_rt.h"
#include "shoal_status.h"
#include "shoal_wireup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WIREUP_KEY "shoal.wireup"

static void node_id(char *buf, size_t len)
{
    char host[64] = "?";
    struct stat st;

    gethostname(host, sizeof(host) - 1);
    if (stat("/proc/self/ns/pid", &st) != 0)
        st.st_ino = 0;
    snprintf(buf, len, "%s/%lu", host, (unsigned long)st.st_ino);
}

shoal_status_t shoal_wireup_publish(void)
{
    const void *addr = NULL, *rkey[SHOAL_SEG_COUNT] = {NULL};
    size_t addr_len = 0, rkey_len[SHOAL_SEG_COUNT] = {0}, total;
    wireup_t *w;
    char *p;
    int seg, status;

    if (shoal_core_state.net != NULL) {
        shoal_core_net->address(shoal_core_state.net, &addr, &addr_len);
        for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
            if (shoal_core_state.seg[seg].size == 0)
                continue;
            status = shoal_core_net->mem_register(
                shoal_core_state.net, seg, shoal_core_state.seg[seg].base,
                shoal_core_state.seg[seg].size, &rkey[seg], &rkey_len[seg]);
            if (status != SHOAL_OK)
                return status;
        }
    }
    total = sizeof(*w) + addr_len + rkey_len[0] + rkey_len[1];
    w = calloc(1, total);
    if (w == NULL)
        return SHOAL_ERR_NO_MEMORY;
    node_id(w->node, sizeof(w->node));
    w->pid = (int32_t)getpid();
    w->amo_net = shoal_core_state.amo_net;
    w->addr_len = (uint32_t)addr_len;
    p = (char *)(w + 1);
    if (addr_len > 0) /* no UCX: nothing to copy (and addr is NULL) */
        memcpy(p, addr, addr_len);
    p += addr_len;
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        w->fd[seg] = shoal_core_state.seg[seg].fd;
        w->base[seg] = (uintptr_t)shoal_core_state.seg[seg].base;
        w->size[seg] = shoal_core_state.seg[seg].size;
        w->rkey_len[seg] = (uint32_t)rkey_len[seg];
        if (rkey_len[seg] > 0)
            memcpy(p, rkey[seg], rkey_len[seg]);
        p += rkey_len[seg];
    }
    status = shoal_rt_publish(WIREUP_KEY, w, total);
    free(w);
    return status;
}

shoal_status_t shoal_wireup_lookup(int pe, wireup_t **w_out)
{
    size_t len;

    return shoal_rt_lookup(pe, WIREUP_KEY, (void **)w_out, &len);
}

const void *shoal_wireup_net_address(const wireup_t *w)
{
    return w + 1;
}

const void *shoal_wireup_rkey(const wireup_t *w, int seg)
{
    const char *p = (const char *)(w + 1) + w->addr_len;

    return seg == 0 ? p : p + w->rkey_len[0];
}

int shoal_wireup_same_node(const wireup_t *w)
{
    char here[sizeof(((wireup_t *)0)->node)];

    node_id(here, sizeof(here));
    return strcmp(here, w->node) == 0;
}
