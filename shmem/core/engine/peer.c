/* Peers: each connected on first use from the blob it published (wireup.c), by
 * load/store where it shares this node (transport/shm), else through UCX. The ops
 * and state chosen here are all the rest of the core sees of a transport. */
#include "shoal_core.h"
#include "shoal_rt.h"
#include "shoal_status.h"
#include "shoal_wireup.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Publishes where the direct path reaches pe's segments (base per segment, NULL
 * where nothing maps it): only a segment as long as ours, since the direct path
 * checks offsets against this PE's sizes. */
static void direct_publish(int pe, const wireup_t *w, char *const *base)
{
    int seg;

    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++)
        if (base[seg] != NULL && w->size[seg] == shoal_core_state.seg[seg].size)
            __atomic_store_n(&shoal_core_state.direct[seg][pe], base[seg], __ATOMIC_RELEASE);
}

/* What pe published in w, as a component takes it. */
static void peer_info(const wireup_t *w, int pe, shoal_transport_peer_info_t *info)
{
    int seg;

    *info = (shoal_transport_peer_info_t){.pe = pe, .pid = w->pid};
    if (w->addr_len > 0)
        info->address = shoal_wireup_net_address(w);
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        info->fd[seg] = w->fd[seg];
        info->size[seg] = w->size[seg];
        info->base[seg] = w->base[seg];
        info->rkey[seg] = shoal_wireup_rkey(w, seg);
    }
}

/* RMA to pe by load/store (shoal_core_local); AMOs too where amo_ops says so. */
static shoal_status_t connect_shm(const wireup_t *w, int pe, shoal_peer_t *peer)
{
    const shoal_transport_ops_t *ops = shoal_core_local->ops;
    char *own[SHOAL_SEG_COUNT], *base[SHOAL_SEG_COUNT];
    shoal_transport_peer_info_t info;
    int seg, status;
    void *state;

    peer_info(w, pe, &info);
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++)
        own[seg] = shoal_core_state.seg[seg].base;
    info.own = pe == shoal_core_state.my_pe ? own : NULL;
    status = shoal_core_local->peer_create(NULL, &info, &state);
    if (status != SHOAL_OK)
        return status;
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++)
        base[seg] = info.size[seg] > 0 ? ops->ptr(state, seg, 0) : NULL;
    direct_publish(pe, w, base);
    peer->state = state;
    if (peer->amo_state == NULL) /* AMOs by CPU atomics too (else UCX's state is there) */
        peer->amo_state = state;
    __atomic_store_n(&peer->ops, ops, __ATOMIC_RELEASE);
    return SHOAL_OK;
}

/* A UCX endpoint on worker wk and remote keys for the peer that published w. */
static shoal_status_t attach_net(const wireup_t *w, int pe, shoal_transport_worker_t *wk,
                                 void **state_out)
{
    shoal_transport_peer_info_t info;

    if (shoal_core_state.net == NULL || w->addr_len == 0)
        return SHOAL_ERR_UNREACHABLE;
    peer_info(w, pe, &info);
    return shoal_core_net->peer_create(wk, &info, state_out);
}

static shoal_status_t connect_net(const wireup_t *w, int pe, shoal_peer_t *peer)
{
    const shoal_transport_ops_t *ops = shoal_core_net->ops;
    int status = attach_net(w, pe, shoal_core_state.net_main, &peer->state), seg;
    char *base[SHOAL_SEG_COUNT];

    if (status != SHOAL_OK)
        return status;
    /* Where UCX maps the peer's segment here, the direct path takes it. */
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++)
        base[seg] = ops->ptr(peer->state, seg, 0);
    direct_publish(pe, w, base);
    peer->amo_ops = ops;
    peer->amo_state = peer->state;
    __atomic_store_n(&peer->ops, ops, __ATOMIC_RELEASE);
    return SHOAL_OK;
}

/* Whether pe, which published w, is reached by load/store: this PE, or one on
 * this node unless SHOAL_TRANSPORT=ucx. */
static int is_direct(int pe, const wireup_t *w)
{
    if (pe == shoal_core_state.my_pe)
        return 1;
    return shoal_wireup_same_node(w) && shoal_core_state.settings.transport != SHOAL_TRANSPORT_UCX;
}

