/* Collective entry points: the team forms the typed wrappers call, the untyped
 * (mem, 32, 64) forms, and the deprecated active-set forms. Each checks its
 * arguments, turns the team or active set into a PE set, and calls the core. */
#include "shoal_api.h"
#include "shoal_check.h"
#include "shoal_profile.h"

/* pSync at its first use. The spec has every element SHMEM_SYNC_VALUE before
 * the first use, and the routines leave it so. Its counters (the first
 * SHOAL_SYNC_FLAGS) may already hold tokens from PEs of the set that entered
 * first, but no more than size - 1: each other PE sends a counter at most one
 * token before this PE joins in (the flat barrier counts its arrivals on one),
 * and no PE leaves a collective before every PE has entered it. Only this PE
 * writes its scratch words, and it zeroes them before it leaves. Any other
 * value (an uninitialized pSync, a hard-coded -1) would end the collective early
 * or hang it: say so, naming the first such element.
 * Reading all 72 words costs 30-60 ns here, a third of a 2-PE barrier, so only a
 * pSync's first use pays it: this thread remembers the last few it checked,
 * until a shmem_free or shmem_realloc may have put a new array at the same
 * address. A later call gets what the last one left, and the token waits
 * check every count they read (coll_token.c). Cost then: a few compares. */
_Static_assert(SHMEM_SYNC_SIZE == SHOAL_SYNC_FLAGS + SHOAL_SYNC_SCRATCH,
               "pSync holds the counters and the scratch words");
#define PSYNC_SEEN 4
static __thread struct {
    const long *psync;
    unsigned releases; /* the heap's count when it was checked */
} psync_seen[PSYNC_SEEN];
static __thread unsigned psync_next;

static void check_psync(const long *pSync, int size, const char *routine)
{
    const uint64_t *w = (const uint64_t *)pSync;
    unsigned releases = __atomic_load_n(&shoal_core_heap()->releases, __ATOMIC_RELAXED);
    int i;

    for (i = 0; i < PSYNC_SEEN; i++)
        if (psync_seen[i].psync == pSync && psync_seen[i].releases == releases)
            return;
    for (i = 0; i < SHMEM_SYNC_SIZE; i++) {
        uint64_t v = __atomic_load_n(&w[i], __ATOMIC_RELAXED);

        if (__builtin_expect(v > (i < SHOAL_SYNC_FLAGS ? (uint64_t)size - 1 : 0), 0))
            shoal_log_fatal("%s: argument pSync[%d] is %#llx on entry, expected SHMEM_SYNC_VALUE "
                            "(%ld); set every element of pSync to SHMEM_SYNC_VALUE on every PE "
                            "of the active set, then synchronize (shmem_barrier_all), before "
                            "its first use",
                            routine, i, (unsigned long long)v, SHMEM_SYNC_VALUE);
    }
    psync_seen[psync_next].psync = pSync;
    psync_seen[psync_next].releases = releases;
    psync_next = (psync_next + 1) % PSYNC_SEEN;
}

/* An active set as a PE set whose counters live in pSync. */
static void active_set(shoal_pset_t *ps, int start, int log_stride, int size, long *pSync,
                       const char *routine)
{
    int stride, last;

    shoal_check_init(routine);
    if (log_stride < 0 || log_stride > 30)
        shoal_log_fatal("%s: argument logPE_stride is %d, expected 0..30", routine, log_stride);
    stride = 1 << log_stride;
    if (size < 1 || start < 0 || start >= shoal_core_n_pes() ||
        (size - 1) > (shoal_core_n_pes() - 1 - start) / stride)
        shoal_log_fatal("%s: the active set PE_start %d, logPE_stride %d, PE_size %d does not fit "
                        "in PEs 0..%d",
                        routine, start, log_stride, size, shoal_core_n_pes() - 1);
    last = shoal_core_my_pe() - start;
    if (last < 0 || last % stride != 0 || last / stride >= size)
        shoal_log_fatal(
            "%s: PE %d is not in the active set PE_start %d, logPE_stride %d, PE_size %d", routine,
            shoal_core_my_pe(), start, log_stride, size);
    *ps = (shoal_pset_t){.size = size,
                         .me = last / stride,
                         .start = start,
                         .stride = stride,
                         .sync_stride = sizeof(long)};
    ps->sync_seg = shoal_check_symmetric(pSync, SHMEM_SYNC_SIZE * sizeof(long), routine, "pSync",
                                         &ps->sync_off);
    shoal_check_aligned(pSync, sizeof(long), routine, "pSync");
    check_psync(pSync, size, routine);
}

