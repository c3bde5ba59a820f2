/* Wire-up: the blob each PE publishes through the runtime (PMIx) at shmem_init,
 * from which any PE connects to it on first use. Core-internal. */
#ifndef SHOAL_WIREUP_H
#define SHOAL_WIREUP_H

#include <stdint.h>

#include "shoal_transport.h"
#include "shoal_status.h"

typedef struct wireup {
    char node[80]; /* host name and pid namespace: same string = same node */
    int32_t pid;
    int32_t amo_net; /* shoal_core_state.amo_net: the PEs of a node must agree on it */
    int32_t fd[SHOAL_SEG_COUNT];
    uint64_t base[SHOAL_SEG_COUNT];
    uint64_t size[SHOAL_SEG_COUNT];
    uint32_t addr_len;
    uint32_t rkey_len[SHOAL_SEG_COUNT];
    /* then: worker address, then each rkey */
} wireup_t;

/* Publishes this PE's blob (registering its segments with UCX where UCX is up). */
shoal_status_t shoal_wireup_publish(void);
/* pe's blob, to free(); SHOAL_OK or the runtime's error. */
shoal_status_t shoal_wireup_lookup(int pe, wireup_t **w_out);
/* The UCX worker address and the packed rkey of segment seg in w. */
const void *shoal_wireup_net_address(const wireup_t *w);
const void *shoal_wireup_rkey(const wireup_t *w, int seg);
/* Whether the PE that published w runs on this node. */
int shoal_wireup_same_node(const wireup_t *w);

#endif
