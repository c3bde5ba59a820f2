/* The CUDA primitives the device engine uses, as host code: with this header
 * force-included (g++ -include), gpu/device builds a second time as the CPU engine
 * (tests/gpu-cpu), where a kernel is a thread of the PE and "device" memory is the
 * PE's own memory. It must need no CUDA header and never be seen by nvcc. */
#ifndef SHOAL_DEV_PORT_H
#define SHOAL_DEV_PORT_H

#ifdef __CUDACC__
#error "shoal_dev_port.h is the CPU build of the device engine; nvcc has the real primitives"
#endif
#ifndef __cplusplus
#error "the device engine is C++ (templates): build it with a C++ compiler"
#endif

/* Selects the device halves of device.cu and the device declarations of
 * nvshmem.h, nvshmem_typed.h and shoal_dev_state.h. */
#define SHOAL_DEV_ON_CPU 1

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "shoal_futex.h" /* shmem/util: shoal_dev_cpu_park and _wake */

/* Every function is a host function. __noinline__ is empty, not
 * __attribute__((noinline)): glibc and libstdc++ spell that attribute
 * __attribute__((__noinline__)), which must still parse. */
#define __host__
#define __device__
#define __global__
#define __noinline__

/* threadIdx, blockIdx, blockDim and gridDim: one set per kernel thread, which the
 * launcher (tests/gpu-cpu/dev_cpu.cc) fills in before it runs the kernel. */
typedef struct shoal_dev_dim {
    unsigned x, y, z;
} shoal_dev_dim_t;
extern thread_local shoal_dev_dim_t threadIdx, blockIdx, blockDim, gridDim;

/* atomic*_system: CUDA's are relaxed read-modify-writes that the CPU and the
 * peers see; so are these (a locked instruction on x86). Ordering comes from
 * __threadfence_system, as on the GPU. T is unsigned or unsigned long long. */
template <typename T> static inline T atomicExch_system(T *p, T v)
{
    return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}

template <typename T> static inline T atomicCAS_system(T *p, T compare, T v)
{
    __atomic_compare_exchange_n(p, &compare, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return compare; /* the old value, whether or not it was swapped */
}

template <typename T> static inline T atomicAdd_system(T *p, T v)
{
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

template <typename T> static inline T atomicAnd_system(T *p, T v)
{
    return __atomic_fetch_and(p, v, __ATOMIC_RELAXED);
}

template <typename T> static inline T atomicOr_system(T *p, T v)
{
    return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
}

template <typename T> static inline T atomicXor_system(T *p, T v)
{
    return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);
}

/* Device scope (the engine's own words in device memory): on a CPU, the same. */
template <typename T> static inline T atomicCAS(T *p, T compare, T v)
{
    return atomicCAS_system(p, compare, v);
}

template <typename T> static inline T atomicAdd(T *p, T v)
{
    return atomicAdd_system(p, v);
}

/* fence.sc.sys: every earlier load and store before every later one, for all. */
static inline void __threadfence_system(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Sleeps at least ns. Cost: a system call, and in practice the timer slack
 * (about 50 us), not ns: the CPU engine checks behaviour, never timing. Not a
 * sched_yield for the back-off's short sleeps, though yields are cheaper where
 * the other runnable threads are PEs that wait too (tools/run-tests.sh: 267 s
 * and 527 s of CPU against 362 s and 714): beside busy processes each yield
 * handed them a whole time slice, so a wait's turns took milliseconds (gpu_team,
 * 4 PEs on 2 simulated nodes beside 3 busy loops: 3 s with nanosleep, killed at
 * 120 s with yields, as in CI). Yielding until one yield outlasts a sleep was
 * slower than either (gpu_coll, 2 PEs over UCX, alone: 24 s against 5). */
static inline void __nanosleep(unsigned ns)
{
    struct timespec ts = {0, (long)ns};

    nanosleep(&ts, NULL);
}

/* A wait for a word of the host proxy's ring that the other side writes and
 * then wakes (shoal_dev_cpu_wake): a kernel thread's for the reply to its
 * request, the proxy's thread's, while idle, for the next request. The thread
 * sleeps in the kernel while the word's low half (the half a futex reads on a
 * little-endian CPU) still holds seen's, for ns (below 1 s) at most, so a wake
 * missed (the value's low half wrapped round) costs only that. Polled with
 * __nanosleep, tens of kernel threads waiting for their gets took the CPUs
 * from the one thread that answers them, each nap a context switch (gpu_coll,
 * 2 PEs over UCX: 27 s, 41 s of it system time, alone). */
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "a futex on a word's low half");
static inline void shoal_dev_cpu_park(const volatile uint64_t *word, uint64_t seen, long ns)
{
    struct timespec ts = {0, ns};

    shoal_futex_wait((const void *)word, (uint32_t)seen, &ts, 0);
}

/* Wakes every thread parked on the word: the proxy's thread after each reply
 * it writes, a kernel thread after each request it posts. A system call even
 * when none waits (about 1 us, against the get or atomic over UCX that the
 * request makes). */
static inline void shoal_dev_cpu_wake(const volatile uint64_t *word)
{
    shoal_futex_wake_all((const void *)word, 0);
}

/* A block is blockDim threads of the PE and a warp each 32 of them in rank order
 * (fewer in a block's last warp), as on the GPU. __syncthreads and __syncwarp
 * wait for the block's, or the warp's, threads at a pthread barrier the launcher
 * made for it (tests/gpu-cpu/dev_cpu.cc), which also orders their memory. The
 * mask is not looked at: NVSHMEM's _warp routines need the whole warp. */
static const int warpSize = 32;
void shoal_dev_cpu_syncthreads(void);
void shoal_dev_cpu_syncwarp(void);
#define __syncthreads() shoal_dev_cpu_syncthreads()
#define __syncwarp(mask) ((void)(mask), shoal_dev_cpu_syncwarp())

/* The trap after a device error (shoal_dev_fail has written the record): the
 * host's check reports it as the usual one line and ends the job, from this
 * thread. Defined by the CPU engine's host side. */
[[noreturn]] void shoal_dev_cpu_trap(void);
#define __trap() shoal_dev_cpu_trap()

/* shoal_wait.h needs nothing here: without __CUDA_ARCH__ its ivar loads are
 * already __atomic_load_n(..., __ATOMIC_ACQUIRE), the CPU's ld.acquire.sys. */

#endif
