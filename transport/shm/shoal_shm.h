/* Same-node transport: each PE's segments live in memfd files that peers on the
 * node map, so remote access is a load or store. Holds no global state. */
#ifndef SHOAL_SHM_H
#define SHOAL_SHM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "shoal_transport.h"

typedef struct shoal_shm_peer {
    char *base[SHOAL_SEG_COUNT];
    size_t size[SHOAL_SEG_COUNT];
} shoal_shm_peer_t;

extern const shoal_transport_ops_t shoal_shm_ops;

/* A new shared segment of size bytes, mapped at a multiple of align (a power of
 * two, at least a page). */
int shoal_shm_segment_create(const char *name, size_t size, size_t align, int *fd_out,
                             void **addr_out);
/* Makes the existing private mapping [addr, addr+size) shared, keeping its contents
 * and its address (used for the program's data and bss). */
int shoal_shm_segment_remap(const char *name, void *addr, size_t size, int *fd_out);
/* Copies size bytes between [base, base+size) and the start of file fd, into the
 * file when to_file is set, else out of it. Returns SHOAL_OK or SHOAL_ERR_SYSTEM. */
int shoal_shm_file_copy(int fd, char *base, size_t size, int to_file);
/* Maps a peer's segment, named by its pid and descriptor. */
int shoal_shm_segment_attach(pid_t pid, int fd, size_t size, void **addr_out);
void shoal_shm_segment_detach(void *addr, size_t size);

/* Store ordering for the direct path: fence orders, quiet completes. */
static inline void shoal_shm_fence(void)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void shoal_shm_quiet(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* CPU atomics on a mapped value: one locked instruction (or a cmpxchg loop the
 * compiler emits for fetch-and/or/xor). Sequentially consistent, like the peers'. */
#define SHOAL_SHM_AMO_FN(T)                                                            \
    static inline T shoal_shm_amo_##T(T *p, shoal_amo_op_t op, T v, T cmp)             \
    {                                                                                  \
        switch (op) {                                                                  \
        case SHOAL_AMO_FETCH: return __atomic_load_n(p, __ATOMIC_SEQ_CST);             \
        case SHOAL_AMO_SET: __atomic_store_n(p, v, __ATOMIC_SEQ_CST); return 0;        \
        case SHOAL_AMO_SWAP: return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);       \
        case SHOAL_AMO_CSWAP:                                                          \
            __atomic_compare_exchange_n(p, &cmp, v, 0, __ATOMIC_SEQ_CST,               \
                                        __ATOMIC_SEQ_CST);                             \
            return cmp;                                                                \
        case SHOAL_AMO_ADD: return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);         \
        case SHOAL_AMO_AND: return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);         \
        case SHOAL_AMO_OR: return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);           \
        case SHOAL_AMO_XOR: return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);         \
        }                                                                              \
        return 0;                                                                      \
    }
SHOAL_SHM_AMO_FN(uint32_t)
SHOAL_SHM_AMO_FN(uint64_t)

/* op on the size-byte (4 or 8) value at p: operand and compare as op needs, fetch
 * (NULL for none) receives the old value. Inline, so that with op and size known
 * at the call it is the one atomic instruction. */
static inline void shoal_shm_amo_at(void *p, shoal_amo_op_t op, size_t size,
                                    const void *operand, const void *compare, void *fetch)
{
    if (size == 8) {
        uint64_t v = 0, c = 0, old;

        if (operand != NULL)
            memcpy(&v, operand, 8);
        if (compare != NULL)
            memcpy(&c, compare, 8);
        old = shoal_shm_amo_uint64_t(p, op, v, c);
        if (fetch != NULL)
            memcpy(fetch, &old, 8);
    } else {
        uint32_t v = 0, c = 0, old;

        if (operand != NULL)
            memcpy(&v, operand, 4);
        if (compare != NULL)
            memcpy(&c, compare, 4);
        old = shoal_shm_amo_uint32_t(p, op, v, c);
        if (fetch != NULL)
            memcpy(fetch, &old, 4);
    }
}

#endif
