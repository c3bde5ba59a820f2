/* Argument checks shared by the API entry points. Each failing check ends the job
 * with one line: routine, argument, value, the valid range and the fix. The cheap
 * ones (initialised, PE range, address in a segment) are always on. */
#ifndef SHOAL_CHECK_H
#define SHOAL_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "shmem.h"
#include "shoal_coll.h"
#include "shoal_core.h"

static inline void shoal_check_init(const char *routine)
{
    if (__builtin_expect(!shoal_core_initialized(), 0))
        shoal_log_fatal("%s: called %s; call shmem_init first", routine,
                        shoal_core_finalized() ? "after shmem_finalize" : "before shmem_init");
}

static inline void shoal_check_pe(int pe, const char *routine)
{
    if (__builtin_expect((unsigned)pe >= (unsigned)shoal_core_n_pes(), 0))
        shoal_log_fatal("%s: argument pe is %d, valid range 0..%d", routine, pe,
                        shoal_core_n_pes() - 1);
}

/* The end of the job for a handle that names no live team or context (check.c). */
void shoal_check_handle_fatal(uintptr_t handle, shoal_handle_state_t state, int is_team,
                              const char *routine, const char *arg) __attribute__((noreturn));

/* The context a handle names; SHMEM_CTX_INVALID, destroyed and made-up handles end
 * the job. Cost: one compare for SHMEM_CTX_DEFAULT, a table look-up otherwise. */
static inline shoal_ctx_t *shoal_check_ctx(shmem_ctx_t ctx, const char *routine)
{
    shoal_handle_state_t state;
    shoal_ctx_t *c;

    if (__builtin_expect((uintptr_t)ctx == SHOAL_CTX_DEFAULT_HANDLE, 1))
        return &shoal_ctx_default;
    c = shoal_ctx_find((uintptr_t)ctx, &state);
    if (__builtin_expect(c == NULL, 0))
        shoal_check_handle_fatal((uintptr_t)ctx, state, 0, routine, "ctx");
    return c;
}

/* The team a handle names, NULL for SHMEM_TEAM_INVALID (which the team queries
 * answer with -1); destroyed and made-up handles end the job. */
static inline shoal_team_t *shoal_check_team_handle(shmem_team_t team, const char *routine,
                                                    const char *arg)
{
    shoal_handle_state_t state;
    shoal_team_t *t;

    if (team == SHMEM_TEAM_INVALID)
        return NULL;
    t = shoal_team_find((uintptr_t)team, &state);
    if (__builtin_expect(t == NULL, 0))
        shoal_check_handle_fatal((uintptr_t)team, state, 1, routine, arg);
    return t;
}

/* The context ctx names; *pe, which counts in the context's team, becomes a world PE. */
static inline shoal_ctx_t *shoal_check_ctx_pe(shmem_ctx_t ctx, int *pe, const char *routine)
{
    shoal_ctx_t *c = shoal_check_ctx(ctx, routine);
    const shoal_team_t *t = c->team;

    if (__builtin_expect(t == &shoal_team_world, 1)) {
        shoal_check_pe(*pe, routine);
        return c;
    }
    if (__builtin_expect((unsigned)*pe >= (unsigned)t->pset.size, 0))
        shoal_log_fatal("%s: argument pe is %d, valid range 0..%d (PEs of the context's team)",
                        routine, *pe, t->pset.size - 1);
    *pe = shoal_pset_pe(&t->pset, *pe);
    return c;
}

/* The PE set of a team the calling PE belongs to (collectives need one). */
static inline const shoal_pset_t *shoal_check_team(shmem_team_t handle, const char *routine)
{
    const shoal_team_t *team;

    shoal_check_init(routine);
    team = shoal_check_team_handle(handle, routine, "team");
    if (team == NULL)
        shoal_log_fatal("%s: argument team is SHMEM_TEAM_INVALID; pass a team this PE belongs to",
                        routine);
    if (team->pset.me < 0)
        shoal_log_fatal("%s: PE %d is not a member of the team it passed (%d PEs)", routine,
                        shoal_core_my_pe(), team->pset.size);
    return &team->pset;
}

/* The local side of a transfer of bytes > 0 must exist: a null one would crash in
 * memcpy (or in UCX) instead of saying which argument it was. */
static inline void shoal_check_local(const void *local, size_t bytes, const char *routine,
                                     const char *arg)
{
    if (__builtin_expect(local == NULL && bytes > 0, 0))
        shoal_log_fatal("%s: argument %s is NULL, but the call moves %zu bytes; expected a local "
                        "buffer of that size",
                        routine, arg, bytes);
}

/* nelems * elem_size, or the end of the job when it overflows. */
static inline size_t shoal_check_bytes(size_t nelems, size_t elem_size, const char *routine)
{
    size_t bytes;

    if (__builtin_expect(__builtin_mul_overflow(nelems, elem_size, &bytes), 0))
        shoal_log_fatal("%s: argument nelems is %zu, too large: %zu-byte elements overflow size_t",
                        routine, nelems, elem_size);
    return bytes;
}

/* The bytes of nelems elements of elem_size from each of npes PEs (a collect's or
 * an alltoall's dest), or the end of the job when that overflows. The line names
 * what the program passed: nelems and the size of one element. */
static inline size_t shoal_check_bytes_pes(size_t nelems, size_t elem_size, int npes,
                                           const char *routine)
{
    size_t bytes;

    if (__builtin_expect(__builtin_mul_overflow(nelems, elem_size, &bytes) ||
                             __builtin_mul_overflow(bytes, (size_t)npes, &bytes),
                         0))
        shoal_log_fatal("%s: argument nelems is %zu, too large: %zu-byte elements from each of "
                        "%d PEs overflow size_t",
                        routine, nelems, elem_size, npes);
    return bytes;
}

/* The target of an atomic must be naturally aligned, or the update may tear. */
static inline void shoal_check_aligned(const void *addr, size_t size, const char *routine,
                                       const char *arg)
{
    if (__builtin_expect(((uintptr_t)addr & (size - 1)) != 0, 0))
        shoal_log_fatal("%s: argument %s is %p, not aligned to its %zu-byte type", routine, arg,
                        addr, size);
}

/* The segment and offset of [addr, addr+len) which must lie in symmetric memory. */
int shoal_check_symmetric(const void *addr, size_t len, const char *routine, const char *arg,
                          size_t *off_out);

#endif
