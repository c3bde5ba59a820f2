/* UCP context, worker, registered segments and per-peer endpoints. Endpoints are
 * made when the core first talks to a peer. A blocking call here progresses the
 * worker until its request completes; it never sleeps. */
#include "shoal_ucx.h"
#include "shoal_log.h"
#include "shoal_status.h"

#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

struct shoal_ucx {
    ucp_context_h context;
    ucp_worker_h worker;
    ucp_address_t *address;
    size_t address_len;
    ucp_mem_h memh[SHOAL_SEG_COUNT];
    void *rkey_buf[SHOAL_SEG_COUNT];
};

typedef struct ucx_peer {
    shoal_ucx_t *ucx;
    ucp_ep_h ep;
    ucp_rkey_h rkey[SHOAL_SEG_COUNT];
    uint64_t base[SHOAL_SEG_COUNT];
} ucx_peer_t;

int shoal_ucx_create(int thread_multiple, shoal_ucx_t **ucx_out)
{
    ucp_params_t params = {
        .field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED,
        .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64,
        .mt_workers_shared = thread_multiple,
    };
    ucp_worker_params_t wparams = {
        .field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
        .thread_mode = thread_multiple ? UCS_THREAD_MODE_MULTI : UCS_THREAD_MODE_SINGLE,
    };
    ucp_config_t *config;
    ucs_status_t st;
    shoal_ucx_t *ucx;

    ucx = calloc(1, sizeof(*ucx));
    if (ucx == NULL)
        return SHOAL_ERR_NO_MEMORY;
    st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK) {
        shoal_error("UCX: cannot read its configuration: %s", ucs_status_string(st));
        goto err_free;
    }
    st = ucp_init(&params, config, &ucx->context);
    ucp_config_release(config);
    if (st != UCS_OK) {
        shoal_error("UCX: ucp_init failed: %s", ucs_status_string(st));
        goto err_free;
    }
    st = ucp_worker_create(ucx->context, &wparams, &ucx->worker);
    if (st != UCS_OK) {
        shoal_error("UCX: cannot create a worker: %s", ucs_status_string(st));
        goto err_cleanup;
    }
    st = ucp_worker_get_address(ucx->worker, &ucx->address, &ucx->address_len);
    if (st != UCS_OK) {
        shoal_error("UCX: cannot get the worker address: %s", ucs_status_string(st));
        goto err_worker;
    }
    *ucx_out = ucx;
    return SHOAL_OK;

err_worker:
    ucp_worker_destroy(ucx->worker);
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
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        if (ucx->rkey_buf[seg] != NULL)
            ucp_rkey_buffer_release(ucx->rkey_buf[seg]);
        if (ucx->memh[seg] != NULL)
            ucp_mem_unmap(ucx->context, ucx->memh[seg]);
    }
    ucp_worker_release_address(ucx->worker, ucx->address);
    ucp_worker_destroy(ucx->worker);
    ucp_cleanup(ucx->context);
    free(ucx);
}

void shoal_ucx_address(shoal_ucx_t *ucx, const void **addr_out, size_t *len_out)
{
    *addr_out = ucx->address;
    *len_out = ucx->address_len;
}

int shoal_ucx_register(shoal_ucx_t *ucx, int seg, void *base, size_t size,
                       const void **rkey_out, size_t *rkey_len_out)
{
    ucp_mem_map_params_t params = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
        .address = base,
        .length = size,
    };
    ucs_status_t st;
    size_t len;

    st = ucp_mem_map(ucx->context, &params, &ucx->memh[seg]);
    if (st != UCS_OK) {
        shoal_error("UCX: cannot register %zu bytes at %p: %s", size, base,
                    ucs_status_string(st));
        return SHOAL_ERR_TRANSPORT;
    }
    st = ucp_rkey_pack(ucx->context, ucx->memh[seg], &ucx->rkey_buf[seg], &len);
    if (st != UCS_OK) {
        shoal_error("UCX: cannot pack a remote key: %s", ucs_status_string(st));
        ucp_mem_unmap(ucx->context, ucx->memh[seg]);
        ucx->memh[seg] = NULL;
        return SHOAL_ERR_TRANSPORT;
    }
    *rkey_out = ucx->rkey_buf[seg];
    *rkey_len_out = len;
    return SHOAL_OK;
}

/* Progresses until request completes; frees it. Cost: one poll per progress call. */
static int request_wait(shoal_ucx_t *ucx, ucs_status_ptr_t req, const char *what)
{
    ucs_status_t st;

    if (req == NULL)
        return SHOAL_OK;
    if (UCS_PTR_IS_ERR(req)) {
        st = UCS_PTR_STATUS(req);
        goto err;
    }
    while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS)
        ucp_worker_progress(ucx->worker);
    ucp_request_free(req);
    if (st == UCS_OK)
        return SHOAL_OK;
err:
    shoal_error("UCX: %s failed: %s", what, ucs_status_string(st));
    return SHOAL_ERR_TRANSPORT;
}

