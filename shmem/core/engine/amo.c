/* Atomics and put-with-signal on (pe, segment, offset). The path is the peer's
 * AMO path, chosen at connect time so that one job never mixes CPU atomics with a
 * NIC's on the same location. */
#include "shoal_core.h"
#include "shoal_session.h"
#include "shoal_stats.h"
#include "shoal_status.h"

void shoal_core_amo(shoal_ctx_t *ctx, int pe, int seg, size_t off, shoal_amo_op_t op, size_t size,
                    const void *operand, const void *compare, void *fetch, int nbi,
                    const char *routine)
{
    void *st;
    const shoal_transport_ops_t *ops = shoal_core_path(ctx, pe, 1, &st);
    int status;

    shoal_stats_op(SHOAL_STATS_AMO, ops, size);
    status = ops->amo(st, seg, off, op, size, operand, compare, fetch, nbi);
    if (status != SHOAL_OK)
        shoal_peer_fail(routine, pe, "an atomic operation", status);
}

void shoal_core_amo_program(shoal_ctx_t *ctx, int pe, int seg, size_t off, shoal_amo_op_t op,
                            size_t size, const void *operand, const void *compare, void *fetch,
                            int nbi, const char *routine)
{
    if (__builtin_expect(ctx->session != NULL, 0) && fetch == NULL && compare == NULL) {
        void *st;
        const shoal_transport_ops_t *ops = shoal_core_path(ctx, pe, 1, &st);

        if ((ops->caps & SHOAL_CAP_MESSAGES) &&
            shoal_session_hold(ctx, pe, seg, off, op, size, operand, routine)) {
            shoal_stats_op(SHOAL_STATS_AMO, ops, size);
            return;
        }
    }
    shoal_core_amo(ctx, pe, seg, off, op, size, operand, compare, fetch, nbi, routine);
}

/* The data, then a fence, then the signal: whoever sees the signal sees the data. */
void shoal_core_put_signal(shoal_ctx_t *ctx, int pe, int seg, size_t off, const void *src,
                           size_t len, int sig_seg, size_t sig_off, uint64_t signal, int sig_add,
                           int nbi, const char *routine)
{
    void *st;
    int counted = shoal_stats_on() /* as one, not a put and an AMO */
                      ? shoal_stats_signal_begin(shoal_core_path(ctx, pe, 0, &st), len)
                      : 0;

    if (len > 0)
        shoal_core_put(ctx, pe, seg, off, src, len, nbi, routine);
    shoal_core_fence(ctx);
    shoal_core_amo(ctx, pe, sig_seg, sig_off, sig_add ? SHOAL_AMO_ADD : SHOAL_AMO_SET,
                   sizeof(uint64_t), &signal, NULL, NULL, 1, routine);
    shoal_stats_signal_end(counted);
}
