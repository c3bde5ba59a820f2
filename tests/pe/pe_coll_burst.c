/* Small collectives back to back, with nothing between them: sum and max
 * reductions of 1 to 8 elements, broadcasts from a root that moves, fcollects
 * and alltoalls of 1 to 8 elements a PE, runs of 2 to 13 broadcasts from one root, and one run in
 * eight of 260 to 299 (which may then be two broadcasts ahead of a reader that is held back across
 * nodes, and on one node as far as its staging slots allow: 256 of up to 16 bytes, 128 of up to
 * 32, 64 of up to 64), in half the runs one in five of 1600 bytes,
 * more than a slot (it takes the whole staging area), and barriers now and then, on WORLD and
 * on the halves at the same time, with the inputs changed before every call and some PEs held back
 * a few microseconds at random (the same sequence on every PE, so every PE makes the same calls). A
 * PE that runs one or two collectives ahead of the others must not overwrite what they have not
 * read yet: across nodes the small reductions, fcollects and alltoalls push into slots of the other
 * members that are used again two exchanges later, with no answer (coll_bcast.c's exchanges), and
 * the broadcasts into two slots of regions, the slot of a push used again only once the push
 * before last is acknowledged. Every result is checked against what this PE
 * computes itself. fcollect and alltoall write into the other PEs' dests, which the spec says must
 * be ready before any PE calls: they alternate between two (a PE two calls ahead has passed a
 * synchronisation with every other in between). After the first
 * failure the calls go on unchecked, so that no PE leaves the others waiting. */
#include "pe_teams.h"

#include <stdint.h>
#include <unistd.h>

#define ROUNDS 1500
#define MAXN 8
#define BIGN 200 /* longs: 1600 bytes, more than a staging slot (512 bytes at most) */

static int me, npes;
static pe_team_t T;
static long *src, *dst, *cdst[2]; /* cdst: fcollect's and alltoall's, in turn */
static long *bsrc, *bdst;         /* the runs' large broadcasts */

/* xorshift: the same sequence on every PE */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static long input(int idx, int round, int i)
{
    return (long)idx * 1000003L + (long)round * 7919L + i;
}

