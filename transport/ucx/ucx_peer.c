/* Peers: an endpoint on a worker, made on first use, and the peer's remote
 * keys unpacked on it (with the segments UCX maps here, for the direct path).
 * Closing one at finalize never waits long for a peer that is gone. */
#include "ucx_impl.h"
#include "shoal_log.h"
#include "shoal_status.h"

#include <pthread.h>
#include <stdlib.h>

shoal_status_t shoal_ucx_peer_create(shoal_ucx_worker_t *w, const shoal_transport_peer_info_t *info,
                                     void **state_out)
{
    ucp_ep_params_t params = {
        .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
        .address = info->address,
    };
    int pe = info->pe;
    ucx_peer_t *peer;
    ucs_status_t st;
    int seg;

    peer = calloc(1, sizeof(*peer));
    if (peer == NULL)
        return SHOAL_ERR_NO_MEMORY;
    peer->w = w;
    peer->pe = pe;
    pthread_mutex_lock(&w->lock);
    st = ucp_ep_create(w->worker, &params, &peer->ep);
    if (st == UCS_ERR_UNREACHABLE) {
        /* Most often a peer that is gone: the core's line says so, after a
         * moment's grace for the launcher that may be ending this PE too. */
        shoal_log_debug("UCX: cannot create an endpoint to PE %d: %s", pe, ucs_status_string(st));
        pthread_mutex_unlock(&w->lock);
        free(peer);
        return SHOAL_ERR_UNREACHABLE;
    }
    if (st != UCS_OK) {
        shoal_log_error("UCX: cannot create an endpoint: %s", ucs_status_string(st));
        goto err_free;
    }
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        st = ucp_ep_rkey_unpack(peer->ep, info->rkey[seg], &peer->rkey[seg]);
        if (st != UCS_OK) {
            shoal_log_error("UCX: cannot unpack a remote key: %s", ucs_status_string(st));
            goto err_rkeys;
        }
        peer->base[seg] = info->base[seg];
        /* Memory UCX allocated on this node, UCX can map here: use it directly. */
        if (ucp_rkey_ptr(peer->rkey[seg], info->base[seg], (void **)&peer->mapped[seg]) != UCS_OK)
            peer->mapped[seg] = NULL;
    }
    peer->next = w->peers;
    if (w->peers != NULL)
        w->peers->prev = peer;
    w->peers = peer;
    pthread_mutex_unlock(&w->lock);
    *state_out = peer;
    return SHOAL_OK;

err_rkeys:
    while (seg-- > 0)
        ucp_rkey_destroy(peer->rkey[seg]);
    shoal_ucx_request_wait(w, ucp_ep_close_nbx(peer->ep, &(ucp_request_param_t){.op_attr_mask = 0}),
                           "endpoint close", pe);
err_free:
    pthread_mutex_unlock(&w->lock);
    free(peer);
    return SHOAL_ERR_TRANSPORT;
}

/* An endpoint close at finalize flushes and says goodbye. Every PE closes before
 * any destroys its worker (the core's fences), so it fails only where the peer is
 * gone already (it died, or its node was cut off): that is no error of this
 * PE's, and the close waits 2 s at most for it. */
#define CLOSE_LIMIT_NS 2000000000u

void shoal_ucx_peer_destroy(void *state)
{
    ucx_peer_t *peer = state;
    ucp_request_param_t param = {.op_attr_mask = 0}; /* flush, then close */
    int seg;

    if (peer == NULL)
        return;
    pthread_mutex_lock(&peer->w->lock);
    if (peer->prev != NULL)
        peer->prev->next = peer->next;
    else
        peer->w->peers = peer->next;
    if (peer->next != NULL)
        peer->next->prev = peer->prev;
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++)
        ucp_rkey_destroy(peer->rkey[seg]);
    /* An endpoint never used is left to its worker, whose destruction ends it:
     * closing would flush, first finishing a wire-up nothing needed with a peer
     * that may be finalizing (UCX 1.13 can crash there), and a forced close is
     * refused ("Invalid parameter") without peer error handling, which would
     * cost every endpoint its fastest transports. */
    if (peer->used) {
        ucs_status_ptr_t req = ucp_ep_close_nbx(peer->ep, &param);

        /* Out of time (a peer gone, or a machine so loaded that 2 s pass):
         * released unfinished, so that UCX ends it with the worker. A request
         * kept would trip ucp_worker_destroy's check that every request on its
         * endpoints was released (UCX 1.13 asserts; seen at finalize with
         * the load at 20 and more). */
        if (shoal_ucx_request_wait_for(peer->w, req, NULL, peer->pe, CLOSE_LIMIT_NS) ==
            SHOAL_ERR_TIMEOUT)
            ucp_request_free(req);
    }
    pthread_mutex_unlock(&peer->w->lock);
    free(peer);
}
