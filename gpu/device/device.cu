/* The device engine (shoal_device.cuh) and the untyped nvshmem_ routines that
 * exist on the device: loads, stores and system-scope atomics on heaps that
 * shmem_init registered with this GPU. It never allocates and never blocks except
 * in shoal_dev_sync; a wrong argument ends the kernel through shoal_dev_fail.
 * It also builds as host code, the CPU engine (tests/gpu-cpu): a CUDA primitive
 * used here must have its host mapping in shoal_dev_port.h. */
#include "shoal_device.cuh"
#include "shoal_dev_state.h"
#include "shoal_dev_host.h"
#include "nvshmem.h"
#include "shmem.h"

#include <stdio.h>

static_assert(NVSHMEM_CMP_EQ == SHOAL_CMP_EQ && NVSHMEM_CMP_NE == SHOAL_CMP_NE &&
                  NVSHMEM_CMP_GT == SHOAL_CMP_GT && NVSHMEM_CMP_LE == SHOAL_CMP_LE &&
                  NVSHMEM_CMP_LT == SHOAL_CMP_LT && NVSHMEM_CMP_GE == SHOAL_CMP_GE,
              "NVSHMEM_CMP_* must be the wait core's operators");
static_assert(NVSHMEM_CMP_EQ == SHMEM_CMP_EQ && NVSHMEM_CMP_NE == SHMEM_CMP_NE &&
                  NVSHMEM_CMP_GT == SHMEM_CMP_GT && NVSHMEM_CMP_LE == SHMEM_CMP_LE &&
                  NVSHMEM_CMP_LT == SHMEM_CMP_LT && NVSHMEM_CMP_GE == SHMEM_CMP_GE,
              "NVSHMEM_CMP_* must equal SHMEM_CMP_*");
static_assert(NVSHMEM_SIGNAL_SET == SHMEM_SIGNAL_SET && NVSHMEM_SIGNAL_ADD == SHMEM_SIGNAL_ADD,
              "NVSHMEM_SIGNAL_* must equal SHMEM_SIGNAL_*");

/* The device half of a routine that is both host and device: nvcc's device pass,
 * and the CPU build (shoal_dev_port.h), which has no host half. */
#if defined(__CUDA_ARCH__) || defined(SHOAL_DEV_ON_CPU)
#define DEVICE_HALF 1
#endif

__device__ shoal_dev_state_t shoal_dev_state;

/* The claim on this GPU's status block (device memory: atomics on it need no
 * host-coherent atomics) and whether the claimant has finished writing it. */
__device__ static int fail_claimed;
__device__ static volatile int fail_written;

/* Where each thread's next _any scan starts, as the host keeps one per thread:
 * a slot per thread modulo ANY_CURSORS. Threads sharing a slot only perturb
 * each other's rotation, never the result. */
#define ANY_CURSORS 1024
__device__ static size_t any_cursor[ANY_CURSORS];

static __device__ unsigned thread_slot(void)
{
    unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;

    return (block * (blockDim.x * blockDim.y * blockDim.z) + thread) % ANY_CURSORS;
}

/* Out of line: the error path stays out of the callers' hot code. */
__device__ __noinline__ void shoal_dev_fail(const char *routine, int code, long long value)
{
    shoal_dev_status_t *st = shoal_dev_state.status;
    int i;

    if (st == NULL) {
        /* No status block: shmem_init never set up this GPU. */
        printf("%s (device): called on a GPU that shmem_init (or nvshmem_init) did not set "
               "up; initialise first, with this GPU current\n",
               routine);
        __trap();
    }
    if (atomicCAS(&fail_claimed, 0, 1) == 0) {
        for (i = 0; i + 1 < (int)sizeof(st->routine) && routine[i] != '\0'; i++)
            st->routine[i] = routine[i];
        st->routine[i] = '\0';
        st->pe = shoal_dev_state.my_pe;
        st->value = value;
        __threadfence_system(); /* the record before its code */
        st->code = code;
        __threadfence_system();
        fail_written = 1;
    } else {
        /* Another thread reports; trapping now could cut its record short. */
        while (!fail_written)
            __nanosleep(1000);
    }
    __trap();
}

