/* The kernel's half of the host proxy (shoal_proxy.h): taking a ticket, filling
 * its slot, and waiting for the host's reply where there is one. Every thread of
 * every kernel of this PE shares the one ring; a ticket comes from a counter in
 * device memory, so the ring's slots are filled in ticket order per lap and the
 * host carries them out in that order. The arguments were checked by device.cu,
 * which routes here. Also built as host code (the CPU engine). */
#include "shoal_device.cuh"
#include "shoal_dev_state.h"

/* Tickets taken so far: device memory, so atomics on it need nothing of the host. */
__device__ static unsigned long long tail;

/* Takes a ticket and waits for its slot to come free (the host, or the kernel
 * thread that read the reply of the ticket one lap before, frees it). */
static __device__ shoal_proxy_req_t *claim(uint64_t *ticket)
{
    shoal_proxy_ring_t *ring = shoal_dev_state.proxy;
    uint64_t t = atomicAdd(&tail, 1ULL);
    shoal_proxy_req_t *r = &ring->req[t % SHOAL_PROXY_SLOTS];
    unsigned ns = 0;

    while (shoal_wait_load_ivar((const void *)&r->turn, 8, 0) != t)
        shoal_dev_backoff(&ns);
    *ticket = t;
    return r;
}

/* The request written, then the word the host looks at. */
static __device__ void post(shoal_proxy_req_t *r, uint64_t t)
{
    __threadfence_system();
    r->posted = t + 1;
    shoal_proxy_wake(&r->posted);
}

/* Waits for the host's reply to ticket t; the caller reads it, then frees. */
static __device__ void await(shoal_proxy_req_t *r, uint64_t t)
{
    unsigned ns = 0;
    uint64_t seen;

    while ((seen = shoal_wait_load_ivar((const void *)&r->done, 8, 0)) != t + 1)
        shoal_dev_backoff_reply(&r->done, seen, &ns);
}

/* The reply read: the slot goes to the ticket one lap on. */
static __device__ void release(shoal_proxy_req_t *r, uint64_t t)
{
    __threadfence_system();
    r->turn = t + SHOAL_PROXY_SLOTS;
}

static __device__ shoal_proxy_req_t *request(int op, const void *addr, size_t bytes, int pe,
                                             int reply, uint64_t *t)
{
    shoal_proxy_req_t *r = claim(t);

    r->op = op;
    r->pe = pe;
    r->addr = (uint64_t)(uintptr_t)addr;
    r->bytes = bytes;
    r->reply = reply;
    return r;
}

/* Cost per piece of up to SHOAL_PROXY_PAYLOAD bytes: the copy into host memory
 * over PCIe and one fence; no wait for the host unless the ring is full. */
__device__ void shoal_dev_proxy_put(void *dest, const void *src, size_t bytes, int pe,
                                    uint64_t *sig_addr, uint64_t signal, int sig_op)
{
    size_t off = 0;

    do {
        size_t n = bytes - off < SHOAL_PROXY_PAYLOAD ? bytes - off : SHOAL_PROXY_PAYLOAD;
        int with_signal = sig_op >= 0 && off + n == bytes;
        uint64_t t;
        shoal_proxy_req_t *r = request(with_signal ? SHOAL_PROXY_PUT_SIGNAL : SHOAL_PROXY_PUT,
                                       (char *)dest + off, n, pe, 0, &t);

        if (with_signal) {
            r->sig_addr = (uint64_t)(uintptr_t)sig_addr;
            r->signal = signal;
            r->sig_op = sig_op;
        }
        shoal_dev_copy(r->payload, (const char *)src + off, n);
        post(r, t);
        off += n;
    } while (off < bytes);
}

/* Cost per piece: a round trip through the host, then the copy out of host memory. */
__device__ void shoal_dev_proxy_get(void *dest, const void *src, size_t bytes, int pe)
{
    size_t off;

    for (off = 0; off < bytes; off += SHOAL_PROXY_PAYLOAD) {
        size_t n = bytes - off < SHOAL_PROXY_PAYLOAD ? bytes - off : SHOAL_PROXY_PAYLOAD;
        uint64_t t;
        shoal_proxy_req_t *r = request(SHOAL_PROXY_GET, (const char *)src + off, n, pe, 1, &t);

        post(r, t);
        await(r, t);
        shoal_dev_copy((char *)dest + off, r->payload, n);
        release(r, t);
    }
}

__device__ void shoal_dev_proxy_amo(shoal_amo_op_t op, void *dest, uint64_t operand,
                                    uint64_t compare, void *fetch, size_t size, int pe)
{
    uint64_t t;
    shoal_proxy_req_t *r = request(SHOAL_PROXY_AMO, dest, size, pe, fetch != NULL, &t);

    r->amo_op = op;
    r->size = (int32_t)size;
    r->operand = operand;
    r->compare = compare;
    post(r, t);
    if (fetch == NULL)
        return;
    await(r, t);
    if (size == 8)
        *(uint64_t *)fetch = r->result;
    else
        *(uint32_t *)fetch = (uint32_t)r->result;
    release(r, t);
}

__device__ void shoal_dev_proxy_quiet(void)
{
    shoal_proxy_ring_t *ring = shoal_dev_state.proxy;
    uint64_t t, taken;
    shoal_proxy_req_t *r;

    if (ring == NULL)
        return;
    taken = *(volatile unsigned long long *)&tail;
    if (taken == shoal_wait_load_ivar((const void *)&ring->quieted, 8, 0))
        return; /* nothing went through the proxy since its last quiet */
    r = request(SHOAL_PROXY_QUIET, NULL, 0, 0, 1, &t);
    post(r, t);
    await(r, t);
    release(r, t);
}