static int sym(const void *addr, size_t bytes, const char *routine, const char *arg, size_t *off)
{
    if (bytes == 0) {
        *off = 0;
        return SHOAL_SEG_HEAP;
    }
    return shoal_check_symmetric(addr, bytes, routine, arg, off);
}

/* SHOAL_CHECK_COLL: the n named values, then (with bytes to move) dest and
 * source, which every member must pass as the same symmetric objects. */
static void check_args(const shoal_pset_t *ps, const char *routine, const uint64_t *vals,
                       const char *const *names, int n, size_t bytes, int dseg, size_t doff,
                       int sseg, size_t soff)
{
    uint64_t v[SHOAL_CHECK_VALS];
    const char *nm[SHOAL_CHECK_VALS];
    int i;

    if (!shoal_core_settings()->check_coll)
        return;
    for (i = 0; i < n; i++) {
        v[i] = vals[i];
        nm[i] = names[i];
    }
    if (bytes > 0) {
        v[n] = shoal_coll_check_object(dseg, doff);
        nm[n] = "dest";
        v[n + 1] = shoal_coll_check_object(sseg, soff);
        nm[n + 1] = "source";
    }
    shoal_coll_check(ps, routine, v, nm, bytes > 0 ? n + 2 : n, bytes > 0 ? 3u << n : 0u);
}

static void broadcast(const shoal_pset_t *ps, void *dest, const void *source, size_t nelems,
                      size_t elem_size, int root, int root_too, const char *routine)
{
    static const char *const names[] = {"nelems", "PE_root"};
    size_t bytes = shoal_check_bytes(nelems, elem_size, routine), doff, soff;
    int dseg, sseg;

    if (root < 0 || root >= ps->size)
        shoal_log_fatal("%s: argument PE_root is %d, valid range 0..%d", routine, root,
                        ps->size - 1);
    dseg = sym(dest, bytes, routine, "dest", &doff);
    sseg = sym(source, bytes, routine, "source", &soff);
    check_args(ps, routine, (const uint64_t[]){nelems, (uint64_t)root}, names, 2, bytes, dseg, doff,
               sseg, soff);
    shoal_coll_broadcast(ps, dseg, doff, sseg, soff, bytes, root, root_too, routine);
}

static void collect(const shoal_pset_t *ps, void *dest, const void *source, size_t nelems,
                    size_t elem_size, int fixed, const char *routine)
{
    static const char *const names[] = {"nelems"};
    size_t bytes = shoal_check_bytes(nelems, elem_size, routine), doff, soff;
    size_t all = fixed ? shoal_check_bytes_pes(nelems, elem_size, ps->size, routine) : 0;
    int dseg, sseg;

    /* collect: only the start of dest is known here; the PEs' sizes say the rest.
     * A PE that brings nothing may pass a null dest, as the spec's annex allows
     * (NULL with a zero length): if others bring something, its dest was wrong. */
    dseg = sym(dest, fixed ? all : dest == NULL && bytes == 0 ? 0 : 1, routine, "dest", &doff);
    sseg = sym(source, bytes, routine, "source", &soff);
    /* collect: a PE that brings nothing may pass anything, so the objects are
     * compared only in fcollect. */
    if (fixed)
        check_args(ps, routine, (const uint64_t[]){nelems}, names, 1, bytes, dseg, doff, sseg,
                   soff);
    else
        check_args(ps, routine, NULL, NULL, 0, 0, 0, 0, 0, 0);
    shoal_coll_collect(ps, dseg, doff, sseg, soff, bytes, fixed, routine);
}

/* The bytes an alltoalls buffer spans: npes blocks of nelems elements, stride
 * elements apart, from the first element to the end of the last. */
static size_t alltoall_span(size_t nelems, int npes, ptrdiff_t stride, size_t elem_size,
                            const char *routine, const char *arg)
{
    size_t n = nelems * (size_t)npes, span; /* shoal_check_bytes_pes checked it */

    if (n == 0)
        return 0;
    if (__builtin_mul_overflow(n - 1, (size_t)stride, &span) ||
        __builtin_add_overflow(span, 1, &span) || __builtin_mul_overflow(span, elem_size, &span))
        shoal_log_fatal("%s: arguments nelems (%zu) and %s (%td) span more than size_t bytes: "
                        "%zu-byte elements from each of %d PEs",
                        routine, nelems, arg, stride, elem_size, npes);
    return span;
}