/* The address of [addr, addr + len) on pe for this GPU, or the end of the kernel
 * with the error (addr_err names the argument). */
static __device__ char *remote(const void *addr, size_t len, int pe, int addr_err,
                               const char *routine)
{
    int err = SHOAL_DEV_OK;
    char *p = shoal_dev_translate(&shoal_dev_state, addr, len, pe, addr_err, &err);

    if (p == NULL)
        shoal_dev_fail(routine, err, err == addr_err ? (long long)(uintptr_t)addr : pe);
    return p;
}

/* Where an operation on [addr, addr + len) on pe goes, checked as remote does:
 * the address this GPU loads and stores, or NULL when the host proxy carries it
 * (pe's heap, host or GPU, not mapped here, or SHOAL_GPU_PROXY says so; amo: an
 * atomic). A GPU heap mapped here is always load/store: proxy_all and proxy_amo
 * (which are about atomics on host memory) leave it alone. Without a proxy an
 * unmapped heap is an error (SHOAL_DEV_ERR_PE_UNREACHABLE, _GHEAP_UNREACHABLE). */
static __device__ char *route(const void *addr, size_t len, int pe, int addr_err, int amo,
                              const char *routine)
{
    const shoal_dev_state_t *s = &shoal_dev_state;
    int err = SHOAL_DEV_OK;
    char *p = shoal_dev_translate(s, addr, len, pe, addr_err, &err);

    if (s->proxy != NULL && (p != NULL || err == SHOAL_DEV_ERR_PE_UNREACHABLE ||
                             err == SHOAL_DEV_ERR_GHEAP_UNREACHABLE)) {
        if (p == NULL || ((s->proxy_all || (amo && s->proxy_amo)) && !shoal_dev_in_gheap(s, addr)))
            return NULL;
    } else if (p == NULL) {
        shoal_dev_fail(routine, err, err == addr_err ? (long long)(uintptr_t)addr : pe);
    }
    return p;
}

__device__ void *shoal_dev_ptr(const void *addr, int pe)
{
    int err;

    return shoal_dev_translate(&shoal_dev_state, addr, 1, pe, SHOAL_DEV_ERR_DEST, &err);
}

/* Cost: one load and one store per word; over PCIe, stores are posted and loads
 * wait. */
__device__ void shoal_dev_copy(void *dest, const void *src, size_t bytes)
{
    uintptr_t bits = (uintptr_t)dest | (uintptr_t)src | bytes;
    size_t i;

    if ((bits & 7) == 0) {
        for (i = 0; i < bytes / 8; i++)
            ((uint64_t *)dest)[i] = ((const uint64_t *)src)[i];
    } else if ((bits & 3) == 0) {
        for (i = 0; i < bytes / 4; i++)
            ((uint32_t *)dest)[i] = ((const uint32_t *)src)[i];
    } else {
        for (i = 0; i < bytes; i++)
            ((char *)dest)[i] = ((const char *)src)[i];
    }
}

/* This thread's share of a copy that a group of n threads makes together: words
 * rank, rank + n, ... in the widest word all ends allow (the same for every
 * thread), so that neighbouring threads touch neighbouring words (coalesced). */
static __device__ void copy_share(void *dest, const void *src, size_t bytes, unsigned rank,
                                  unsigned n)
{
    uintptr_t bits = (uintptr_t)dest | (uintptr_t)src | bytes;
    size_t i;

    if ((bits & 7) == 0) {
        for (i = rank; i < bytes / 8; i += n)
            ((uint64_t *)dest)[i] = ((const uint64_t *)src)[i];
    } else if ((bits & 3) == 0) {
        for (i = rank; i < bytes / 4; i += n)
            ((uint32_t *)dest)[i] = ((const uint32_t *)src)[i];
    } else {
        for (i = rank; i < bytes; i += n)
            ((char *)dest)[i] = ((const char *)src)[i];
    }
}

