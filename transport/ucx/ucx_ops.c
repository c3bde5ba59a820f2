/* The operations: put, get and AMOs on a peer (shoal_ucx_ops), and what orders
 * and completes them on a worker (fence, quiet). Each takes the worker's lock
 * for the call; a blocking one waits in ucx_request.c. */
#include "ucx_impl.h"
#include "shoal_log.h"
#include "shoal_status.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Depth of this thread's untracked sections (shoal_ucx_untracked). */
static __thread int untracked_depth;

void shoal_ucx_untracked(int on)
{
    untracked_depth += on ? 1 : -1;
}

/* Counts an operation about to go out on w for quiet and fence: issued, or in an
 * untracked section only tokens. Called with the lock held. */
static void count_issued(shoal_ucx_worker_t *w)
{
    if (untracked_depth > 0)
        __atomic_store_n(&w->tokens, 1, __ATOMIC_RELAXED);
    else
        __atomic_store_n(&w->issued, w->issued + 1, __ATOMIC_RELAXED);
}

/* A blocking put of up to BOUNCE_MAX bytes is sent from a copy and left for quiet
 * to complete: its caller may reuse the source at once, and does not wait for the
 * local completion that UCX over TCP gives only with the target's acknowledgement
 * (a p + wait_until ping-pong across nodes: 19 us -> 16 us half round trip). */
#define BOUNCE_MAX 4096

/* One put or get; blocking ones wait for local completion, the others are kept
 * for quiet. Called with the lock held. */
static shoal_status_t rma_locked(ucx_peer_t *peer, int put, int nbi, int seg, size_t off, void *buf,
                                 size_t len)
{
    ucp_request_param_t param = {.op_attr_mask = 0};
    uint64_t raddr = peer->base[seg] + off;
    const char *what = put ? (nbi ? "put_nbi" : "put") : (nbi ? "get_nbi" : "get");
    ucs_status_ptr_t req;
    void *bounce = NULL;

    count_issued(peer->w);
    peer->used = 1;
    if (put && !nbi && len <= BOUNCE_MAX && (bounce = malloc(len)) != NULL) {
        memcpy(bounce, buf, len);
        buf = bounce;
        nbi = 1;
    }
    req = put ? ucp_put_nbx(peer->ep, buf, len, raddr, peer->rkey[seg], &param)
              : ucp_get_nbx(peer->ep, buf, len, raddr, peer->rkey[seg], &param);

    return nbi ? shoal_ucx_request_keep(peer->w, req, bounce, what, peer->pe)
               : shoal_ucx_request_wait(peer->w, req, what, peer->pe);
}

static shoal_status_t rma(void *state, int put, int nbi, int seg, size_t off, void *buf, size_t len)
{
    ucx_peer_t *peer = state;
    int status;

    pthread_mutex_lock(&peer->w->lock);
    status = rma_locked(peer, put, nbi, seg, off, buf, len);
    pthread_mutex_unlock(&peer->w->lock);
    return status;
}

static shoal_status_t ucx_put(void *state, int seg, size_t off, const void *src, size_t len)
{
    return rma(state, 1, 0, seg, off, (void *)src, len);
}

static shoal_status_t ucx_get(void *state, int seg, size_t off, void *dst, size_t len)
{
    return rma(state, 0, 0, seg, off, dst, len);
}

static shoal_status_t ucx_put_nbi(void *state, int seg, size_t off, const void *src, size_t len)
{
    return rma(state, 1, 1, seg, off, (void *)src, len);
}

static shoal_status_t ucx_get_nbi(void *state, int seg, size_t off, void *dst, size_t len)
{
    return rma(state, 0, 1, seg, off, dst, len);
}

/* A get that waits at most limit_ms (0: SHOAL_PEER_TIMEOUT), into a buffer of its
 * own: one that runs out of time stays kept, with that buffer, until UCX
 * completes it, and the caller may go on (a hang report looking at a PE on a
 * node that dropped off the network must not hang itself). */
static shoal_status_t ucx_get_within(void *state, int seg, size_t off, void *dst, size_t len,
                                     unsigned limit_ms)
{
    ucx_peer_t *peer = state;
    shoal_ucx_worker_t *w = peer->w;
    ucp_request_param_t param = {.op_attr_mask = 0};
    void *buf = malloc(len);
    ucs_status_ptr_t req;
    shoal_status_t status;

    if (buf == NULL)
        return SHOAL_ERR_NO_MEMORY;
    pthread_mutex_lock(&w->lock);
    __atomic_store_n(&w->issued, w->issued + 1, __ATOMIC_RELAXED);
    peer->used = 1;
    req = ucp_get_nbx(peer->ep, buf, len, peer->base[seg] + off, peer->rkey[seg], &param);
    status =
        limit_ms > 0
            ? shoal_ucx_request_wait_for(w, req, "get", peer->pe, (uint64_t)limit_ms * 1000000u)
            : shoal_ucx_request_wait(w, req, "get", peer->pe); /* gives up on the job */
    if (status == SHOAL_ERR_TIMEOUT) {
        /* Limited: kept with its buffer until UCX completes it. Else (or if the keep
         * itself ran out of time) the buffer stays UCX's: the job is ending. */
        if (limit_ms > 0)
            shoal_ucx_request_keep(w, req, buf, "get", peer->pe);
        pthread_mutex_unlock(&w->lock);
        return SHOAL_ERR_TIMEOUT;
    }
    pthread_mutex_unlock(&w->lock);
    if (status == SHOAL_OK)
        memcpy(dst, buf, len);
    free(buf);
    return status;
}

