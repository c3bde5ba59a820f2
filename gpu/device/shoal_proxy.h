/* The host proxy's ring: how a kernel hands the host a put, get or atomic that
 * load/store cannot do (a PE not mapped here, or an atomic where the GPU's are not
 * atomic with the CPU's). It lies in mapped pinned host memory, so kernels write
 * it through the PCIe mapping and a host thread of the PE
 * (gpu/host/proxy_thread.cu) reads it as plain memory; that thread carries each
 * request out with Shoal's own host routines on a context of its own, in ticket
 * order. Shared by gpu/device (the
 * producers) and gpu/host (the consumer); plain C types only.
 *
 * A request's life, for ticket t (from a device counter, so tickets are dense):
 *   1. the kernel thread waits until slot t % SLOTS has turn == t (free for it),
 *   2. fills the slot, fences (system scope), and sets posted = t + 1,
 *   3. the host sees posted == t + 1 at its head, carries it out, then either
 *      sets turn = t + SLOTS (no reply wanted: the slot is free again) or writes
 *      result and payload and sets done = t + 1; the kernel thread reads the reply
 *      and only then sets turn = t + SLOTS.
 * The host thread never waits for a kernel, and a kernel waits only for the host. */
#ifndef SHOAL_PROXY_H
#define SHOAL_PROXY_H

#include <stdint.h>

/* 64 slots of 4 KiB: 256 KiB of pinned memory per PE. A longer put or get is
 * cut into 4 KiB requests, which follow each other through the ring. */
#define SHOAL_PROXY_SLOTS 64
#define SHOAL_PROXY_PAYLOAD 4096

typedef enum shoal_proxy_op {
    SHOAL_PROXY_PUT = 1,    /* payload -> addr on pe; bytes */
    SHOAL_PROXY_GET,        /* addr on pe -> payload; bytes; reply */
    SHOAL_PROXY_AMO,        /* amo_op on the size-byte word at addr on pe; reply for a fetch */
    SHOAL_PROXY_PUT_SIGNAL, /* PUT, then sig_op with signal on sig_addr on pe */
    SHOAL_PROXY_QUIET       /* every earlier request complete at its target; reply */
} shoal_proxy_op_t;

typedef struct shoal_proxy_req {
    /* The hand-over words, each written by one side at a time (see above). */
    volatile uint64_t turn;
    volatile uint64_t posted;
    volatile uint64_t done;
    int32_t op;     /* shoal_proxy_op_t */
    int32_t pe;
    int32_t amo_op; /* shoal_amo_op_t */
    int32_t size;   /* an AMO's word: 4 or 8 bytes */
    int32_t sig_op; /* SHMEM_SIGNAL_SET or _ADD */
    int32_t reply;  /* the kernel waits for done and frees the slot itself */
    uint64_t addr;  /* the target in pe's heap, as this PE's host addresses its own */
    uint64_t bytes;
    uint64_t operand, compare, result;
    uint64_t sig_addr, signal;
    uint64_t payload[SHOAL_PROXY_PAYLOAD / 8]; /* 8-byte aligned for the copy */
} shoal_proxy_req_t;

typedef struct shoal_proxy_ring {
    /* Tickets below this were complete at their targets when the host's last
     * quiet returned: a kernel's quiet has nothing to wait for while every
     * ticket taken is below it. Written by the host only. */
    volatile uint64_t quieted;
    shoal_proxy_req_t req[SHOAL_PROXY_SLOTS];
} shoal_proxy_ring_t;

/* After one side writes a word the other may sleep on (the host a reply's
 * done, a kernel thread a request's posted): on the CPU engine, wakes the
 * threads parked on it (shoal_dev_port.h); on a GPU nothing, since kernels
 * poll and cannot wake a host thread, which polls too. Host and device. */
#ifdef SHOAL_DEV_ON_CPU
#define shoal_proxy_wake(word) shoal_dev_cpu_wake(word)
#else
#define shoal_proxy_wake(word) ((void)(word))
#endif

#endif