/* The calling thread's rank in its group, a block (warp 0) or the calling
 * thread's warp (warp 1), and the group's size. A warp is the 32 threads of
 * ranks 32k..32k+31 in the block, fewer in a block's last, partial warp. */
__device__ unsigned shoal_dev_group_rank(int warp, unsigned *n)
{
    unsigned size = blockDim.x * blockDim.y * blockDim.z;
    unsigned rank = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned first = rank / warpSize * warpSize;

    if (!warp) {
        *n = size;
        return rank;
    }
    *n = size - first < (unsigned)warpSize ? size - first : (unsigned)warpSize;
    return rank - first;
}

/* Every thread of the group waits for the others (n from group_rank). */
__device__ void shoal_dev_group_sync(int warp, unsigned n)
{
    if (warp)
        __syncwarp(n == 32 ? 0xffffffffu : (1u << n) - 1);
    else
        __syncthreads();
}

/* A group operation: every thread of the group calls it with the same arguments;
 * on return the whole copy is done (the source may be reused), as for one
 * thread's put or get. Where load/store reaches the heap each thread copies its
 * share; through the proxy the group's first thread posts the requests alone.
 * Cost: bytes / n per thread (or the proxy's), then one __syncthreads or
 * __syncwarp. */
static __device__ void group_op(void *dest, const void *src, size_t bytes, int pe, int warp,
                                int get, const char *routine)
{
    unsigned n, rank = shoal_dev_group_rank(warp, &n);
    const void *target = get ? src : dest;
    char *p = route(target, bytes, pe, get ? SHOAL_DEV_ERR_SOURCE : SHOAL_DEV_ERR_DEST, 0,
                    routine);

    if (p != NULL)
        copy_share(get ? dest : p, get ? p : src, bytes, rank, n);
    else if (rank == 0 && get)
        shoal_dev_proxy_get(dest, src, bytes, pe);
    else if (rank == 0)
        shoal_dev_proxy_put(dest, src, bytes, pe, NULL, 0, -1);
    shoal_dev_group_sync(warp, n);
}

/* A copy of nothing moves nothing, but the PE must still be one. */
static __device__ int empty_copy(size_t bytes, int pe, const char *routine)
{
    if (bytes == 0 && (unsigned)pe >= (unsigned)shoal_dev_state.n_pes)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_PE_RANGE, pe);
    return bytes == 0;
}

__device__ void shoal_dev_put_group(void *dest, const void *src, size_t bytes, int pe, int warp,
                                    const char *routine)
{
    if (!empty_copy(bytes, pe, routine))
        group_op(dest, src, bytes, pe, warp, 0, routine);
}

__device__ void shoal_dev_get_group(void *dest, const void *src, size_t bytes, int pe, int warp,
                                    const char *routine)
{
    if (!empty_copy(bytes, pe, routine))
        group_op(dest, src, bytes, pe, warp, 1, routine);
}

__device__ void shoal_dev_put(void *dest, const void *src, size_t bytes, int pe,
                              const char *routine)
{
    char *p;

    if (empty_copy(bytes, pe, routine))
        return;
    p = route(dest, bytes, pe, SHOAL_DEV_ERR_DEST, 0, routine);
    if (p != NULL)
        shoal_dev_copy(p, src, bytes);
    else
        shoal_dev_proxy_put(dest, src, bytes, pe, NULL, 0, -1);
}

__device__ void shoal_dev_get(void *dest, const void *src, size_t bytes, int pe,
                              const char *routine)
{
    char *p;

    if (empty_copy(bytes, pe, routine))
        return;
    p = route(src, bytes, pe, SHOAL_DEV_ERR_SOURCE, 0, routine);
    if (p != NULL)
        shoal_dev_copy(dest, p, bytes);
    else
        shoal_dev_proxy_get(dest, src, bytes, pe);
}

/* The native system-scope atomics, on 32- or 64-bit words (T): every op has one,
 * and a fetch is an acquire load. */