static void alltoalls(const shoal_pset_t *ps, void *dest, const void *source, ptrdiff_t dst,
                      ptrdiff_t sst, size_t nelems, size_t elem_size, const char *routine)
{
    static const char *const names[] = {"nelems", "dst", "sst"};
    size_t dspan, sspan, doff, soff;
    int dseg, sseg;

    if (dst < 1 || sst < 1)
        shoal_log_fatal("%s: argument %s is %td, expected a stride of at least 1 element", routine,
                        dst < 1 ? "dst" : "sst", dst < 1 ? dst : sst);
    shoal_check_bytes_pes(nelems, elem_size, ps->size, routine);
    dspan = alltoall_span(nelems, ps->size, dst, elem_size, routine, "dst");
    sspan = alltoall_span(nelems, ps->size, sst, elem_size, routine, "sst");
    dseg = sym(dest, dspan, routine, "dest", &doff);
    sseg = sym(source, sspan, routine, "source", &soff);
    check_args(ps, routine, (const uint64_t[]){nelems, (uint64_t)dst, (uint64_t)sst}, names, 3,
               dspan, dseg, doff, sseg, soff);
    shoal_coll_alltoalls(ps, dseg, doff, sseg, soff, dst, sst, nelems, elem_size, routine);
}

static void reduce(const shoal_pset_t *ps, void *dest, const void *source, size_t count,
                   shoal_red_op_t op, shoal_dt_t dt, size_t elem_size, const char *routine)
{
    static const char *const names[] = {"nreduce"};
    size_t bytes = shoal_check_bytes(count, elem_size, routine), doff, soff;
    int dseg = sym(dest, bytes, routine, "dest", &doff);
    int sseg = sym(source, bytes, routine, "source", &soff);

    check_args(ps, routine, (const uint64_t[]){count}, names, 1, bytes, dseg, doff, sseg, soff);
    shoal_coll_reduce(ps, dseg, doff, sseg, soff, count, op, dt, elem_size, routine);
}

/* A team collective with dest or source in this PE's GPU heap (nvshmem_malloc
 * memory, no segment of ours) is the GPU library's: it makes it with the
 * device collective of the team's device twin (gheap_coll). Returns 1 when it
 * did. */
static int coll_gheap(shmem_team_t team, int kind, void *dest, const void *source, size_t nelems,
                      size_t elem_size, int root, shoal_red_op_t op, shoal_dt_t dt,
                      const char *routine)
{
    const shoal_gpu_hooks_t *g = NULL;

    if (nelems > 0) {
        g = shoal_api_gheap(dest);
        if (g == NULL)
            g = shoal_api_gheap(source);
    }
    if (g == NULL)
        return 0;
    shoal_check_team(team, routine);
    shoal_check_bytes(nelems, elem_size, routine);
    if (g->gheap_coll == NULL)
        shoal_log_fatal("%s: a buffer is in the GPU symmetric heap, and the GPU library linked "
                        "makes no collectives there",
                        routine);
    g->gheap_coll(kind, team, dest, source, nelems, elem_size, root, op, dt, routine);
    return 1;
}

/* Team forms, for the typed wrappers. */
int shoal_api_broadcast(shmem_team_t team, void *dest, const void *source, size_t nelems,
                        size_t elem_size, int root, const char *routine)
{
    if (coll_gheap(team, SHOAL_GPU_COLL_BROADCAST, dest, source, nelems, elem_size, root, 0, 0,
                   routine))
        return 0;
    broadcast(shoal_check_team(team, routine), dest, source, nelems, elem_size, root, 1, routine);
    return 0;
}

int shoal_api_collect(shmem_team_t team, void *dest, const void *source, size_t nelems,
                      size_t elem_size, int fixed, const char *routine)
{
    if (fixed && coll_gheap(team, SHOAL_GPU_COLL_FCOLLECT, dest, source, nelems, elem_size, 0, 0, 0,
                            routine))
        return 0;
    collect(shoal_check_team(team, routine), dest, source, nelems, elem_size, fixed, routine);
    return 0;
}

int shoal_api_alltoall(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       size_t elem_size, const char *routine)
{
    if (coll_gheap(team, SHOAL_GPU_COLL_ALLTOALL, dest, source, nelems, elem_size, 0, 0, 0,
                   routine))
        return 0;
    alltoalls(shoal_check_team(team, routine), dest, source, 1, 1, nelems, elem_size, routine);
    return 0;
}

int shoal_api_alltoalls(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                        ptrdiff_t sst, size_t nelems, size_t elem_size, const char *routine)
{
    alltoalls(shoal_check_team(team, routine), dest, source, dst, sst, nelems, elem_size, routine);
    return 0;
}

int shoal_api_reduce(shmem_team_t team, void *dest, const void *source, size_t nreduce,
                     shoal_red_op_t op, shoal_dt_t dt, size_t elem_size, const char *routine)
{
    if (coll_gheap(team, SHOAL_GPU_COLL_REDUCE, dest, source, nreduce, elem_size, 0, op, dt,
                   routine))
        return 0;
    reduce(shoal_check_team(team, routine), dest, source, nreduce, op, dt, elem_size, routine);
    return 0;
}

