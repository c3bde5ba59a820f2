/* What the device engine knows (a __device__ copy that shmem_init writes) and
 * where it records an error for the host (the status block, in mapped pinned host
 * memory, readable after the kernel trapped). Shared by gpu/device and gpu/host;
 * the address check is a pure function so that it runs, and is tested, on the
 * CPU as well. */
#ifndef SHOAL_DEV_STATE_H
#define SHOAL_DEV_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "shoal_proxy.h"
#include "shoal_wait.h" /* SHOAL_HD */

/* What a device error is about; the host turns (code, value) into the line. */
typedef enum shoal_dev_err {
    SHOAL_DEV_OK = 0,
    SHOAL_DEV_ERR_PE_RANGE,       /* value: pe, outside 0..n_pes-1 */
    SHOAL_DEV_ERR_PE_UNREACHABLE, /* value: pe, whose heap is not mapped here */
    /* value: the address, outside the heap or running past its end */
    SHOAL_DEV_ERR_DEST,
    SHOAL_DEV_ERR_SOURCE,
    SHOAL_DEV_ERR_IVAR,
    SHOAL_DEV_ERR_IVARS,
    SHOAL_DEV_ERR_SIG_ADDR,
    /* value: the address, not aligned to its type */
    SHOAL_DEV_ERR_ALIGN_DEST,
    SHOAL_DEV_ERR_ALIGN_IVAR,
    SHOAL_DEV_ERR_ALIGN_IVARS,
    SHOAL_DEV_ERR_ALIGN_SIG_ADDR,
    SHOAL_DEV_ERR_CMP,         /* value: cmp */
    SHOAL_DEV_ERR_INDICES,     /* indices NULL for a _some form; value: nelems */
    SHOAL_DEV_ERR_CMP_VALUES,  /* cmp_values NULL for a _vector form; value: nelems */
    SHOAL_DEV_ERR_NELEMS,      /* value: nelems, whose byte count overflows */
    SHOAL_DEV_ERR_SIZE,        /* value: an element size the engine has no case for */
    SHOAL_DEV_ERR_OP,          /* value: an AMO op the engine has no case for */
    SHOAL_DEV_ERR_SIG_OP,      /* value: sig_op, neither SIGNAL_SET nor SIGNAL_ADD */
    SHOAL_DEV_ERR_PE_UNMAPPED, /* a routine of every PE: value, a PE not mapped here */
    SHOAL_DEV_ERR_TEAM,        /* value: a team that names no valid team here */
    /* value: pe, whose GPU heap is not mapped here (another node), and no host
     * proxy to carry the operation (SHOAL_GPU_PROXY=none) */
    SHOAL_DEV_ERR_GHEAP_UNREACHABLE,
    /* value: a team whose PEs are not start + i * stride in the world team */
    SHOAL_DEV_ERR_TEAM_IRREGULAR,
    /* value: (team size << 32) | root, a root outside 0..size-1 */
    SHOAL_DEV_ERR_ROOT,
    SHOAL_DEV_ERR_RED_OP,  /* value: a reduction op the engine has no case for */
    SHOAL_DEV_ERR_NREDUCE, /* value: nreduce, whose byte count overflows */
    SHOAL_DEV_ERR_COUNT
} shoal_dev_err_t;

/* The device barrier's words (nvshmem_barrier, nvshmem_team_sync and the _all forms on
 * the device), one set per team in its slot (shoal_dev_team_psync_t): word 0 counts
 * this PE's barriers on the team (only this PE touches it), word 1 + r is round r's
 * arrival count of the dissemination barrier (the member 2^r to the left adds to
 * it). 32 rounds cover any int number of PEs. */
#define SHOAL_DEV_BARRIER_WORDS 33

/* The teams a kernel can name: nvshmem_team_t is an index into the device state's
 * table. 0..2 are the predefined teams (NVSHMEM_TEAM_WORLD, _SHARED, NVSHMEMX_TEAM_NODE),
 * the rest are made by nvshmem_team_split_strided and _split_2d and freed by
 * nvshmem_team_destroy. NVSHMEM's default NVSHMEM_MAX_TEAMS is 32 too. */
