/* Memory and keys: segments UCX allocates or registers, their packed remote
 * keys, and the main worker's address, which peers connect to. */
#include "ucx_impl.h"
#include "shoal_log.h"
#include "shoal_status.h"

#include <stddef.h>

void shoal_ucx_address(shoal_ucx_t *ucx, const void **addr_out, size_t *len_out)
{
    *addr_out = ucx->address;
    *len_out = ucx->address_len;
}

shoal_status_t shoal_ucx_alloc(shoal_ucx_t *ucx, int seg, void *addr, size_t size)
{
    ucp_mem_map_params_t params = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH |
                      UCP_MEM_MAP_PARAM_FIELD_FLAGS,
        .address = addr,
        .length = size,
        .flags = UCP_MEM_MAP_ALLOCATE | UCP_MEM_MAP_FIXED,
    };
    ucs_status_t st = ucp_mem_map(ucx->context, &params, &ucx->memh[seg]);

    if (st != UCS_OK) {
        shoal_log_debug("UCX: cannot allocate %zu bytes at %p: %s", size, addr,
                        ucs_status_string(st));
        ucx->memh[seg] = NULL;
        return SHOAL_ERR_NO_MEMORY;
    }
    return SHOAL_OK;
}

void shoal_ucx_unmap(shoal_ucx_t *ucx, int seg)
{
    if (ucx->memh[seg] != NULL)
        ucp_mem_unmap(ucx->context, ucx->memh[seg]);
    ucx->memh[seg] = NULL;
}

shoal_status_t shoal_ucx_register(shoal_ucx_t *ucx, int seg, void *base, size_t size,
                                  const void **rkey_out, size_t *rkey_len_out)
{
    ucp_mem_map_params_t params = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
        .address = base,
        .length = size,
    };
    ucs_status_t st = UCS_OK;
    size_t len;

    if (ucx->memh[seg] == NULL) /* else shoal_ucx_alloc made it */
        st = ucp_mem_map(ucx->context, &params, &ucx->memh[seg]);
    if (st != UCS_OK) {
        shoal_log_error("UCX: cannot register %zu bytes at %p: %s", size, base,
                        ucs_status_string(st));
        return SHOAL_ERR_TRANSPORT;
    }
    st = ucp_rkey_pack(ucx->context, ucx->memh[seg], &ucx->rkey_buf[seg], &len);
    if (st != UCS_OK) {
        shoal_log_error("UCX: cannot pack a remote key: %s", ucs_status_string(st));
        ucp_mem_unmap(ucx->context, ucx->memh[seg]);
        ucx->memh[seg] = NULL;
        return SHOAL_ERR_TRANSPORT;
    }
    *rkey_out = ucx->rkey_buf[seg];
    *rkey_len_out = len;
    return SHOAL_OK;
}
