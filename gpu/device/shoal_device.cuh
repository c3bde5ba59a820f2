/* The untyped device engine: what the generated nvshmem_* device wrappers
 * (gpu/device/gen/) call, one call each. Like shmem/core it speaks in bytes,
 * byte counts and op enums and never names a C type. Implemented in
 * gpu/device/device.cu (relocatable device code, linked with nvcc -rdc=true). */
#ifndef SHOAL_DEVICE_CUH
#define SHOAL_DEVICE_CUH

#include <stddef.h>
#include <stdint.h>

#include "shoal_wait.h"      /* shoal_wait_set_t, shoal_sel_t, SHOAL_CMP_*: host and device */
#include "shoal_symm.h"      /* shoal_amo_op_t */

/* Wait (block != 0) or test on a set of ivars in the symmetric heap, with the
 * selection sel. Returns what the host core shoal_core_sync returns for the same
 * arguments: for _any the index found or SIZE_MAX, for _some the count written to
 * indices, for test/test_all 1 when satisfied, 0 otherwise. Polls with
 * system-scope acquire loads (shoal_wait_load_ivar) and backs off with __nanosleep.
 * A cmp that is not a SHOAL_CMP_* value, or ivars outside the heap, is a device
 * error (shoal_dev_fail). */
__device__ size_t shoal_dev_sync(const shoal_wait_set_t *set, shoal_sel_t sel, int block,
                                 size_t *indices, const char *routine);

/* The address of (addr on PE pe) that this GPU can load and store, or NULL when
 * pe's heap is not mapped here (another node, or SHOAL_TRANSPORT=ucx). */
__device__ void *shoal_dev_ptr(const void *addr, int pe);

/* Copies between this PE's memory and PE pe's heap through shoal_dev_ptr; a PE it
 * cannot reach is a device error naming routine, the PE and the reason. */
__device__ void shoal_dev_put(void *dest, const void *src, size_t bytes, int pe,
                              const char *routine);
__device__ void shoal_dev_get(void *dest, const void *src, size_t bytes, int pe,
                              const char *routine);

/* The same, shared by the threads of a block (warp 0) or of the calling thread's
 * warp (warp 1), which all call it with the same arguments; returns once the
 * group's whole copy is done. */
__device__ void shoal_dev_put_group(void *dest, const void *src, size_t bytes, int pe, int warp,
                                    const char *routine);
__device__ void shoal_dev_get_group(void *dest, const void *src, size_t bytes, int pe, int warp,
                                    const char *routine);

/* Put with signal: the copy (as shoal_dev_put), a system fence, then the signal's
 * atomic on PE pe's sig_addr, a set or an add as sig_op (NVSHMEM_SIGNAL_SET or
 * _ADD) says. Every argument is checked before anything is written. */
__device__ void shoal_dev_put_signal(void *dest, const void *src, size_t bytes,
                                     uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                     const char *routine);

/* op on the size-byte (4 or 8) value at dest on PE pe, system scope: operand and
 * compare as op needs, fetch (NULL for none) receives the old value. */
__device__ void shoal_dev_amo(shoal_amo_op_t op, void *dest, const void *operand,
                              const void *compare, void *fetch, size_t size, int pe,
                              const char *routine);

/* The native system-scope atomic op on the size-byte (4 or 8) word at p, an
 * address this GPU reaches (no check, no route); returns the old value. The
 * host's atomics on the GPU heap run it in a one-thread kernel (gheap_ops.cu),
 * so that they are this GPU's atomics, as a kernel's are. */
__device__ uint64_t shoal_dev_amo_at(shoal_amo_op_t op, void *p, uint64_t operand, uint64_t compare,
                                     size_t size, const char *routine);

/* The calling thread's rank in its group, a block (warp 0) or its warp (warp 1),
 * and the group's size in *n; the group's threads wait for each other in sync. */
__device__ unsigned shoal_dev_group_rank(int warp, unsigned *n);
__device__ void shoal_dev_group_sync(int warp, unsigned n);

/* The halves of a routine that is host and device (the collectives NVSHMEM has
 * on both sides, gpu/device/gen/coll.cu): nvcc compiles the device half in its
 * device pass and the host half in its host pass; the CPU engine has both and
 * takes the device half where SHOAL_HD_ON_DEVICE() (a kernel thread). */
#if defined(__CUDA_ARCH__)
#define SHOAL_HD_DEVICE_HALF 1
#define SHOAL_HD_ON_DEVICE() 1
#elif defined(SHOAL_DEV_ON_CPU)
#define SHOAL_HD_DEVICE_HALF 1
#define SHOAL_HD_HOST_HALF 1
#define SHOAL_HD_ON_DEVICE() shoal_dev_cpu_in_kernel()
#else
#define SHOAL_HD_HOST_HALF 1
#endif

