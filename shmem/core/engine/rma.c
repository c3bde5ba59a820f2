/* Contiguous and strided RMA on (pe, segment, offset). Arguments were checked by
 * the API layer; a transport failure here ends the job with the routine's name. */
#include "shoal_core.h"
#include "shoal_stats.h"
#include "shoal_status.h"

#include <stdlib.h>
#include <string.h>

static void check_transport(int status, const char *routine, int pe, const char *what)
{
    if (status != SHOAL_OK)
        shoal_peer_fail(routine, pe, what, status);
}

void shoal_core_put(shoal_ctx_t *ctx, int pe, int seg, size_t off, const void *src, size_t len,
                    int nbi, const char *routine)
{
    void *st;
    const shoal_transport_ops_t *ops = shoal_core_path(ctx, pe, 0, &st);

    shoal_stats_op(SHOAL_STATS_PUT, ops, len);
    check_transport(nbi ? ops->put_nbi(st, seg, off, src, len) : ops->put(st, seg, off, src, len),
                    routine, pe, "a put");
}

void shoal_core_get(shoal_ctx_t *ctx, int pe, int seg, size_t off, void *dst, size_t len, int nbi,
                    const char *routine)
{
    void *st;
    const shoal_transport_ops_t *ops = shoal_core_path(ctx, pe, 0, &st);

    shoal_stats_op(SHOAL_STATS_GET, ops, len);
    check_transport(nbi ? ops->get_nbi(st, seg, off, dst, len) : ops->get(st, seg, off, dst, len),
                    routine, pe, "a get");
}

/* Strided forms move one block of bsize elements at a time (one element for
 * iput and iget), strides in elements between block starts; except through a
 * transport that sends a message per operation (SHOAL_CAP_MESSAGES), where a
 * contiguous destination takes the packed blocks as one put, and a source whose
 * gaps are at most SPAN_MAX_STRIDE times its blocks is read as whole spans, gaps
 * included (bytes of the same remote allocation, between blocks the caller
 * named); each SPAN_CHUNK bytes at a time. Strides were checked to be at least
 * bsize (and 1) by the API layer. */
#define SPAN_MAX_STRIDE 16
#define SPAN_CHUNK ((size_t)1 << 20)

/* nblocks blocks of block bytes, sstep bytes apart in src, packed into puts.
 * SHOAL_ERR_NO_MEMORY (nothing sent) where it gets no buffer. */
static shoal_status_t iput_packed(const shoal_transport_ops_t *ops, void *st, int pe, int seg,
                                  size_t off, const char *src, size_t sstep, size_t nblocks,
                                  size_t block, const char *routine)
{
    size_t per = SPAN_CHUNK / block, done, n, i;
    char *buf;

    if (per == 0 || (buf = malloc(SPAN_CHUNK)) == NULL)
        return SHOAL_ERR_NO_MEMORY;
    for (done = 0; done < nblocks; done += n) {
        n = nblocks - done < per ? nblocks - done : per;
        for (i = 0; i < n; i++)
            memcpy(buf + i * block, src + (done + i) * sstep, block);
        check_transport(ops->put(st, seg, off + done * block, buf, n * block), routine, pe,
                        "a put");
    }
    free(buf);
    return SHOAL_OK;
}

void shoal_core_iput(shoal_ctx_t *ctx, int pe, int seg, size_t off, const char *src, ptrdiff_t dst,
                     ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size,
                     const char *routine)
{
    void *st;
    const shoal_transport_ops_t *ops = shoal_core_path(ctx, pe, 0, &st);
    size_t block = bsize * elem_size, i;

    shoal_stats_op(SHOAL_STATS_PUT, ops, nblocks * block);
    if ((size_t)dst == bsize && (size_t)sst == bsize) {
        check_transport(ops->put(st, seg, off, src, nblocks * block), routine, pe, "a put");
        return;
    }
    if ((ops->caps & SHOAL_CAP_MESSAGES) && (size_t)dst == bsize && nblocks > 1 &&
        iput_packed(ops, st, pe, seg, off, src, (size_t)sst * elem_size, nblocks, block, routine) ==
            SHOAL_OK)
        return;
    for (i = 0; i < nblocks; i++)
        check_transport(ops->put(st, seg, off + i * (size_t)dst * elem_size,
                                 src + i * (size_t)sst * elem_size, block),
                        routine, pe, "a put");
}

/* Spans of up to SPAN_CHUNK bytes, each holding whole blocks sstep bytes apart.
 * SHOAL_ERR_NO_MEMORY (nothing read) where it gets no buffer. */
static shoal_status_t iget_span(const shoal_transport_ops_t *ops, void *st, int pe, int seg,
                                size_t off, char *dst_buf, size_t dstep, size_t sstep,
                                size_t nblocks, size_t block, const char *routine)
{
    size_t per = SPAN_CHUNK / sstep, done, n, i;
    char *buf;

    if (per == 0 || (buf = malloc(SPAN_CHUNK)) == NULL)
        return SHOAL_ERR_NO_MEMORY;
    for (done = 0; done < nblocks; done += n) {
        n = nblocks - done < per ? nblocks - done : per;
        check_transport(ops->get(st, seg, off + done * sstep, buf, (n - 1) * sstep + block),
                        routine, pe, "a get");
        for (i = 0; i < n; i++)
            memcpy(dst_buf + (done + i) * dstep, buf + i * sstep, block);
    }
    free(buf);
    return SHOAL_OK;
}

void shoal_core_iget(shoal_ctx_t *ctx, int pe, int seg, size_t off, char *dst_buf, ptrdiff_t dst,
                     ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size,
                     const char *routine)
{
    void *st;
    const shoal_transport_ops_t *ops = shoal_core_path(ctx, pe, 0, &st);
    size_t block = bsize * elem_size;

    shoal_stats_op(SHOAL_STATS_GET, ops, nblocks * block);
    if ((size_t)dst == bsize && (size_t)sst == bsize) {
        check_transport(ops->get(st, seg, off, dst_buf, nblocks * block), routine, pe, "a get");
        return;
    }
    if ((ops->caps & SHOAL_CAP_MESSAGES) && nblocks > 1 && (size_t)sst <= SPAN_MAX_STRIDE * bsize &&
        iget_span(ops, st, pe, seg, off, dst_buf, (size_t)dst * elem_size, (size_t)sst * elem_size,
                  nblocks, block, routine) == SHOAL_OK)
        return;
    check_transport(ops->iget(st, seg, off, sst * (ptrdiff_t)elem_size, dst_buf,
                              dst * (ptrdiff_t)elem_size, nblocks, block),
                    routine, pe, "a get");
}

void *shoal_core_ptr(int pe, int seg, size_t off)
{
    shoal_peer_t *peer;

    if (!shoal_peer_is_local(pe))
        return NULL;
    peer = shoal_peer_get(pe);
    return peer->ops->ptr(peer->state, seg, off);
}