#define SHOAL_DEV_TEAMS_MAX 32
#define SHOAL_DEV_TEAMS_PREDEFINED 3
/* Bytes of a team's scratch: a reduction goes through it in pieces of this size. */
#define SHOAL_DEV_TEAM_SCRATCH 4096

/* A team as the device sees it: member i is world PE start + i * stride. size 0:
 * the slot is free here. stride 0: the members are not evenly spaced (a predefined
 * team can be so), and only the queries work on it. my_index: this PE's number in
 * it (a slot in use on a PE always holds a team of which the PE is a member). */
typedef struct shoal_dev_team {
    int start;
    int stride;
    int size;
    int my_index;
} shoal_dev_team_t;

/* A team's symmetric words, the pSync that the device collectives use: the
 * barrier's, then the scratch that reductions stage their source in. Slot t of a
 * block that the GPU library's init reserves in the symmetric heap (collectively:
 * the same offset on every PE), so every member of a team finds its peers' words
 * at its own slot's address. A slot is zeroed before a team takes it. */
typedef struct shoal_dev_team_psync {
    uint64_t barrier[SHOAL_DEV_BARRIER_WORDS];
    uint64_t pad;
    unsigned char scratch[SHOAL_DEV_TEAM_SCRATCH];
} shoal_dev_team_psync_t;

/* One error record per GPU. The first thread to fail claims it (in device
 * memory), fills it, makes it visible system-wide and only then writes code:
 * a non-zero code means the record is complete. */
typedef struct shoal_dev_status {
    volatile int32_t code; /* shoal_dev_err_t */
    int32_t pe;
    long long value;
    char routine[64];
} shoal_dev_status_t;

typedef struct shoal_dev_state {
    int my_pe;
    int n_pes; /* 0: this GPU has not been set up (no shmem_init, or another GPU) */
    /* This PE's heap as the host addresses it: the addresses user code passes. */
    uintptr_t heap_base;
    size_t heap_size;
    /* n_pes entries, in device memory: each PE's heap as this GPU addresses it,
     * NULL where it is not mapped into this process (another node, or
     * SHOAL_TRANSPORT=ucx). Entry my_pe is this PE's own heap. */
    char *const *peer_heap;
    /* The GPU symmetric heap (nvshmem_malloc), in the memory of this PE's GPU:
     * this PE's at the address kernels and the host both use, its size (0:
     * none), and the device table of n_pes entries, each PE's GPU heap as
     * mapped into this GPU (IPC), NULL where it is not (another node, another
     * GPU without peer access, or no GPU heap there). */
    uintptr_t gheap_base;
    size_t gheap_size;
    char *const *peer_gheap;
    shoal_dev_status_t *status; /* the device address of the status block */
    /* SHOAL_DEV_TEAMS_MAX team slots in this PE's heap, at the host address (the
     * same offset on every PE); NULL when not reserved. */
    shoal_dev_team_psync_t *psync;
    /* The teams (nvshmem_team_t indexes it). The predefined ones: world; shared,
     * the PEs whose heaps are mapped here, in PE order; node, SHMEM_TEAM_SHARED's.
     * The host keeps this table (gpu/host/team.cu) and copies an entry to the
     * device when a split or a destroy changes it. */
    shoal_dev_team_t teams[SHOAL_DEV_TEAMS_MAX];
    /* The host proxy's ring (device address), NULL without one
     * (SHOAL_GPU_PROXY=none). With it, operations on unmapped PEs go through
     * the host instead of failing; so do every put, get and AMO (proxy_all:
     * SHOAL_GPU_PROXY=all) or every AMO (proxy_amo: the GPU's atomics on host
     * memory are not atomic with the CPU's). */
    shoal_proxy_ring_t *proxy;
    int proxy_all, proxy_amo;
} shoal_dev_state_t;