template <typename T>
static __device__ T amo(shoal_amo_op_t op, T *p, T operand, T compare, const char *routine)
{
    switch (op) {
    case SHOAL_AMO_FETCH: return (T)shoal_wait_load_ivar(p, sizeof(T), 0);
    case SHOAL_AMO_SET:
    case SHOAL_AMO_SWAP: return atomicExch_system(p, operand);
    case SHOAL_AMO_CSWAP: return atomicCAS_system(p, compare, operand);
    case SHOAL_AMO_ADD: return atomicAdd_system(p, operand);
    case SHOAL_AMO_AND: return atomicAnd_system(p, operand);
    case SHOAL_AMO_OR: return atomicOr_system(p, operand);
    case SHOAL_AMO_XOR: return atomicXor_system(p, operand);
    }
    shoal_dev_fail(routine, SHOAL_DEV_ERR_OP, op);
    return 0;
}

__device__ uint64_t shoal_dev_amo_at(shoal_amo_op_t op, void *p, uint64_t operand, uint64_t compare,
                                     size_t size, const char *routine)
{
    typedef unsigned long long u64;

    if (size == 8)
        return amo<u64>(op, (u64 *)p, operand, compare, routine);
    return amo<unsigned>(op, (unsigned *)p, (unsigned)operand, (unsigned)compare, routine);
}

/* The size-byte (4 or 8) operand at x, 0 where the op has none (NULL). */
static __device__ uint64_t word(const void *x, size_t size)
{
    if (x == NULL)
        return 0;
    return size == 8 ? *(const uint64_t *)x : *(const uint32_t *)x;
}

/* An AMO the host proxy carries: the op is checked here, as amo does. */
static __device__ void proxy_amo(shoal_amo_op_t op, void *dest, uint64_t operand,
                                 uint64_t compare, void *fetch, size_t size, int pe,
                                 const char *routine)
{
    if ((unsigned)op > (unsigned)SHOAL_AMO_XOR)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_OP, op);
    shoal_dev_proxy_amo(op, dest, operand, compare, fetch, size, pe);
}

__device__ void shoal_dev_amo(shoal_amo_op_t op, void *dest, const void *operand,
                              const void *compare, void *fetch, size_t size, int pe,
                              const char *routine)
{
    char *p;

    if (size != 4 && size != 8)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_SIZE, (long long)size);
    p = route(dest, size, pe, SHOAL_DEV_ERR_DEST, 1, routine);
    if (((uintptr_t)dest & (size - 1)) != 0)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_ALIGN_DEST, (long long)(uintptr_t)dest);
    if (p == NULL) {
        proxy_amo(op, dest, word(operand, size), word(compare, size), fetch, size, pe, routine);
    } else if (size == 8) {
        typedef unsigned long long u64;
        u64 old = amo<u64>(op, (u64 *)p, word(operand, 8), word(compare, 8), routine);

        if (fetch != NULL)
            *(u64 *)fetch = old;
    } else {
        unsigned old = amo<unsigned>(op, (unsigned *)p, (unsigned)word(operand, 4),
                                     (unsigned)word(compare, 4), routine);

        if (fetch != NULL)
            *(unsigned *)fetch = old;
    }
}

/* The host's argument checks (shoal_api_sync), for the device: each names its
 * argument. Leaves set->ivars at the address this GPU loads from. */