/* Connects pe from the blob it published; the caller holds connect_lock. */
static shoal_status_t connect_wireup(int pe, const wireup_t *w, shoal_peer_t *peer)
{
    int status;

    /* Offsets are the same on every PE, so a heap of another size would let an
     * offset valid here land past the peer's heap (or in another mapping). */
    if (w->size[SHOAL_SEG_HEAP] != shoal_core_state.seg[SHOAL_SEG_HEAP].size)
        shoal_log_fatal("PE %d has a symmetric heap of %llu bytes, this PE %zu: every PE must be "
                        "given the same SHMEM_SYMMETRIC_SIZE",
                        pe, (unsigned long long)w->size[SHOAL_SEG_HEAP],
                        shoal_core_state.seg[SHOAL_SEG_HEAP].size);
    __atomic_store_n(&peer->where,
                     shoal_wireup_same_node(w) ? SHOAL_PEER_THIS_NODE : SHOAL_PEER_OTHER_NODE,
                     __ATOMIC_RELAXED);
    if (peer->where == SHOAL_PEER_THIS_NODE && w->amo_net != shoal_core_state.amo_net)
        shoal_log_fatal("PE %d, on this node, sends its AMOs %s but this PE %s: one of them may "
                        "use a NIC's atomics, which CPU atomics on the same memory would break; "
                        "give every PE of a node the same UCX_TLS and UCX_ATOMIC_MODE",
                        pe, w->amo_net ? "through UCX" : "by CPU atomics within the node",
                        shoal_core_state.amo_net ? "through UCX"
                                                 : "by CPU atomics within the node");
    if (!is_direct(pe, w))
        return connect_net(w, pe, peer);
    /* Same node (or this PE): load/store for RMA; AMOs by CPU atomics too, unless the
     * job spans nodes, where they must meet the NIC's atomics on one path. */
    peer->amo_ops = shoal_core_local->ops;
    if (shoal_core_state.amo_net) {
        status = attach_net(w, pe, shoal_core_state.net_main, &peer->amo_state);
        if (status != SHOAL_OK)
            return status;
        peer->amo_ops = shoal_core_net->ops;
    }
    return connect_shm(w, pe, peer);
}

/* Connects pe; the caller holds connect_lock. */
static shoal_status_t connect_peer(int pe, shoal_peer_t *peer)
{
    wireup_t *w = NULL;
    int status;

    status = shoal_wireup_lookup(pe, &w);
    if (status != SHOAL_OK)
        return status;
    status = connect_wireup(pe, w, peer);
    free(w);
    return status;
}

shoal_status_t shoal_peer_net_attach(int pe, shoal_transport_worker_t *wk, void **state_out)
{
    wireup_t *w = NULL;
    int status = shoal_wireup_lookup(pe, &w);

    if (status != SHOAL_OK)
        return status;
    status = attach_net(w, pe, wk, state_out);
    free(w);
    return status;
}

/* A transport that fails on a peer (it refuses a connection, resets one) most
 * often means the peer is gone: the launcher is ending the job after another
 * PE's error, and will end this PE too. Saying so first would add a second,
 * misleading line to the one that matters (under srun, whose signals come a
 * little after the abort), so wait for it a moment; a PE still alive then says. */
#define LAUNCHER_GRACE_S 3

static void launcher_grace(void)
{
    sleep(LAUNCHER_GRACE_S);
}

void shoal_peer_connect(int pe)
{
    shoal_peer_t *peer = &shoal_core_state.peers[pe];
    int status = SHOAL_OK;

    pthread_mutex_lock(&shoal_core_state.connect_lock);
    if (peer->ops == NULL) {
        if (pe == shoal_core_state.my_pe && shoal_rt_is_singleton()) {
            wireup_t self = {.pid = (int32_t)getpid()};

            self.size[0] = shoal_core_state.seg[0].size;
            self.size[1] = shoal_core_state.seg[1].size;
            peer->amo_ops = shoal_core_local->ops;
            status = connect_shm(&self, pe, peer);
        } else {
            status = connect_peer(pe, peer);
        }
        shoal_log_debug("connected to PE %d: RMA through %s, AMOs through %s", pe,
                        peer->ops ? peer->ops->name : "nothing",
                        peer->amo_ops ? peer->amo_ops->name : "nothing");
    }
    pthread_mutex_unlock(&shoal_core_state.connect_lock);
    if (status != SHOAL_OK) {
        launcher_grace();
        shoal_log_fatal("cannot reach PE %d: %s", pe, shoal_status_string(status));
    }
}