#if defined(__CUDACC__) || defined(SHOAL_DEV_ON_CPU)
extern __device__ shoal_dev_state_t shoal_dev_state;
#endif

/* The team of the n world PEs pes[] (in team order), of which my_pe may be one:
 * strided when they are evenly spaced (one PE: stride 1), else stride 0. */
static inline void shoal_dev_team_describe(const int *pes, int n, int my_pe, shoal_dev_team_t *out)
{
    int i;

    out->start = n > 0 ? pes[0] : 0;
    out->stride = n > 1 ? pes[1] - pes[0] : 1;
    out->size = n;
    out->my_index = -1;
    for (i = 0; i < n; i++) {
        if (pes[i] != out->start + i * out->stride)
            out->stride = 0;
        if (pes[i] == my_pe)
            out->my_index = i;
    }
}

/* The entry of team in table, or NULL where team names no team here (out of
 * range, or a free slot). */
static inline SHOAL_HD const shoal_dev_team_t *shoal_dev_team_at(const shoal_dev_team_t *table,
                                                                 int team)
{
    if ((unsigned)team >= SHOAL_DEV_TEAMS_MAX || table[team].size == 0)
        return NULL;
    return &table[team];
}

/* nvshmem_team_translate_pe's rule: src_pe of src_team as a number in dest_team,
 * -1 where either team is NVSHMEM_TEAM_INVALID (-1), src_pe is not a member or
 * the PE is not one of dest_team. Both teams must be valid and strided (the
 * caller checks). */
static inline SHOAL_HD int shoal_dev_team_translate(const shoal_dev_team_t *src, int src_pe,
                                                    const shoal_dev_team_t *dest)
{
    long long world, off, q;

    if (src_pe < 0 || src_pe >= src->size)
        return -1;
    world = (long long)src->start + (long long)src_pe * src->stride;
    off = world - dest->start;
    q = off / dest->stride;
    if (q * dest->stride != off || q < 0 || q >= dest->size)
        return -1;
    return (int)q;
}

/* Whether addr lies in this PE's GPU heap. */
static inline SHOAL_HD int shoal_dev_in_gheap(const shoal_dev_state_t *s, const void *addr)
{
    return (uintptr_t)addr - s->gheap_base < s->gheap_size;
}

/* Where [addr, addr + len) on PE pe is for this GPU: the address, or NULL with
 * *err_out set to SHOAL_DEV_ERR_PE_RANGE, SHOAL_DEV_ERR_PE_UNREACHABLE (host
 * heap), SHOAL_DEV_ERR_GHEAP_UNREACHABLE (GPU heap) or addr_err (the code
 * naming the argument; its range must lie in one heap). Cost: two compares for
 * the host heap, two more for the GPU heap, one load of the table. */
static inline SHOAL_HD char *shoal_dev_translate(const shoal_dev_state_t *s, const void *addr,
                                                 size_t len, int pe, int addr_err,
                                                 int *err_out)
{
    uintptr_t off = (uintptr_t)addr - s->heap_base;
    size_t size = s->heap_size;
    char *const *table = s->peer_heap;
    int unreachable = SHOAL_DEV_ERR_PE_UNREACHABLE;
    char *base;

    if ((unsigned)pe >= (unsigned)s->n_pes) {
        *err_out = SHOAL_DEV_ERR_PE_RANGE;
        return NULL;
    }
    if (off >= size) { /* not the host heap: the GPU heap, or neither */
        off = (uintptr_t)addr - s->gheap_base;
        size = s->gheap_size;
        table = s->peer_gheap;
        unreachable = SHOAL_DEV_ERR_GHEAP_UNREACHABLE;
    }
    if (off >= size || len > size - off) {
        *err_out = addr_err;
        return NULL;
    }
    base = table[pe];
    if (base == NULL) {
        *err_out = unreachable;
        return NULL;
    }
    return base + off;
}

#endif