static __device__ void check_sync(shoal_wait_set_t *set, shoal_sel_t sel, size_t *indices,
                                  const char *routine)
{
    uintptr_t user_ivars;
    size_t bytes;

    if (!shoal_wait_cmp_valid(set->cmp))
        shoal_dev_fail(routine, SHOAL_DEV_ERR_CMP, set->cmp);
    if (set->nelems == 0) /* an empty set touches no memory */
        return;
    if (set->elem_size != 2 && set->elem_size != 4 && set->elem_size != 8)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_SIZE, (long long)set->elem_size);
    if (set->nelems > SIZE_MAX / set->elem_size)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_NELEMS, (long long)set->nelems);
    bytes = set->nelems * set->elem_size;
    user_ivars = (uintptr_t)set->ivars;
    set->ivars = remote(set->ivars, bytes, shoal_dev_state.my_pe,
                        sel == SHOAL_SEL_ONE ? SHOAL_DEV_ERR_IVAR : SHOAL_DEV_ERR_IVARS, routine);
    if ((user_ivars & (set->elem_size - 1)) != 0)
        shoal_dev_fail(routine,
                       sel == SHOAL_SEL_ONE ? SHOAL_DEV_ERR_ALIGN_IVAR : SHOAL_DEV_ERR_ALIGN_IVARS,
                       (long long)user_ivars);
    if (sel == SHOAL_SEL_SOME && indices == NULL)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_INDICES, (long long)set->nelems);
    if (set->vector && set->values == NULL)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_CMP_VALUES, (long long)set->nelems);
}

/* The device's turn of the wait loop: __nanosleep back-off. */
static __device__ void dev_turn(void *arg)
{
    shoal_dev_backoff((unsigned *)arg);
}

/* The host's shoal_core_sync over the same loop (shoal_wait_run), with __nanosleep
 * for its back-off. Cost per poll: one system-scope acquire load per entry
 * tested, each a round trip to host memory. */
__device__ size_t shoal_dev_sync(const shoal_wait_set_t *set_in, shoal_sel_t sel, int block,
                                 size_t *indices, const char *routine)
{
    shoal_wait_set_t set = *set_in;
    unsigned ns = 0;
    size_t *slot, cursor, found;

    check_sync(&set, sel, indices, routine);
    slot = &any_cursor[thread_slot()];
    cursor = *slot;
    found = shoal_wait_run(&set, sel, block, indices, &cursor, dev_turn, &ns);
    if (sel == SHOAL_SEL_ANY)
        *slot = cursor;
    return found;
}

/* sig_addr must be an aligned uint64_t in the heap; the device address of it. */
static __device__ uint64_t *signal_addr(uint64_t *sig_addr, const char *routine)
{
    uint64_t *p = (uint64_t *)remote(sig_addr, sizeof(*sig_addr), shoal_dev_state.my_pe,
                                     SHOAL_DEV_ERR_SIG_ADDR, routine);

    if (((uintptr_t)sig_addr & (sizeof(*sig_addr) - 1)) != 0)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_ALIGN_SIG_ADDR, (long long)(uintptr_t)sig_addr);
    return p;
}

/* The signal update of a put-with-signal on PE pe, checked: sig_addr in the heap
 * and aligned, sig_op a SET or an ADD. Returns where to apply it, NULL where the
 * host proxy does (an atomic: route). */
static __device__ unsigned long long *signal_target(uint64_t *sig_addr, int sig_op, int pe,
                                                    const char *routine)
{
    char *p = route(sig_addr, sizeof(*sig_addr), pe, SHOAL_DEV_ERR_SIG_ADDR, 1, routine);

    if (((uintptr_t)sig_addr & (sizeof(*sig_addr) - 1)) != 0)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_ALIGN_SIG_ADDR, (long long)(uintptr_t)sig_addr);
    if (sig_op != NVSHMEM_SIGNAL_SET && sig_op != NVSHMEM_SIGNAL_ADD)
        shoal_dev_fail(routine, SHOAL_DEV_ERR_SIG_OP, sig_op);
    return (unsigned long long *)p;
}

/* One system-scope atomic at p (signal_target's), or the host proxy's on
 * sig_addr: the signal is never torn, and an ADD from several PEs at once loses
 * none. */
static __device__ void signal_update(unsigned long long *p, uint64_t *sig_addr, uint64_t signal,
                                     int sig_op, int pe)
{
    shoal_amo_op_t op = sig_op == NVSHMEM_SIGNAL_ADD ? SHOAL_AMO_ADD : SHOAL_AMO_SET;

    if (p == NULL)
        shoal_dev_proxy_amo(op, sig_addr, signal, 0, NULL, sizeof(*sig_addr), pe);
    else if (op == SHOAL_AMO_ADD)
        atomicAdd_system(p, (unsigned long long)signal);
    else
        atomicExch_system(p, (unsigned long long)signal);
}