/* Who calls a collective: one thread (SHOAL_DEV_THREAD), or every thread of a
 * block or of a warp, with the same arguments (the warp argument of the group
 * routines above). */
#define SHOAL_DEV_THREAD (-1)
#define SHOAL_DEV_BLOCK 0
#define SHOAL_DEV_WARP 1

/* team.cu: team's entry (a device error naming routine where team names no
 * team, or, with strided set, one whose members are not evenly spaced), and the
 * barrier among its members: fence orders and completes this PE's earlier stores
 * first (nvshmem_barrier), without it only the rendezvous (nvshmem_team_sync).
 * One thread of each member calls it. */
struct shoal_dev_team;
__device__ const struct shoal_dev_team *shoal_dev_team_get(int team, int strided,
                                                           const char *routine);
__device__ void shoal_dev_barrier(int team, int fence, const char *routine);

/* coll.cu: the team collectives, called by who (SHOAL_DEV_THREAD, _BLOCK or
 * _WARP) on every member of team, on nelems elements of elem bytes (1 for the
 * byte forms); broadcast, fcollect and alltoall move nelems per PE, as NVSHMEM
 * counts them. Each returns once this PE's dest is complete and every member is
 * done with this PE's source. Checked: team, root, the byte counts, and each
 * address on the PE it is read from. op is a shoal_red_op_t, dt a shoal_dt_t
 * (shoal_red.h). They return 0, as NVSHMEM's do. */
__device__ int shoal_dev_broadcast(int team, void *dest, const void *src, size_t nelems,
                                   size_t elem, int root, int who, const char *routine);
__device__ int shoal_dev_fcollect(int team, void *dest, const void *src, size_t nelems, size_t elem,
                                  int who, const char *routine);
__device__ int shoal_dev_alltoall(int team, void *dest, const void *src, size_t nelems, size_t elem,
                                  int who, const char *routine);
__device__ int shoal_dev_reduce(int team, void *dest, const void *src, size_t nreduce, size_t elem,
                                int op, int dt, int who, const char *routine);

/* A copy in the widest words both ends and the length allow (device.cu). */
__device__ void shoal_dev_copy(void *dest, const void *src, size_t bytes);

/* Polling back-off: the first poll is immediate, then sleeps that double from
 * SHOAL_DEV_BACKOFF_MIN_NS to _MAX_NS (about one load from host memory over
 * PCIe), so a waiting warp leaves the SM to others without adding much latency. */
#define SHOAL_DEV_BACKOFF_MIN_NS 32
#define SHOAL_DEV_BACKOFF_MAX_NS 1024
static inline __device__ void shoal_dev_backoff(unsigned *ns)
{
    *ns = *ns == 0 ? SHOAL_DEV_BACKOFF_MIN_NS
                   : (*ns < SHOAL_DEV_BACKOFF_MAX_NS ? *ns * 2 : SHOAL_DEV_BACKOFF_MAX_NS);
    __nanosleep(*ns);
}

/* The back-off of a wait for the host proxy's reply, a word (last read as seen)
 * that only the proxy's thread writes: shoal_dev_backoff on a GPU; on the CPU
 * engine the kernel thread sleeps until that thread's store wakes it
 * (shoal_dev_port.h: shoal_dev_cpu_park; the waker: shoal_proxy.h's shoal_proxy_wake). */
static inline __device__ void shoal_dev_backoff_reply(const volatile uint64_t *word, uint64_t seen,
                                                      unsigned *ns)
{
#ifdef SHOAL_DEV_ON_CPU
    (void)ns;
    shoal_dev_cpu_park(word, seen, 1000000);
#else
    (void)word;
    (void)seen;
    shoal_dev_backoff(ns);
#endif
}

/* The host proxy's producers (proxy.cu), for what device.cu routes to it: the
 * arguments are checked already, addresses are the user's (host view of the
 * heap). put returns once src may be reused (copied into the ring); with sig_op
 * >= 0 the last piece is a put with signal. get and a fetching amo (fetch not
 * NULL) wait for the host. quiet returns once every request taken before it is
 * complete at its target, at once when none is outstanding. */
__device__ void shoal_dev_proxy_put(void *dest, const void *src, size_t bytes, int pe,
                                    uint64_t *sig_addr, uint64_t signal, int sig_op);
__device__ void shoal_dev_proxy_get(void *dest, const void *src, size_t bytes, int pe);
__device__ void shoal_dev_proxy_amo(shoal_amo_op_t op, void *dest, uint64_t operand,
                                    uint64_t compare, void *fetch, size_t size, int pe);
__device__ void shoal_dev_proxy_quiet(void);

/* Records a device error where the host can read it (routine, the PE, a code and
 * a value), makes it visible system-wide, and traps. The host prints it as one
 * line at the next nvshmem_* host call or when the kernel's failure is seen. */
__device__ void shoal_dev_fail(const char *routine, int code, long long value);

#endif