static shoal_status_t ucx_amo(void *state, int seg, size_t off, shoal_amo_op_t op, size_t size,
                              const void *operand, const void *compare, void *fetch, int nbi);

/* Fetching and, or and xor as a compare-and-swap loop: UCX 1.13's shared-memory
 * transports return the old value of these but leave the word unchanged (and,
 * or) or zero it (xor), so a context under SHOAL_TRANSPORT=ucx lost the update.
 * The loop completes before it returns, which a _nbi form allows. */
static shoal_status_t ucx_fetch_bitwise(void *state, int seg, size_t off, shoal_amo_op_t op,
                                        size_t size, const void *operand, void *fetch)
{
    uint64_t old = 0, seen, want, arg = 0;
    int status;

    memcpy(&arg, operand, size);
    status = ucx_amo(state, seg, off, SHOAL_AMO_FETCH, size, NULL, NULL, &old, 0);
    while (status == SHOAL_OK) {
        want = op == SHOAL_AMO_AND ? (old & arg) : op == SHOAL_AMO_OR ? (old | arg) : (old ^ arg);
        seen = 0;
        status = ucx_amo(state, seg, off, SHOAL_AMO_CSWAP, size, &want, &old, &seen, 0);
        if (status != SHOAL_OK || seen == old)
            break;
        old = seen;
    }
    memcpy(fetch, &old, size);
    return status;
}

/* UCP has add, and, or, xor, swap and cswap; fetch is an add of 0 and set a swap
 * whose old value is dropped. A reply buffer of our own (set, or cswap without a
 * fetch pointer) lives on this stack, so those wait; the rest complete at quiet. */
static shoal_status_t ucx_amo(void *state, int seg, size_t off, shoal_amo_op_t op, size_t size,
                              const void *operand, const void *compare, void *fetch, int nbi)
{
    static const ucp_atomic_op_t opcodes[] = {
        [SHOAL_AMO_FETCH] = UCP_ATOMIC_OP_ADD, [SHOAL_AMO_SET] = UCP_ATOMIC_OP_SWAP,
        [SHOAL_AMO_SWAP] = UCP_ATOMIC_OP_SWAP, [SHOAL_AMO_CSWAP] = UCP_ATOMIC_OP_CSWAP,
        [SHOAL_AMO_ADD] = UCP_ATOMIC_OP_ADD,   [SHOAL_AMO_AND] = UCP_ATOMIC_OP_AND,
        [SHOAL_AMO_OR] = UCP_ATOMIC_OP_OR,     [SHOAL_AMO_XOR] = UCP_ATOMIC_OP_XOR,
    };
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE,
        .datatype = ucp_dt_make_contig(size),
    };
    ucx_peer_t *peer = state;
    uint64_t zero = 0, scratch = 0;
    const void *value = op == SHOAL_AMO_FETCH ? &zero : op == SHOAL_AMO_CSWAP ? compare : operand;
    void *reply = fetch;
    ucs_status_ptr_t req;
    int status;

    if (fetch != NULL && (op == SHOAL_AMO_AND || op == SHOAL_AMO_OR || op == SHOAL_AMO_XOR))
        return ucx_fetch_bitwise(state, seg, off, op, size, operand, fetch);
    if (reply == NULL && (op == SHOAL_AMO_SET || op == SHOAL_AMO_CSWAP))
        reply = &scratch;
    if (op == SHOAL_AMO_CSWAP) /* UCP compares with buffer; the new value rides in reply */
        memcpy(reply, operand, size);
    if (reply != NULL) {
        param.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        param.reply_buffer = reply;
    }
    pthread_mutex_lock(&peer->w->lock);
    count_issued(peer->w);
    peer->used = 1;
    req = ucp_atomic_op_nbx(peer->ep, opcodes[op], value, 1, peer->base[seg] + off, peer->rkey[seg],
                            &param);
    if (reply == &scratch || (fetch != NULL && !nbi))
        status = shoal_ucx_request_wait(peer->w, req, "atomic", peer->pe);
    else
        status = shoal_ucx_request_keep(peer->w, req, NULL, "atomic", peer->pe);
    pthread_mutex_unlock(&peer->w->lock);
    return status;
}

/* A strided get: a batch of element gets issued, then exactly those requests
 * completed (a quiet would also complete the context's other operations). */
#define IGET_BATCH 64

