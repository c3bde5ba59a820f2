/* The host side of the GPU library: its state and what its files share. Internal
 * (never installed). The only way into libshoal is the environment that shmem_init
 * hands over (shoal_gpu_hook.h) and the public shmem_* API. */
#ifndef SHOAL_GPU_H
#define SHOAL_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "shoal_dev_host.h" /* the host halves of the device files' routines */
#include "shoal_dev_state.h"
#include "shoal_proxy.h"
#include "shoal_gpu_hook.h"
#include "shmem.h" /* shmem_team_t */
#include "nvshmem.h"

typedef struct shoal_gpu {
    const shoal_gpu_env_t *env; /* NULL before shmem_init and after finalize */
    int active;                 /* a GPU is set up: the heaps are registered with it */
    int device;
    shoal_dev_state_t state;    /* what the __device__ copy holds */
    char **peer_heap;           /* the device table, as the host keeps it (n_pes) */
    void **registered;          /* the host mappings registered with the GPU (n_pes) */
    char **table_dev;           /* the device table's device memory */
    shoal_dev_status_t *status; /* the status block, at its host address */
    char why[160];              /* why there is no GPU, when active is 0 */
    shoal_proxy_ring_t *ring;   /* the host proxy's ring at its host address, or NULL */
    /* team_table.cu: each team slot's host team (NULL: none, or a team of one), and
     * the two words after the slots that a split's choice of slot reduces. */
    shmem_team_t team_handle[SHOAL_DEV_TEAMS_MAX];
    uint64_t *slot_words;
} shoal_gpu_t;

extern shoal_gpu_t shoal_gpu;

/* status.cu: the device error record turned into the user's line. Writes the
 * line (without the [host:pid:pe] prefix) into buf; returns its length. Pure:
 * it reads only its arguments. */
size_t shoal_gpu_status_format(const shoal_dev_status_t *st, uintptr_t heap_base, size_t heap_size,
                               int n_pes, char *buf, size_t len);
/* Ends the job with that line when this GPU recorded an error; else returns. */
void shoal_gpu_check(void);
/* A thread that runs shoal_gpu_check every few milliseconds, so an error is
 * reported even while the host waits in a CUDA call or a shmem_ wait. */
void shoal_gpu_monitor_start(void);
void shoal_gpu_monitor_stop(void);

/* proxy_thread.cu: the host proxy (shoal_proxy.h). plan decides from SHOAL_GPU_PROXY,
 * the table of mapped heaps (NULL: not mapped) and the GPU's atomics whether
 * this PE needs one, sets state's proxy_all and proxy_amo, and says so in what
 * (for SHMEM_INFO). start clears ring (at its host
 * address), which must stay mapped until stop, and starts the thread on a
 * context of its own; it needs shmem_init's heap and runs from the init hook.
 * drain returns once every request posted before the call is complete at its
 * target (a no-op without a proxy); stop ends the thread. check_and_drain is the
 * hooks' check: a device error's line, else the drain. */
int shoal_gpu_proxy_plan(const shoal_gpu_env_t *env, char *const *table, int native_atomics,
                         shoal_dev_state_t *state, char *what, size_t len);
void shoal_gpu_proxy_start(shoal_proxy_ring_t *ring);
void shoal_gpu_proxy_drain(void);
void shoal_gpu_proxy_stop(void);
void shoal_gpu_check_and_drain(void);

/* Registers the hooks libshoal calls (shoal_gpu_hook.h) from a constructor:
 * init and finalize are the backend's own (init.cu for a GPU, the CPU engine's
 * dev_cpu.cc), the check and the GPU heap's entries are the same for both; coll
 * is shoal_gpu_gheap_coll (a weak reference in the CPU engine, NULL where the
 * program does not link the host routines' library). Once per program. */
#define SHOAL_GPU_REGISTER_HOOKS(init, finalize, coll)                                             \
    static const shoal_gpu_hooks_t shoal_gpu_hooks_table = {                                       \
        init,                                                                                      \
        shoal_gpu_check_and_drain,                                                                 \
        finalize,                                                                                  \
        shoal_gpu_gheap_owns,                                                                      \
        shoal_gpu_gheap_rma,                                                                       \
        shoal_gpu_gheap_amo,                                                                       \
        shoal_gpu_gheap_sync,                                                                      \
        coll,                                                                                      \
        &shoal_gpu_gheap_range,                                                                    \
    };                                                                                             \
    __attribute__((constructor)) static void shoal_gpu_register_hooks(void)                        \
    {                                                                                              \
        shoal_gpu_hooks_set(&shoal_gpu_hooks_table);                                               \
    }

/* stream.cu: the checks of the routines that enqueue on a stream, each one line
 * and the end of the job. stream_env: shmem_init done, no device error pending,
 * a GPU set up; returns the env. check_heap: [addr, addr + len) in the symmetric
 * heap and addr aligned to align (arg names the argument). check_enqueued: the
 * launch just made was accepted. */
const shoal_gpu_env_t *shoal_gpu_stream_env(const char *routine);
void shoal_gpu_check_heap(const shoal_gpu_env_t *env, const void *addr, size_t len, size_t align,
                          const char *arg, const char *routine);