int shoal_peer_is_local(int pe)
{
    shoal_peer_t *peer = &shoal_core_state.peers[pe];
    int where = __atomic_load_n(&peer->where, __ATOMIC_RELAXED);
    wireup_t *w = NULL;

    if (where != SHOAL_PEER_UNKNOWN)
        return where == SHOAL_PEER_THIS_NODE;
    if (pe == shoal_core_state.my_pe || shoal_core_state.one_node)
        where = SHOAL_PEER_THIS_NODE;
    else if (shoal_wireup_lookup(pe, &w) == SHOAL_OK)
        where = shoal_wireup_same_node(w) ? SHOAL_PEER_THIS_NODE : SHOAL_PEER_OTHER_NODE;
    else
        return 1; /* let connecting report it */
    free(w);
    __atomic_store_n(&peer->where, where, __ATOMIC_RELAXED);
    return where == SHOAL_PEER_THIS_NODE;
}

uint64_t shoal_peer_node(int pe, const char *routine)
{
    shoal_peer_t *peer = &shoal_core_state.peers[pe];
    uint64_t node = __atomic_load_n(&peer->node, __ATOMIC_RELAXED);
    wireup_t *w = NULL;
    const char *c;

    if (node != 0)
        return node;
    if (shoal_wireup_lookup(pe, &w) != SHOAL_OK)
        shoal_log_fatal("%s: cannot look up which node PE %d runs on", routine, pe);
    node = 14695981039346656037ULL; /* FNV-1a */
    for (c = w->node; *c != '\0' && c < w->node + sizeof(w->node); c++)
        node = (node ^ (unsigned char)*c) * 1099511628211ULL;
    free(w);
    node |= 1; /* never 0, the "not looked up" value */
    __atomic_store_n(&peer->node, node, __ATOMIC_RELAXED);
    return node;
}

void *shoal_peer_heap(int pe, size_t *size_out)
{
    shoal_peer_t *peer = &shoal_core_state.peers[pe];
    const shoal_transport_ops_t *ops;
    wireup_t *w = NULL;
    int status = SHOAL_OK;

    if (pe == shoal_core_state.my_pe) {
        *size_out = shoal_core_state.seg[SHOAL_SEG_HEAP].size;
        return shoal_core_state.seg[SHOAL_SEG_HEAP].base;
    }
    pthread_mutex_lock(&shoal_core_state.connect_lock);
    if (peer->ops == NULL) {
        /* Connect a direct peer now; leave any other alone: its UCX endpoint is
         * made on first use, as ever. */
        status = shoal_wireup_lookup(pe, &w);
        if (status == SHOAL_OK && is_direct(pe, w))
            status = connect_wireup(pe, w, peer);
        free(w);
    }
    pthread_mutex_unlock(&shoal_core_state.connect_lock);
    if (status != SHOAL_OK)
        shoal_log_fatal("cannot reach PE %d: %s", pe, shoal_status_string(status));
    ops = __atomic_load_n(&peer->ops, __ATOMIC_ACQUIRE);
    if (ops == NULL || (ops->caps & SHOAL_CAP_MESSAGES)) /* not mapped by load/store */
        return NULL;
    *size_out = shoal_core_state.seg[SHOAL_SEG_HEAP].size; /* connect_wireup checked it is ours */
    return ops->ptr(peer->state, SHOAL_SEG_HEAP, 0);
}

shoal_status_t shoal_peer_setup(void)
{
    int n = shoal_core_state.n_pes;

    shoal_core_state.peers = calloc((size_t)n, sizeof(*shoal_core_state.peers));
    shoal_core_state.direct[0] = calloc((size_t)n * SHOAL_SEG_COUNT, sizeof(char *));
    if (shoal_core_state.peers == NULL || shoal_core_state.direct[0] == NULL) {
        shoal_peer_cleanup();
        return SHOAL_ERR_NO_MEMORY;
    }
    shoal_core_state.direct[1] = shoal_core_state.direct[0] + n;
    return SHOAL_OK;
}

/* Closes every peer's transport state, then frees the tables: no PE may touch
 * another's memory after this. */
