/* collect, fcollect, alltoall and alltoalls: each PE pushes its blocks into the
 * others' dests (which the spec requires to be ready); the closing barrier
 * completes those puts, so no PE returns before its dest is whole. */
#include "shoal_coll_impl.h"
#include "shoal_stats.h"

#include <stdlib.h>

/* Byte offsets in dest of each PE's contribution: fixed, or from the sizes each
 * PE left in its scratch word 0 (read after a barrier). */
static size_t *collect_offsets(const shoal_pset_t *ps, size_t bytes, int fixed, const char *routine)
{
    size_t *off = malloc(((size_t)ps->size + 1) * sizeof(size_t)), w = shoal_pset_scratch(ps, 0);
    int i;

    if (off == NULL)
        shoal_log_fatal("%s: out of memory for %d offsets", routine, ps->size);
    if (!fixed) {
        __atomic_store_n((uint64_t *)shoal_coll_local(ps->sync_seg, w), (uint64_t)bytes,
                         __ATOMIC_RELEASE);
        shoal_coll_barrier(ps, 0, routine);
    }
    off[0] = 0;
    for (i = 0; i < ps->size; i++) {
        uint64_t b = bytes;

        if (!fixed && i != ps->me)
            shoal_core_get(&shoal_ctx_default, shoal_pset_pe(ps, i), ps->sync_seg, w, &b, sizeof(b),
                           0, routine);
        off[i + 1] = off[i] + (size_t)b;
    }
    return off;
}

/* Small blocks on a team that spans nodes (shoal_coll_xchg_fits): one exchange,
 * in which member t gets the bytes at src + t * stride, and each takes every
 * other's into dest at its index's block: no barrier, and over UCX no flush. */
static void xchg_blocks(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                        size_t stride, size_t bytes, const char *routine)
{
    char *dest = shoal_coll_local(dseg, doff);
    const char *src = shoal_coll_local(sseg, soff);
    unsigned turn = shoal_coll_xchg_push(ps, src, stride, bytes, NULL, 0, routine);
    int i;

    for (i = 0; i < ps->size; i++)
        if (i == ps->me)
            memmove(dest + (size_t)i * bytes, src + (size_t)i * stride, bytes);
        else
            shoal_coll_xchg_take(ps, i, turn, dest + (size_t)i * bytes, bytes, routine);
}

/* Each PE pushes its block to every PE's dest, starting with its right neighbour
 * so that no PE is everyone's first target. */
void shoal_coll_collect(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                        size_t bytes, int fixed, const char *routine)
{
    uint64_t begun = shoal_stats_coll_begin();
    const char *src = shoal_coll_local(sseg, soff);
    size_t *off;
    int n = ps->size, i, stream;

    if (fixed && bytes > 0 && shoal_coll_xchg_fits(ps, bytes)) {
        xchg_blocks(ps, dseg, doff, sseg, soff, 0, bytes, routine);
        shoal_stats_coll_end(SHOAL_STATS_COLLECT, begun);
        return;
    }
    off = collect_offsets(ps, bytes, fixed, routine);
    stream = shoal_coll_streams(off[n] * (size_t)n);

    for (i = 1; i <= n && bytes > 0; i++) {
        int to = (ps->me + i) % n;

        if (to == ps->me)
            memmove(shoal_coll_local(dseg, doff + off[ps->me]), src, bytes);
        else
            shoal_coll_push(ps, to, dseg, doff + off[ps->me], src, bytes, stream, routine);
    }
    free(off);
    shoal_coll_barrier(ps, 1, routine);
    if (!fixed)
        *(uint64_t *)shoal_coll_local(ps->sync_seg, shoal_pset_scratch(ps, 0)) = 0;
    shoal_stats_coll_end(SHOAL_STATS_COLLECT, begun);
}

/* Block j of this PE's source goes to block me of PE j's dest; strides in
 * elements (1, 1: alltoall). A strided block to a PE on another node moves as a
 * whole, not one element a message (each a TCP round of its own): a contiguous
 * dest takes it as one packed put (shoal_core_iput), else the receiver pulls it
 * with shoal_core_iget, which reads spans. */
void shoal_coll_alltoalls(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                          ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem_size,
                          const char *routine)
{
    uint64_t begun = shoal_stats_coll_begin();
    size_t dblock = nelems * (size_t)dst * elem_size, sblock = nelems * (size_t)sst * elem_size;
    const char *src = shoal_coll_local(sseg, soff);
    int n = ps->size, i, pull = 0;
    int stream = shoal_coll_streams(nelems * elem_size * (size_t)n * (size_t)n);

    if (dst == 1 && sst == 1 && nelems > 0 && shoal_coll_xchg_fits(ps, nelems * elem_size)) {
        xchg_blocks(ps, dseg, doff, sseg, soff, sblock, nelems * elem_size, routine);
        shoal_stats_coll_end(SHOAL_STATS_ALLTOALL, begun);
        return;
    }
    for (i = 1; i <= n && nelems > 0; i++) {
        int to = (ps->me + i) % n, pe = shoal_pset_pe(ps, to);
        size_t to_off = doff + (size_t)ps->me * dblock;
        const char *from = src + (size_t)to * sblock;

        if (dst == 1 && sst == 1) {
            shoal_coll_push(ps, to, dseg, to_off, from, nelems * elem_size, stream, routine);
        } else if (dst == 1 || shoal_peer_is_local(pe)) {
            shoal_core_iput(&shoal_ctx_default, pe, dseg, to_off, from, dst, sst, 1, nelems,
                            elem_size, routine);
        } else {
            pull = 1; /* every PE decides alike: the arguments and node layout match */
        }
    }
    if (pull) {
        /* Each source is ready once its PE has entered. */
        shoal_coll_barrier(ps, 0, routine);
        for (i = 0; i < n; i++)
            if (!shoal_peer_is_local(shoal_pset_pe(ps, i)))
                shoal_core_iget(&shoal_ctx_default, shoal_pset_pe(ps, i), sseg,
                                soff + (size_t)ps->me * sblock,
                                shoal_coll_local(dseg, doff + (size_t)i * dblock), dst, sst, 1,
                                nelems, elem_size, routine);
    }
    shoal_coll_barrier(ps, 1, routine);
    shoal_stats_coll_end(SHOAL_STATS_ALLTOALL, begun);
}
