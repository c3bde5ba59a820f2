/* Contiguous and strided RMA on (pe, segment, offset). Arguments were checked by
 * the API layer; a transport failure here ends the job with the routine's name. */
#include "shoal_core.h"
#include "shoal_status.h"

#include <stdlib.h>
#include <string.h>

static void check_transport(int status, const char *routine, int pe)
{
    if (status != SHOAL_OK)
        shoal_fatal("%s: the transport to PE %d failed (%s)", routine, pe,
                    shoal_status_string(status));
}

void shoal_core_put(shoal_ctx_t *ctx, int pe, int seg, size_t off, const void *src, size_t len,
                    int nbi, const char *routine)
{
    void *st;
    const shoal_transport_ops_t *ops = shoal_path(ctx, pe, 0, &st);

    check_transport(nbi ? ops->put_nbi(st, seg, off, src, len) : ops->put(st, seg, off, src, len),
                    routine, pe);
}

void shoal_core_get(shoal_ctx_t *ctx, int pe, int seg, size_t off, void *dst, size_t len,
                    int nbi, const char *routine)
{
    void *st;
    const shoal_transport_ops_t *ops = shoal_path(ctx, pe, 0, &st);

    check_transport(nbi ? ops->get_nbi(st, seg, off, dst, len) : ops->get(st, seg, off, dst, len),
                    routine, pe);
}

/* Strided forms move one element at a time, strides in elements; except through a
 * transport that sends a message per operation (SHOAL_CAP_MESSAGES),
 * where a contiguous destination takes the packed elements as one put, and a source
 * stride of up to SPAN_MAX_STRIDE elements is read as whole spans, gaps included
 * (bytes of the same remote allocation, between elements the caller named); each
 * SPAN_CHUNK bytes at a time. */
#define SPAN_MAX_STRIDE 16
#define SPAN_CHUNK ((size_t)1 << 20)

static int iput_packed(const shoal_transport_ops_t *ops, void *st, int pe, int seg, size_t off,
                       const char *src, ptrdiff_t sst, size_t nelems, size_t elem_size,
                       const char *routine)
{
    size_t per = SPAN_CHUNK / elem_size, done, n, i;
    char *buf;

    if (per == 0 || (buf = malloc(SPAN_CHUNK)) == NULL)
        return 0;
    for (done = 0; done < nelems; done += n) {
        n = nelems - done < per ? nelems - done : per;
        for (i = 0; i < n; i++)
            memcpy(buf + i * elem_size, src + (done + i) * (size_t)sst * elem_size, elem_size);
        check_transport(ops->put(st, seg, off + done * elem_size, buf, n * elem_size), routine,
                        pe);
    }
    free(buf);
    return 1;
}

void shoal_core_iput(shoal_ctx_t *ctx, int pe, int seg, size_t off, const char *src,
                     ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem_size,
                     const char *routine)
{
    void *st;
    const shoal_transport_ops_t *ops = shoal_path(ctx, pe, 0, &st);
    size_t i;

    if ((ops->caps & SHOAL_CAP_MESSAGES) && dst == 1 && sst >= 1 && nelems > 1 &&
        iput_packed(ops, st, pe, seg, off, src, sst, nelems, elem_size, routine))
        return;
    for (i = 0; i < nelems; i++) {
        ptrdiff_t d = (ptrdiff_t)i * dst * (ptrdiff_t)elem_size;
        ptrdiff_t s = (ptrdiff_t)i * sst * (ptrdiff_t)elem_size;

        check_transport(ops->put(st, seg, off + d, src + s, elem_size), routine, pe);
    }
}

static int iget_span(const shoal_transport_ops_t *ops, void *st, int pe, int seg, size_t off,
                     char *dst_buf, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem_size,
                     const char *routine)
{
    size_t per = SPAN_CHUNK / ((size_t)sst * elem_size), done, n, i;
    char *buf;

    if (per == 0 || (buf = malloc(SPAN_CHUNK)) == NULL)
        return 0;
    for (done = 0; done < nelems; done += n) {
        n = nelems - done < per ? nelems - done : per;
        check_transport(ops->get(st, seg, off + done * (size_t)sst * elem_size, buf,
                                 ((n - 1) * (size_t)sst + 1) * elem_size),
                        routine, pe);
        for (i = 0; i < n; i++)
            memcpy(dst_buf + (ptrdiff_t)(done + i) * dst * (ptrdiff_t)elem_size,
                   buf + i * (size_t)sst * elem_size, elem_size);
    }
    free(buf);
    return 1;
}

void shoal_core_iget(shoal_ctx_t *ctx, int pe, int seg, size_t off, char *dst_buf,
                     ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem_size,
                     const char *routine)
{
    void *st;
    const shoal_transport_ops_t *ops = shoal_path(ctx, pe, 0, &st);

    if ((ops->caps & SHOAL_CAP_MESSAGES) && nelems > 1 && sst >= 1 && sst <= SPAN_MAX_STRIDE &&
        iget_span(ops, st, pe, seg, off, dst_buf, dst, sst, nelems, elem_size, routine))
        return;
    check_transport(ops->iget(st, seg, off, sst * (ptrdiff_t)elem_size, dst_buf,
                              dst * (ptrdiff_t)elem_size, nelems, elem_size),
                    routine, pe);
}

void *shoal_core_ptr(int pe, int seg, size_t off)
{
    shoal_peer_t *peer;

    if (!shoal_peer_is_local(pe))
        return NULL;
    peer = shoal_peer_get(pe);
    return peer->ops->ptr(peer->state, seg, off);
}