/* Cost: the copy, one fence.sc.sys (the data is visible system-wide before the
 * signal is) and one atomic. Through the proxy: one request per 4 KiB, the last
 * one carrying the signal, which the host sets after the data. */
__device__ void shoal_dev_put_signal(void *dest, const void *src, size_t bytes,
                                     uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                     const char *routine)
{
    unsigned long long *sig = signal_target(sig_addr, sig_op, pe, routine);
    char *p = bytes > 0 ? route(dest, bytes, pe, SHOAL_DEV_ERR_DEST, 0, routine) : NULL;

    if (bytes > 0 && p == NULL) {
        shoal_dev_proxy_put(dest, src, bytes, pe, sig_addr, signal, sig_op);
        return;
    }
    if (bytes > 0)
        shoal_dev_copy(p, src, bytes);
    __threadfence_system();
    signal_update(sig, sig_addr, signal, sig_op, pe);
}

extern "C" {

/* The signal update alone (NVSHMEM's extension): ordered after nothing, like
 * shmemx_signal_set and _add; the caller fences first where it must. */
__device__ void nvshmemx_signal_op(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    signal_update(signal_target(sig_addr, sig_op, pe, "nvshmemx_signal_op"), sig_addr, signal,
                  sig_op, pe);
}

__device__ uint64_t nvshmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    static const char routine[] = "nvshmem_signal_wait_until";
    shoal_wait_set_t set = {sig_addr, 1, sizeof(*sig_addr), 0, NULL, cmp, &cmp_value, 0};
    uint64_t *p = signal_addr(sig_addr, routine);

    shoal_dev_sync(&set, SHOAL_SEL_ONE, 1, NULL, routine);
    return shoal_wait_load_ivar(p, sizeof(*p), 0);
}

__device__ uint64_t nvshmem_signal_fetch(const uint64_t *sig_addr)
{
    return shoal_wait_load_ivar(signal_addr((uint64_t *)sig_addr, "nvshmem_signal_fetch"),
                                sizeof(*sig_addr), 0);
}

/* The names that are both host and device routines: the host half is the
 * shmem_ routine (through gpu/host), the device half reads the device state. */
__host__ __device__ int nvshmem_my_pe(void)
{
#ifdef DEVICE_HALF
    return shoal_dev_state.my_pe;
#else
    return shoal_gpu_my_pe();
#endif
}

__host__ __device__ int nvshmem_n_pes(void)
{
#ifdef DEVICE_HALF
    return shoal_dev_state.n_pes;
#else
    return shoal_gpu_n_pes();
#endif
}

__host__ __device__ void *nvshmem_ptr(const void *ptr, int pe)
{
#ifdef DEVICE_HALF
    if ((unsigned)pe >= (unsigned)shoal_dev_state.n_pes)
        shoal_dev_fail("nvshmem_ptr", SHOAL_DEV_ERR_PE_RANGE, pe);
    return shoal_dev_ptr(ptr, pe);
#else
    return shoal_gpu_ptr(ptr, pe);
#endif
}

/* On the device both order and complete every store and atomic of this thread
 * system-wide: mapped heaps are reached by plain stores, which complete when the
 * fence does, and what the host proxy carries completes with its quiet (a no-op
 * while nothing went through it since the last). */
__host__ __device__ void nvshmem_fence(void)
{
#ifdef DEVICE_HALF
    __threadfence_system();
    shoal_dev_proxy_quiet();
#else
    shoal_gpu_fence();
#endif
}

__host__ __device__ void nvshmem_quiet(void)
{
#ifdef DEVICE_HALF
    __threadfence_system();
    shoal_dev_proxy_quiet();
#else
    shoal_gpu_quiet();
#endif
}

} /* extern "C" */