void shoal_peer_cleanup(void)
{
    int pe;

    for (pe = 0; shoal_core_state.peers != NULL && pe < shoal_core_state.n_pes; pe++) {
        shoal_peer_t *peer = &shoal_core_state.peers[pe];

        if (peer->ops != NULL)
            peer->ops->destroy(peer->state);
        if (peer->amo_ops != NULL && peer->amo_state != NULL && peer->amo_state != peer->state)
            peer->amo_ops->destroy(peer->amo_state);
        *peer = (shoal_peer_t){0};
    }
    free(shoal_core_state.peers);
    shoal_core_state.peers = NULL;
    free(shoal_core_state.direct[0]);
    shoal_core_state.direct[0] = shoal_core_state.direct[1] = NULL;
}

/* pe's node as its blob names it (the host name), into buf. */
static void node_name(int pe, char *buf, size_t len)
{
    wireup_t *w = NULL;

    snprintf(buf, len, "?");
    if (pe < 0 || pe >= shoal_core_state.n_pes || shoal_wireup_lookup(pe, &w) != SHOAL_OK)
        return;
    snprintf(buf, len, "%.*s", (int)strcspn(w->node, "/"), w->node);
    free(w);
}

/* A wait on every peer (a flush) ran out of time and the transport could not
 * say which peer held it (UCX's flush also waits on endpoints it made itself):
 * the first PE that leaves a read of its heap unanswered for a second (one
 * mapped here answers at once), or -1 when all answer. */
static int find_unanswering(void)
{
    uint64_t v;

    for (int pe = 0; pe < shoal_core_state.n_pes; pe++)
        if (pe != shoal_core_state.my_pe &&
            shoal_peer_read(pe, SHOAL_SEG_HEAP, 0, 8, 1000, &v) != SHOAL_OK)
            return pe;
    return -1;
}

void shoal_peer_fail(const char *routine, int pe, const char *what, shoal_status_t status)
{
    unsigned limit = (unsigned)shoal_core_state.settings.peer_timeout_s;
    char node[80];

    if (status != SHOAL_ERR_TIMEOUT)
        launcher_grace();
    if (status != SHOAL_ERR_TIMEOUT && pe >= 0)
        shoal_log_fatal("%s: %s on PE %d failed (%s)", routine, what, pe,
                        shoal_status_string(status));
    if (status != SHOAL_ERR_TIMEOUT)
        shoal_log_fatal("%s: %s failed (%s)", routine, what, shoal_status_string(status));
    if (pe < 0)
        pe = find_unanswering();
    if (pe < 0)
        shoal_log_fatal("%s: %s has not completed in %u s: a PE on another node is unreachable "
                        "or gone (SHOAL_PEER_TIMEOUT=%u)",
                        routine, what, limit, limit);
    node_name(pe, node, sizeof(node));
    shoal_log_fatal("%s: PE %d on node %s has not answered %s in %u s: its node is unreachable "
                    "or the PE is gone (SHOAL_PEER_TIMEOUT=%u)",
                    routine, pe, node, what, limit, limit);
}

int shoal_peer_process_gone(int pe)
{
    wireup_t *w = NULL;
    int gone, status;

    if (pe == shoal_core_state.my_pe || !shoal_peer_is_local(pe))
        return 0;
    shoal_log_mute(1);
    status = shoal_wireup_lookup(pe, &w);
    shoal_log_mute(0);
    if (status != SHOAL_OK)
        return 0;
    gone = w->pid > 0 && kill(w->pid, 0) != 0 && errno == ESRCH;
    free(w);
    return gone;
}

shoal_status_t shoal_peer_read(int pe, int seg, size_t off, size_t size, unsigned limit_ms,
                               uint64_t *out)
{
    const char *at = shoal_core_state.seg[seg].base + off;
    const shoal_transport_ops_t *ops;
    uint64_t v8 = 0;
    uint32_t v4 = 0;
    void *st;
    shoal_status_t status;

    if (pe != shoal_core_state.my_pe)
        at = shoal_core_direct(at, size, pe);
    if (at != NULL) {
        *out = size == 8 ? __atomic_load_n((const uint64_t *)at, __ATOMIC_ACQUIRE)
                         : __atomic_load_n((const uint32_t *)at, __ATOMIC_ACQUIRE);
        return SHOAL_OK;
    }
    /* That PE's progress thread answers, even while it computes or finalizes. */
    shoal_log_mute(1);
    ops = shoal_core_path(&shoal_ctx_default, pe, 0, &st);
    status = ops->get_within(st, seg, off, size == 8 ? (void *)&v8 : (void *)&v4, size, limit_ms);
    shoal_log_mute(0);
    if (status == SHOAL_OK)
        *out = size == 8 ? v8 : v4;
    return status;
}