void shoal_gpu_check_enqueued(const shoal_gpu_env_t *env, const char *routine);

/* gheap.cu: the GPU symmetric heap. setup is collective (every PE's init calls
 * it, with a GPU or without; have_gpu: this PE has one), allocates this PE's
 * heap, maps the same-node peers' by CUDA IPC and fills state's gheap_*; it
 * says what it did in what. cleanup undoes it (at finalize). gheap_ptr: whether
 * ptr is in this PE's GPU heap (*in_out), and then PE pe's as mapped here (NULL
 * where it is not; pe is checked). alloc and free are the collective routines
 * behind nvshmem_malloc, _calloc (clear), _align and _free, with their checks
 * and lines naming routine; active: there is a GPU heap to allocate from. */
#define SHOAL_GPU_MIN_ALIGN 64 /* SHOAL_HEAP_MIN_ALIGN, as for shmem_malloc */
void shoal_gpu_gheap_setup(const shoal_gpu_env_t *env, int have_gpu, char *what, size_t len);
void shoal_gpu_gheap_cleanup(void);
void *shoal_gpu_gheap_ptr(const void *ptr, int pe, int *in_out);
int shoal_gpu_gheap_active(void);
void *shoal_gpu_gheap_alloc(size_t size, size_t align, int clear, const char *routine);
void shoal_gpu_gheap_free(void *ptr, const char *routine);

/* gheap.cu: peer is PE pe's GPU heap as mapped here (this PE's own, or a
 * same-node peer's by CUDA IPC), NULL where it is not or there is no GPU heap;
 * unmapped counts the PEs whose GPU heap is not mapped here (0 without one). */
char *shoal_gpu_gheap_peer(int pe);
/* This PE's GPU heap's range, for the hooks' gheap_range (size 0: none). */
extern shoal_gpu_range_t shoal_gpu_gheap_range;
int shoal_gpu_gheap_unmapped(void);

/* gheap_ops.cu: the host routines on GPU-heap addresses, the hooks' gheap_owns,
 * _rma, _amo and _sync (shoal_gpu_hook.h). copy and atomic are this GPU's, on a stream
 * of their own, complete on return (routine names them in an error's line);
 * setup (at init, with a GPU heap) and cleanup make and free that stream. */
void shoal_gpu_gheap_ops_setup(const shoal_gpu_env_t *env);
void shoal_gpu_gheap_ops_cleanup(void);
void shoal_gpu_gheap_copy(void *dest, const void *src, size_t bytes, const char *routine);
uint64_t shoal_gpu_gheap_atomic(int op, void *p, uint64_t operand, uint64_t compare, size_t size,
                                const char *routine);
int shoal_gpu_gheap_owns(const void *addr);
void shoal_gpu_gheap_rma(int put, void *dest, const void *source, size_t bytes, int pe,
                         const char *routine);
void shoal_gpu_gheap_amo(int op, void *dest, const void *operand, const void *compare, void *fetch,
                         size_t size, int pe, const char *routine);
size_t shoal_gpu_gheap_sync(const shoal_wait_set_t *set, int sel, int block, size_t *indices,
                            const char *routine);

/* gheap_remote.cu: GPU heaps not mapped here, through their PE's host proxy.
 * setup is collective (the request and reply slots in the host heap; the
 * rest only where this PE has a GPU, have_gpu); start
 * lets this PE serve requests (its GPU heap exists); serve applies what peers
 * posted (any thread; returns how many, 0 while another thread serves); rma
 * and amo send one request per piece and return once pe has answered, off the
 * offset in the GPU heap, local this PE's side of the copy. */
void shoal_gpu_gheap_remote_setup(const shoal_gpu_env_t *env, int have_gpu);
void shoal_gpu_gheap_remote_start(void);
void shoal_gpu_gheap_remote_cleanup(void);
int shoal_gpu_gheap_serve(void);
void shoal_gpu_gheap_remote_rma(int put, size_t off, void *local, size_t bytes, int pe,
                                const char *routine);
uint64_t shoal_gpu_gheap_remote_amo(int op, size_t off, uint64_t operand, uint64_t compare,
                                    size_t size, int pe, const char *routine);

/* api.cu: ends the program with one line when routine runs before shmem_init. */
void shoal_gpu_need_init(const char *routine);
/* team_table.cu. setup is collective (every PE's init, GPU or not, before
 * anything else can fail): it reserves the team slots' symmetric words
 * (state.psync) and fills the predefined teams' entries, the shared team as this
 * PE alone; shared then describes the shared team from the table of mapped heaps
 * (NULL: not mapped). register gives host team h, which a split just made with
 * this PE in it, a slot (collective on h: the same slot on every member) and
 * returns it, or -1 on every member alike when none is free; forget frees a
 * slot. Both copy the slot's entry to the device. */
void shoal_gpu_teams_setup(const shoal_gpu_env_t *env);
void shoal_gpu_teams_shared(char *const *table);
int shoal_gpu_team_register(shmem_team_t h);
void shoal_gpu_team_forget(int slot);
/* The device slot whose host team is h (NVSHMEM_TEAM_WORLD for
 * SHMEM_TEAM_WORLD), -1 where h has no device twin. */
int shoal_gpu_team_slot_of(shmem_team_t h);

#endif