/* Lets a non-blocking request finish on its own; quiet (worker flush) covers it. */
static int request_release(ucs_status_ptr_t req, const char *what)
{
    if (UCS_PTR_IS_ERR(req)) {
        shoal_error("UCX: %s failed: %s", what, ucs_status_string(UCS_PTR_STATUS(req)));
        return SHOAL_ERR_TRANSPORT;
    }
    if (req != NULL)
        ucp_request_free(req);
    return SHOAL_OK;
}

int shoal_ucx_peer_create(shoal_ucx_t *ucx, const void *addr, const void *const *rkeys,
                          const uint64_t *bases, void **state_out)
{
    ucp_ep_params_t params = {
        .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
        .address = addr,
    };
    ucx_peer_t *peer;
    ucs_status_t st;
    int seg;

    peer = calloc(1, sizeof(*peer));
    if (peer == NULL)
        return SHOAL_ERR_NO_MEMORY;
    peer->ucx = ucx;
    st = ucp_ep_create(ucx->worker, &params, &peer->ep);
    if (st != UCS_OK) {
        shoal_error("UCX: cannot create an endpoint: %s", ucs_status_string(st));
        goto err_free;
    }
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        st = ucp_ep_rkey_unpack(peer->ep, rkeys[seg], &peer->rkey[seg]);
        if (st != UCS_OK) {
            shoal_error("UCX: cannot unpack a remote key: %s", ucs_status_string(st));
            goto err_rkeys;
        }
        peer->base[seg] = bases[seg];
    }
    *state_out = peer;
    return SHOAL_OK;

err_rkeys:
    while (seg-- > 0)
        ucp_rkey_destroy(peer->rkey[seg]);
    request_wait(ucx, ucp_ep_close_nbx(peer->ep, &(ucp_request_param_t){.op_attr_mask = 0}),
                 "endpoint close");
err_free:
    free(peer);
    return SHOAL_ERR_TRANSPORT;
}

void shoal_ucx_peer_destroy(void *state)
{
    ucx_peer_t *peer = state;
    ucp_request_param_t param = {.op_attr_mask = 0}; /* flush, then close */
    int seg;

    if (peer == NULL)
        return;
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++)
        ucp_rkey_destroy(peer->rkey[seg]);
    request_wait(peer->ucx, ucp_ep_close_nbx(peer->ep, &param), "endpoint close");
    free(peer);
}

static int ucx_put(void *state, int seg, size_t off, const void *src, size_t len)
{
    ucx_peer_t *peer = state;
    ucp_request_param_t param = {.op_attr_mask = 0};

    return request_wait(peer->ucx,
                        ucp_put_nbx(peer->ep, src, len, peer->base[seg] + off,
                                    peer->rkey[seg], &param),
                        "put");
}

static int ucx_get(void *state, int seg, size_t off, void *dst, size_t len)
{
    ucx_peer_t *peer = state;
    ucp_request_param_t param = {.op_attr_mask = 0};

    return request_wait(peer->ucx,
                        ucp_get_nbx(peer->ep, dst, len, peer->base[seg] + off,
                                    peer->rkey[seg], &param),
                        "get");
}

static int ucx_put_nbi(void *state, int seg, size_t off, const void *src, size_t len)
{
    ucx_peer_t *peer = state;
    ucp_request_param_t param = {.op_attr_mask = 0};

    return request_release(ucp_put_nbx(peer->ep, src, len, peer->base[seg] + off,
                                       peer->rkey[seg], &param),
                           "put_nbi");
}

static int ucx_get_nbi(void *state, int seg, size_t off, void *dst, size_t len)
{
    ucx_peer_t *peer = state;
    ucp_request_param_t param = {.op_attr_mask = 0};

    return request_release(ucp_get_nbx(peer->ep, dst, len, peer->base[seg] + off,
                                       peer->rkey[seg], &param),
                           "get_nbi");
}

/* The flag follows earlier puts (fence before) and precedes later ones (fence after). */
static int ucx_put_flag(void *state, int seg, size_t off, uint64_t value)
{
    ucx_peer_t *peer = state;
    int status;

    ucp_worker_fence(peer->ucx->worker);
    status = ucx_put(state, seg, off, &value, sizeof(value));
    ucp_worker_fence(peer->ucx->worker);
    return status;
}

static void *ucx_ptr(void *state, int seg, size_t off)
{
    return NULL;
}

const shoal_transport_ops_t shoal_ucx_ops = {
    .name = "ucx",
    .put = ucx_put,
    .get = ucx_get,
    .put_nbi = ucx_put_nbi,
    .get_nbi = ucx_get_nbi,
    .put_flag = ucx_put_flag,
    .ptr = ucx_ptr,
};

int shoal_ucx_quiet(shoal_ucx_t *ucx)
{
    ucp_request_param_t param = {.op_attr_mask = 0};

    return request_wait(ucx, ucp_worker_flush_nbx(ucx->worker, &param), "flush");
}

int shoal_ucx_fence(shoal_ucx_t *ucx)
{
    ucs_status_t st = ucp_worker_fence(ucx->worker);

    if (st != UCS_OK) {
        shoal_error("UCX: fence failed: %s", ucs_status_string(st));
        return SHOAL_ERR_TRANSPORT;
    }
    return SHOAL_OK;
}

void shoal_ucx_progress(shoal_ucx_t *ucx)
{
    ucp_worker_progress(ucx->worker);
}
