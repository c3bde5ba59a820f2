/* Argument checks shared by the API entry points. Each failing check ends the job
 * with one line: routine, argument, value, the valid range and the fix. The cheap
 * ones (initialised, PE range, address in a segment) are always on. */
#ifndef SHOAL_CHECK_H
#define SHOAL_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "shoal_core.h"

static inline void shoal_check_init(const char *routine)
{
    if (__builtin_expect(!shoal_g.initialized, 0))
        shoal_fatal("%s: called %s; call shmem_init first", routine,
                    shoal_g.finalized ? "after shmem_finalize" : "before shmem_init");
}

static inline void shoal_check_pe(int pe, const char *routine)
{
    if (__builtin_expect((unsigned)pe >= (unsigned)shoal_g.n_pes, 0))
        shoal_fatal("%s: argument pe is %d, valid range 0..%d", routine, pe,
                    shoal_g.n_pes - 1);
}

/* The world PE that pe names on ctx: team contexts number PEs in their team. */
static inline int shoal_check_ctx_pe(shoal_ctx_t *ctx, int pe, const char *routine)
{
    const shoal_team_t *t;

    if (__builtin_expect(ctx == NULL, 0))
        shoal_fatal("%s: argument ctx is SHMEM_CTX_INVALID; pass SHMEM_CTX_DEFAULT or a context "
                    "that shmem_ctx_create or shmem_team_create_ctx made",
                    routine);
    t = ctx->team;
    if (__builtin_expect(t == &shoal_team_world, 1)) {
        shoal_check_pe(pe, routine);
        return pe;
    }
    if (__builtin_expect((unsigned)pe >= (unsigned)t->pset.size, 0))
        shoal_fatal("%s: argument pe is %d, valid range 0..%d (PEs of the context's team)",
                    routine, pe, t->pset.size - 1);
    return shoal_pset_pe(&t->pset, pe);
}

/* The PE set of a team the calling PE belongs to (collectives need one). */
static inline const shoal_pset_t *shoal_check_team(const shoal_team_t *team,
                                                  const char *routine)
{
    shoal_check_init(routine);
    if (team == NULL)
        shoal_fatal("%s: argument team is SHMEM_TEAM_INVALID; pass a team this PE belongs to",
                    routine);
    if (team->pset.me < 0)
        shoal_fatal("%s: PE %d is not a member of the team it passed (%d PEs)", routine,
                    shoal_g.my_pe, team->pset.size);
    return &team->pset;
}

/* nelems * elem_size, or the end of the job when it overflows. */
static inline size_t shoal_check_bytes(size_t nelems, size_t elem_size, const char *routine)
{
    size_t bytes;

    if (__builtin_expect(__builtin_mul_overflow(nelems, elem_size, &bytes), 0))
        shoal_fatal("%s: argument nelems is %zu, too large: %zu-byte elements overflow size_t",
                    routine, nelems, elem_size);
    return bytes;
}

/* The target of an atomic must be naturally aligned, or the update may tear. */
static inline void shoal_check_aligned(const void *addr, size_t size, const char *routine,
                                       const char *arg)
{
    if (__builtin_expect(((uintptr_t)addr & (size - 1)) != 0, 0))
        shoal_fatal("%s: argument %s is %p, not aligned to its %zu-byte type", routine, arg,
                    addr, size);
}

/* The segment and offset of [addr, addr+len) which must lie in symmetric memory. */
int shoal_check_symmetric(const void *addr, size_t len, const char *routine, const char *arg,
                          size_t *off_out);

#endif