static void rounds(const char *layout)
{
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int round, i, k, collects = 0;

    for (round = 0; round < ROUNDS; round++) {
        uint64_t r = next(&seed);
        int n = 1 + (int)(r % MAXN), what = (int)((r >> 8) % 7), all = n * T.size;
        int late = (int)((r >> 16) % (uint64_t)T.size), root = (int)((r >> 24) % (uint64_t)T.size);
        int collect = what == 4 || what == 5;

        if (T.me == late && (r >> 32) % 4 == 0)
            usleep((useconds_t)((r >> 40) % 50));
        long *d = collect ? cdst[collects++ % 2] : dst;

        for (i = 0; i < all; i++)
            src[i] = input(T.me, round, i);
        d[collect ? all : n] = -7;
        if (what == 0 || what == 1) {
            long want, got;

            if (what == 0)
                shmem_long_sum_reduce(T.team, dst, src, (size_t)n);
            else
                shmem_long_max_reduce(T.team, dst, src, (size_t)n);
            for (i = 0; i < n && pe_test_failures == 0; i++) {
                want = what == 0 ? 0 : input(0, round, i);
                for (k = 0; k < T.size; k++)
                    want = what == 0 ? want + input(k, round, i)
                                     : (input(k, round, i) > want ? input(k, round, i) : want);
                got = dst[i];
                PE_CHECK(got == want,
                         "%s, round %d: %s_reduce of %d, element %d: expected %ld, "
                         "found %ld",
                         layout, round, what == 0 ? "sum" : "max", n, i, want, got);
            }
        } else if (what == 2) {
            shmem_broadcastmem(T.team, dst, src, (size_t)n * sizeof(long), root);
            for (i = 0; i < n && pe_test_failures == 0; i++)
                PE_CHECK(dst[i] == input(root, round, i),
                         "%s, round %d: broadcast of %d from %d, element %d: expected %ld, "
                         "found %ld",
                         layout, round, n, root, i, input(root, round, i), dst[i]);
        } else if (what == 6) {
            int runs = (r >> 53) % 8 == 0 ? 260 + (int)((r >> 44) % 40) : 2 + (int)((r >> 44) % 12);
            int j;

            for (j = 0; j < runs; j++) {
                int big = (r >> 56) % 2 == 0 && ((r >> 50) + (uint64_t)j) % 5 == 0;
                int m = big ? BIGN : n;
                long *from = big ? bsrc : src, *to = big ? bdst : dst;

                for (i = 0; i < m; i++)
                    from[i] = input(T.me, round * 16 + j, i);
                if (T.me == late && j % 2 == 1 && j < 14)
                    usleep((useconds_t)((r >> 40) % 50));
                if (T.me == late && j == 0 && (r >> 60) % 2 == 0)
                    usleep(300); /* the root runs as far ahead as it may */
                shmem_broadcastmem(T.team, to, from, (size_t)m * sizeof(long), root);
                for (i = 0; i < m && pe_test_failures == 0; i++)
                    PE_CHECK(to[i] == input(root, round * 16 + j, i),
                             "%s, round %d: broadcast %d (%d elements) of a run of %d from %d, "
                             "element %d: expected %ld, found %ld",
                             layout, round, j, m, runs, root, i, input(root, round * 16 + j, i),
                             to[i]);
            }
        } else if (what == 4 || what == 5) {
            if (what == 4)
                shmem_long_fcollect(T.team, d, src, (size_t)n);
            else
                shmem_long_alltoall(T.team, d, src, (size_t)n);
            /* block k comes from member k: its first n elements (fcollect), or
             * the block of them meant for this PE (alltoall) */
            for (k = 0; k < T.size && pe_test_failures == 0; k++)
                for (i = 0; i < n; i++) {
                    long want = input(k, round, (what == 4 ? 0 : T.me * n) + i);

                    PE_CHECK(d[k * n + i] == want,
                             "%s, round %d: %s of %d, block %d element %d: expected %ld, "
                             "found %ld",
                             layout, round, what == 4 ? "fcollect" : "alltoall", n, k, i, want,
                             d[k * n + i]);
                }
        } else if ((r >> 48) % 4 == 0) {
            shmem_team_sync(T.team);
        }
        PE_CHECK(pe_test_failures > 0 || d[collect ? all : n] == -7,
                 "%s, round %d: the element after dest was written", layout, round);
    }
}

int main(void)
{
    int pass;

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    pe_test_upto("pe_coll_burst", PE_TEAM_MAXPE);
    src = shmem_malloc(((size_t)MAXN * (size_t)npes + 1) * sizeof(long));
    dst = shmem_malloc(((size_t)MAXN * (size_t)npes + 1) * sizeof(long));
    cdst[0] = shmem_malloc(((size_t)MAXN * (size_t)npes + 1) * sizeof(long));
    cdst[1] = shmem_malloc(((size_t)MAXN * (size_t)npes + 1) * sizeof(long));
    bsrc = shmem_malloc(BIGN * sizeof(long));
    bdst = shmem_malloc(BIGN * sizeof(long));
    PE_CHECK(src != NULL && dst != NULL && cdst[0] != NULL && cdst[1] != NULL && bsrc != NULL &&
                 bdst != NULL,
             "allocations %p %p %p %p %p %p", (void *)src, (void *)dst, (void *)cdst[0],
             (void *)cdst[1], (void *)bsrc, (void *)bdst);
    if (src == NULL || dst == NULL || cdst[0] == NULL || cdst[1] == NULL || bsrc == NULL ||
        bdst == NULL)
        return pe_test_finish("pe_coll_burst");
    for (pass = 0; pass < 2; pass++) {
        pe_team_layout(pass ? PE_LAYOUT_HALVES : PE_LAYOUT_WORLD, &T);
        if (T.me >= 0)
            rounds(T.name);
        shmem_barrier_all();
        pe_team_free(&T);
    }
    shmem_free(bdst);
    shmem_free(bsrc);
    shmem_free(cdst[1]);
    shmem_free(cdst[0]);
    shmem_free(dst);
    shmem_free(src);
    return pe_test_finish("pe_coll_burst");
}