int shoal_api_scan(shmem_team_t team, void *dest, const void *source, size_t nelems, int exclusive,
                   shoal_dt_t dt, size_t elem_size, const char *routine)
{
    static const char *const names[] = {"nelems"};
    const shoal_pset_t *ps = shoal_check_team(team, routine);
    size_t bytes = shoal_check_bytes(nelems, elem_size, routine), doff, soff;
    int dseg = sym(dest, bytes, routine, "dest", &doff);
    int sseg = sym(source, bytes, routine, "source", &soff);

    check_args(ps, routine, (const uint64_t[]){nelems}, names, 1, bytes, dseg, doff, sseg, soff);
    shoal_coll_scan(ps, dseg, doff, sseg, soff, nelems, exclusive, dt, elem_size, routine);
    return 0;
}

void shoal_api_reduce_to_all(void *dest, const void *source, int nreduce, int PE_start,
                             int logPE_stride, int PE_size, void *pWrk, long *pSync,
                             shoal_red_op_t op, shoal_dt_t dt, size_t elem_size,
                             const char *routine)
{
    shoal_pset_t ps;

    (void)pWrk;
    active_set(&ps, PE_start, logPE_stride, PE_size, pSync, routine);
    if (nreduce < 0)
        shoal_log_fatal("%s: argument nreduce is %d, expected 0 or more", routine, nreduce);
    reduce(&ps, dest, source, (size_t)nreduce, op, dt, elem_size, routine);
}

/* Untyped team forms: elements are bytes. */
int pshmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                        int PE_root)
{
    return shoal_api_broadcast(team, dest, source, nelems, 1, PE_root, "shmem_broadcastmem");
}
SHOAL_PROFILED(shmem_broadcastmem);

int pshmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return shoal_api_collect(team, dest, source, nelems, 1, 0, "shmem_collectmem");
}
SHOAL_PROFILED(shmem_collectmem);

int pshmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return shoal_api_collect(team, dest, source, nelems, 1, 1, "shmem_fcollectmem");
}
SHOAL_PROFILED(shmem_fcollectmem);

int pshmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return shoal_api_alltoall(team, dest, source, nelems, 1, "shmem_alltoallmem");
}
SHOAL_PROFILED(shmem_alltoallmem);

int pshmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                        ptrdiff_t sst, size_t nelems)
{
    return shoal_api_alltoalls(team, dest, source, dst, sst, nelems, 1, "shmem_alltoallsmem");
}
SHOAL_PROFILED(shmem_alltoallsmem);

/* Deprecated active-set forms. */
void pshmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    shoal_pset_t ps;

    active_set(&ps, PE_start, logPE_stride, PE_size, pSync, "shmem_barrier");
    shoal_coll_barrier_program(&ps, 1, "shmem_barrier");
}
SHOAL_PROFILED(shmem_barrier);

void pshmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    shoal_pset_t ps;

    active_set(&ps, PE_start, logPE_stride, PE_size, pSync, "shmem_sync");
    shoal_coll_barrier_program(&ps, 0, "shmem_sync");
}
SHOAL_PROFILED(shmem_sync);

/* The deprecated active-set broadcast, collect, fcollect, alltoall and alltoalls, 32
 * and 64 bits: their wrappers are generated (shmem/api/gen/coll_aset.c). */
void shoal_api_aset_broadcast(void *dest, const void *source, size_t nelems, size_t elem_size,
                              int PE_root, int PE_start, int logPE_stride, int PE_size, long *pSync,
                              const char *routine)
{
    shoal_pset_t ps;

    active_set(&ps, PE_start, logPE_stride, PE_size, pSync, routine);
    broadcast(&ps, dest, source, nelems, elem_size, PE_root, 0, routine);
}

void shoal_api_aset_collect(void *dest, const void *source, size_t nelems, size_t elem_size,
                            int fixed, int PE_start, int logPE_stride, int PE_size, long *pSync,
                            const char *routine)
{
    shoal_pset_t ps;

    active_set(&ps, PE_start, logPE_stride, PE_size, pSync, routine);
    collect(&ps, dest, source, nelems, elem_size, fixed, routine);
}

void shoal_api_aset_alltoalls(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                              size_t nelems, size_t elem_size, int PE_start, int logPE_stride,
                              int PE_size, long *pSync, const char *routine)
{
    shoal_pset_t ps;

    active_set(&ps, PE_start, logPE_stride, PE_size, pSync, routine);
    alltoalls(&ps, dest, source, dst, sst, nelems, elem_size, routine);
}