static shoal_status_t ucx_iget(void *state, int seg, size_t off, ptrdiff_t sst, char *dst,
                               ptrdiff_t dst_stride, size_t nelems, size_t size)
{
    ucx_peer_t *peer = state;
    ucp_request_param_t param = {.op_attr_mask = 0};
    ucs_status_ptr_t req[IGET_BATCH];
    int status = SHOAL_OK;
    size_t done, n, i;

    pthread_mutex_lock(&peer->w->lock);
    peer->used = 1;
    for (done = 0; done < nelems; done += n) {
        n = nelems - done < IGET_BATCH ? nelems - done : IGET_BATCH;
        for (i = 0; i < n; i++) {
            ptrdiff_t at = (ptrdiff_t)(done + i);

            req[i] = ucp_get_nbx(peer->ep, dst + at * dst_stride, size,
                                 peer->base[seg] + off + at * sst, peer->rkey[seg], &param);
        }
        for (i = 0; i < n && status != SHOAL_ERR_TIMEOUT; i++) {
            int st = shoal_ucx_request_wait(peer->w, req[i], "iget", peer->pe);

            if (st != SHOAL_OK)
                status = st; /* out of time: the job ends, the others may stay */
        }
    }
    pthread_mutex_unlock(&peer->w->lock);
    return status;
}

static void *ucx_ptr(void *state, int seg, size_t off)
{
    ucx_peer_t *peer = state;

    return peer->mapped[seg] != NULL ? peer->mapped[seg] + off : NULL;
}

const shoal_transport_ops_t shoal_ucx_ops = {
    .name = "ucx",
    .caps = SHOAL_CAP_MESSAGES | SHOAL_CAP_PER_CTX,
    .put = ucx_put,
    .get = ucx_get,
    .put_nbi = ucx_put_nbi,
    .get_nbi = ucx_get_nbi,
    .get_within = ucx_get_within,
    .amo = ucx_amo,
    .iget = ucx_iget,
    .ptr = ucx_ptr,
    .destroy = shoal_ucx_peer_destroy,
};

int shoal_ucx_stuck_pe(shoal_ucx_worker_t *w)
{
    return w->stuck_pe;
}

/* Whether operations were issued since the last quiet. Unlocked: a thread sees
 * its own operations, which is what its quiet must cover. */
static int has_issued(shoal_ucx_worker_t *w)
{
    return __atomic_load_n(&w->issued, __ATOMIC_RELAXED) !=
           __atomic_load_n(&w->quieted, __ATOMIC_RELAXED);
}

/* After a worker flush ran out of time: which peer does not answer? Each used
 * endpoint is flushed alone, a second at most; the first that does not finish
 * is named. The job is ending: requests left unfinished are UCX's. */
#define FIND_STUCK_NS 1000000000u

static void find_stuck(shoal_ucx_worker_t *w)
{
    ucp_request_param_t param = {.op_attr_mask = 0};

    for (ucx_peer_t *peer = w->peers; peer != NULL; peer = peer->next) {
        /* One that fails is as good an answer as one that hangs: UCX may have
         * seen the connection die meanwhile (TCP keepalive on a cut link). */
        if (peer->used && shoal_ucx_request_wait_for(w, ucp_ep_flush_nbx(peer->ep, &param), NULL,
                                                     peer->pe, FIND_STUCK_NS) != SHOAL_OK) {
            w->stuck_pe = peer->pe;
            return;
        }
    }
    w->stuck_pe = -1;
}

/* Completes every kept request, then flushes the worker for remote completion;
 * with_tokens: also when only collective tokens were sent since the last flush. */
shoal_status_t shoal_ucx_quiet(shoal_ucx_worker_t *w, int with_tokens)
{
    ucp_request_param_t param = {.op_attr_mask = 0};
    int status = SHOAL_OK;
    unsigned long seen;

    if (with_tokens) {
        pthread_mutex_lock(&w->lock);
        if (w->tokens)
            __atomic_store_n(&w->issued, w->issued + 1, __ATOMIC_RELAXED);
        __atomic_store_n(&w->tokens, 0, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&w->lock);
    }
    if (!has_issued(w))
        return SHOAL_OK;
    pthread_mutex_lock(&w->lock);
    seen = w->issued; /* the waits below unlock: others may issue more meanwhile */
    status = shoal_ucx_request_complete(w, w->kept);
    if (status != SHOAL_ERR_TIMEOUT) {
        int st = shoal_ucx_request_wait(w, ucp_worker_flush_nbx(w->worker, &param), "flush", -1);

        if (st == SHOAL_ERR_TIMEOUT)
            find_stuck(w);
        if (st != SHOAL_OK)
            status = st;
    }
    if (seen > w->quieted) /* a concurrent quiet may have covered more */
        __atomic_store_n(&w->quieted, seen, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&w->lock);
    return status;
}

shoal_status_t shoal_ucx_fence(shoal_ucx_worker_t *w)
{
    ucs_status_t st;

    if (!has_issued(w) && !__atomic_load_n(&w->tokens, __ATOMIC_RELAXED))
        return SHOAL_OK;
    pthread_mutex_lock(&w->lock);
    st = ucp_worker_fence(w->worker);
    pthread_mutex_unlock(&w->lock);
    if (st != UCS_OK) {
        shoal_log_error("UCX: fence failed: %s", ucs_status_string(st));
        return SHOAL_ERR_TRANSPORT;
    }
    return SHOAL_OK;
}
