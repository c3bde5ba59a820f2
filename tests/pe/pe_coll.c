/* Team collectives on several team layouts (WORLD; SHARED; even and odd PEs; the
 * rows and the columns of a 3-wide 2-D split, with a short row and single-PE teams;
 * WORLD in reverse order): team_sync and barrier_all ordering, broadcast from every
 * root, collect with a different count on each PE (0 included), fcollect, alltoall
 * and alltoalls with strides 1 and 3, over every standard RMA type through the typed
 * names and the C11 generic ones, at 0 elements, 1 element and more; the mem forms
 * at several MiB; and each collective (the scans too) with one PE that fills its
 * source only just before it calls (the specification needs no synchronisation
 * for sources). Every destination is checked element by element against what the
 * model of the team says, and the element after it (and every gap of a strided
 * destination) must keep its sentinel. Last, collectives on crossing teams (rows,
 * columns, WORLD) interleaved with no synchronisation between them. */
#include "pe_teams.h"
#include "shoal_types.h"

#include <limits.h>
#include <stdint.h>

#define NB 37 /* the larger typed count */
#define NA 5  /* elements per PE pair of the typed alltoall */
#define NS 4  /* elements per PE pair of the typed alltoalls */
#define MAXSTRIDE 3
#define BIG (4 << 20) /* bytes of the large mem forms */

typedef struct type_info {
    const char *name;
    size_t size;
    long double (*load)(const void *arr, size_t i);
    long double sentinel; /* (T)-1, which no test value equals */
} type_info_t;

static int me, npes;
static pe_team_t T;             /* this PE's team in the current layout */
static void *src_sym, *dst_sym; /* symmetric, ELEMS elements of up to 16 bytes */
static size_t ELEMS;
static char what[160]; /* the current routine, type and team, for messages */

/* Distinct per PE and element, exact in every type (1..113 for 1-byte types). */
static long double val(int pe, size_t i, int salt, size_t size)
{
    return 1 + (pe * 13 + i * 7 + (size_t)salt * 3) % 113 + (size > 1 ? 256 * (pe % 64 + 1) : 0);
}

/* Collect counts: different on neighbouring PEs, 0 on some. */
static size_t collect_count(int index)
{
    return (size_t)(index * 5 + 2) % 7;
}

/* dst[0 .. len) must be what want(j) gives at each j where it returns 1, the
 * sentinel elsewhere. Reports the first wrong element and how many are wrong. */
typedef int (*want_fn)(size_t j, long double *want);

static const type_info_t *cur_t;
static int cur_root, cur_salt;
static size_t cur_n, cur_dst, cur_sst;

static void check_dst(want_fn want, size_t len)
{
    size_t j, bad = 0, first = 0;
    long double wbad = 0, gbad = 0;

    for (j = 0; j < len; j++) {
        long double w = cur_t->sentinel, g = cur_t->load(dst_sym, j);

        if (!want(j, &w))
            w = cur_t->sentinel;
        if (g != w && bad++ == 0) {
            first = j;
            wbad = w;
            gbad = g;
        }
    }
    PE_CHECK(bad == 0, "%s: %zu of %zu elements wrong, first [%zu]: expected %Lg, found %Lg", what,
             bad, len, first, wbad, gbad);
}

static int want_bcast(size_t j, long double *w)
{
    if (j >= cur_n)
        return 0;
    *w = val(T.world[cur_root], j, cur_salt, cur_t->size);
    return 1;
}

static int want_collect(size_t j, long double *w)
{
    int k;

    for (k = 0; k < T.size; k++) {
        size_t c = cur_n ? cur_n : collect_count(k); /* cur_n: fcollect's fixed count */

        if (j < c) {
            *w = val(T.world[k], j, cur_salt, cur_t->size);
            return 1;
        }
        j -= c;
    }
    return 0;
}

/* alltoalls: block k of the destination, element i at (k*n + i)*dst, came from
 * member k's source at (me*n + i)*sst. alltoall is strides 1, 1. */
static int want_alltoalls(size_t j, long double *w)
{
    size_t e = j / cur_dst, k = e / (cur_n ? cur_n : 1), i = e % (cur_n ? cur_n : 1);

    if (cur_n == 0 || j % cur_dst != 0 || k >= (size_t)T.size)
        return 0;
    *w = val(T.world[k], ((size_t)T.me * cur_n + i) * cur_sst, cur_salt, cur_t->size);
    return 1;
}

/* The source of this PE for salt: element i is val(me, i, salt). The destination is
 * all sentinels; then the team syncs so nobody writes into it before it is reset. */
#define PREPARE(T_, salt)                                                                          \
    do {                                                                                           \
        size_t i_;                                                                                 \
        for (i_ = 0; i_ < ELEMS; i_++) {                                                           \
            ((T_ *)src_sym)[i_] = (T_)val(me, i_, (salt), sizeof(T_));                             \
            ((T_ *)dst_sym)[i_] = (T_)-1;                                                          \
        }                                                                                          \
        cur_salt = (salt);                                                                         \
        shmem_team_sync(T.team);                                                                   \
    } while (0)

#define RC(call)                                                                                   \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        PE_CHECK(rc_ == 0, "%s: returned %d", what, rc_);                                          \
    } while (0)

/* One round of every collective on this PE's team for one type. A macro so that the
 * typed and the generic names share it. */
#define COLL_ROUND(T_, info, via, BCAST, COLLECT, FCOLLECT, ALLTOALL, ALLTOALLS)                   \
    do {                                                                                           \
        T_ *s_ = (T_ *)src_sym, *d_ = (T_ *)dst_sym;                                               \
        size_t n_, tot_, k_;                                                                       \
        int r_, st_;                                                                               \
        static const size_t bn_[] = {0, 1, NB};                                                    \
        static const size_t strides_[][2] = {{1, 1}, {3, 1}, {1, 3}, {3, 3}};                      \
                                                                                                   \
        cur_t = (info);                                                                            \
        for (n_ = 0; n_ < 3; n_++)                                                                 \
            for (r_ = 0; r_ < T.size; r_++) {                                                      \
                if (bn_[n_] < NB && r_ != (T.size - 1) * (int)n_ / 2)                              \
                    continue; /* every root at NB; one at 0 and 1 elements */                      \
                PREPARE(T_, 1 + r_);                                                               \
                cur_root = r_;                                                                     \
                cur_n = bn_[n_];                                                                   \
                snprintf(what, sizeof(what), "%s broadcast%s, %zu from root %d, %s", (info)->name, \
                         (via), cur_n, r_, T.name);                                                \
                RC(BCAST(T.team, d_, s_, cur_n, r_));                                              \
                check_dst(want_bcast, NB + 8);                                                     \
            }                                                                                      \
        /* Three broadcasts back to back, no sync between: disjoint destinations. */               \
        PREPARE(T_, 7);                                                                            \
        cur_n = NB;                                                                                \
        snprintf(what, sizeof(what), "%s broadcast%s back to back, %s", (info)->name, (via),       \
                 T.name);                                                                          \
        for (r_ = 0; r_ < 3; r_++)                                                                 \
            RC(BCAST(T.team, d_ + r_ * (NB + 1), s_, NB, (r_ * 2) % T.size));                      \
        for (r_ = 0; r_ < 3; r_++) {                                                               \
            cur_root = (r_ * 2) % T.size;                                                          \
            for (k_ = 0; k_ <= NB; k_++) {                                                         \
                long double w_ =                                                                   \
                    k_ < NB ? val(T.world[cur_root], k_, 7, sizeof(T_)) : (info)->sentinel;        \
                if ((long double)d_[r_ * (NB + 1) + k_] != w_) {                                   \
                    PE_CHECK_EQ(what, w_, d_[r_ * (NB + 1) + k_]);                                 \
                    break;                                                                         \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
                                                                                                   \
        /* collect: counts differ per PE; then all 0; fcollect: 1 and NB each. */                  \
        PREPARE(T_, 11);                                                                           \
        cur_n = 0;                                                                                 \
        for (tot_ = 0, k_ = 0; k_ < (size_t)T.size; k_++)                                          \
            tot_ += collect_count((int)k_);                                                        \
        snprintf(what, sizeof(what), "%s collect%s, %zu here, %s", (info)->name, (via),            \
                 collect_count(T.me), T.name);                                                     \
        RC(COLLECT(T.team, d_, s_, collect_count(T.me)));                                          \
        check_dst(want_collect, tot_ + 8);                                                         \
        PREPARE(T_, 12);                                                                           \
        snprintf(what, sizeof(what), "%s collect%s, 0 everywhere, %s", (info)->name, (via),        \
                 T.name);                                                                          \
        RC(COLLECT(T.team, d_, s_, 0));                                                            \
        for (k_ = 0; k_ < 8 && d_[k_] == (T_)-1; k_++)                                             \
            ;                                                                                      \
        PE_CHECK(k_ == 8, "%s: element %zu written", what, k_);                                    \
        for (n_ = 0; n_ < 3; n_++) {                                                               \
            PREPARE(T_, 13 + (int)n_);                                                             \
            cur_n = bn_[n_];                                                                       \
            snprintf(what, sizeof(what), "%s fcollect%s, %zu each, %s", (info)->name, (via),       \
                     cur_n, T.name);                                                               \
            RC(FCOLLECT(T.team, d_, s_, cur_n));                                                   \
            if (cur_n)                                                                             \
                check_dst(want_collect, cur_n *T.size + 8);                                        \
            else                                                                                   \
                check_dst(want_bcast, 8); /* cur_n 0: nothing */                                   \
        }                                                                                          \
                                                                                                   \
        /* alltoall: 0, 1 and NA per pair; alltoalls: NS per pair, strides 1 and 3. */             \
        cur_dst = cur_sst = 1;                                                                     \
        for (n_ = 0; n_ < 3; n_++) {                                                               \
            PREPARE(T_, 17 + (int)n_);                                                             \
            cur_n = n_ == 2 ? NA : n_;                                                             \
            snprintf(what, sizeof(what), "%s alltoall%s, %zu per PE, %s", (info)->name, (via),     \
                     cur_n, T.name);                                                               \
            RC(ALLTOALL(T.team, d_, s_, cur_n));                                                   \
            check_dst(want_alltoalls, (cur_n ? cur_n : 1) * T.size + 8);                           \
        }                                                                                          \
        for (st_ = 0; st_ < 4; st_++) {                                                            \
            PREPARE(T_, 21 + st_);                                                                 \
            cur_n = NS;                                                                            \
            cur_dst = strides_[st_][0];                                                            \
            cur_sst = strides_[st_][1];                                                            \
            snprintf(what, sizeof(what), "%s alltoalls%s, %d per PE, dst %zu sst %zu, %s",         \
                     (info)->name, (via), NS, cur_dst, cur_sst, T.name);                           \
            RC(ALLTOALLS(T.team, d_, s_, (ptrdiff_t)cur_dst, (ptrdiff_t)cur_sst, NS));             \
            check_dst(want_alltoalls, NS *T.size *cur_dst + 8);                                    \
        }                                                                                          \
        cur_dst = cur_sst = 1;                                                                     \
        shmem_team_sync(T.team);                                                                   \
    } while (0)

#define DEFINE_TYPED(T_, NAME)                                                                     \
    static long double load_##NAME(const void *arr, size_t i)                                      \
    {                                                                                              \
        return ((const T_ *)arr)[i];                                                               \
    }                                                                                              \
    static const type_info_t info_##NAME = {#NAME, sizeof(T_), load_##NAME, (T_)-1};               \
    static void coll_##NAME(void)                                                                  \
    {                                                                                              \
        COLL_ROUND(T_, &info_##NAME, "", shmem_##NAME##_broadcast, shmem_##NAME##_collect,         \
                   shmem_##NAME##_fcollect, shmem_##NAME##_alltoall, shmem_##NAME##_alltoalls);    \
    }
SHOAL_RMA_TYPES(DEFINE_TYPED)

#define DEFINE_GENERIC(T_, NAME)                                                                   \
    static void generic_##NAME(void)                                                               \
    {                                                                                              \
        COLL_ROUND(T_, &info_##NAME, " (generic)", shmem_broadcast, shmem_collect, shmem_fcollect, \
                   shmem_alltoall, shmem_alltoalls);                                               \
    }
SHOAL_RMA_C11_TYPES(DEFINE_GENERIC)

/* Byte patterns of the mem forms. */
static unsigned char pat(int pe, size_t i, int salt)
{
    return (unsigned char)(pe * 59 + i * 7 + (i >> 12) + (size_t)salt * 3 + 1);
}

/* bytes of b from at: pattern of PE pe from offset first; reports the first miss. */
static void check_bytes(const char *name, const unsigned char *b, size_t at, size_t len, int pe,
                        size_t first, int salt)
{
    size_t i, bad = 0, fb = 0;

    for (i = 0; i < len; i++)
        if (b[at + i] != pat(pe, first + i, salt) && bad++ == 0)
            fb = i;
    PE_CHECK(bad == 0,
             "%s, %s: %zu of %zu bytes from PE %d wrong, first [%zu]: expected %u, "
             "found %u",
             name, T.name, bad, len, pe, at + fb, pat(pe, first + fb, salt), bad ? b[at + fb] : 0);
}

static void check_guard(const char *name, const unsigned char *b, size_t at)
{
    PE_CHECK(b[at] == 0xEE, "%s, %s: byte [%zu] after the data is %u, expected 0xEE", name, T.name,
             at, b[at]);
}

/* The mem forms at several MiB (and at 0 bytes) on this PE's team. */
static void coll_mem(unsigned char *src, unsigned char *dst)
{
    size_t i, blk = BIG / (size_t)T.size, tot, off;
    int r, k, salt;

    for (r = 0; r<T.size; r += T.size> 1 ? T.size - 1 : 1) { /* first and last root */
        salt = 30 + r;
        for (i = 0; i < BIG; i++)
            src[i] = pat(me, i, salt);
        memset(dst, 0xEE, BIG + 64);
        shmem_team_sync(T.team);
        PE_CHECK_EQ("broadcastmem return", 0, shmem_broadcastmem(T.team, dst, src, BIG - 3, r));
        check_bytes("broadcastmem", dst, 0, BIG - 3, T.world[r], 0, salt);
        check_guard("broadcastmem", dst, BIG - 3);
    }
    memset(dst, 0xEE, BIG + 64);
    shmem_team_sync(T.team);
    PE_CHECK_EQ("broadcastmem 0 bytes", 0, shmem_broadcastmem(T.team, dst, src, 0, 0));
    check_guard("broadcastmem 0 bytes", dst, 0);

    /* collectmem: member k gives blk - 7k bytes (less when that would not fit). */
    salt = 40;
    for (i = 0; i < BIG; i++)
        src[i] = pat(me, i, salt);
    memset(dst, 0xEE, BIG + 64);
    shmem_team_sync(T.team);
    PE_CHECK_EQ("collectmem return", 0,
                shmem_collectmem(T.team, dst, src, blk - 7 * (size_t)T.me % blk));
    for (tot = 0, k = 0; k < T.size; k++) {
        size_t c = blk - 7 * (size_t)k % blk;

        check_bytes("collectmem", dst, tot, c, T.world[k], 0, salt);
        tot += c;
    }
    check_guard("collectmem", dst, tot);

    /* fcollectmem and alltoallmem: blk - 1 bytes per member and per pair. */
    memset(dst, 0xEE, BIG + 64);
    shmem_team_sync(T.team);
    PE_CHECK_EQ("fcollectmem return", 0, shmem_fcollectmem(T.team, dst, src, blk - 1));
    for (k = 0; k < T.size; k++)
        check_bytes("fcollectmem", dst, (size_t)k * (blk - 1), blk - 1, T.world[k], 0, salt);
    check_guard("fcollectmem", dst, (size_t)T.size * (blk - 1));
    memset(dst, 0xEE, BIG + 64);
    shmem_team_sync(T.team);
    PE_CHECK_EQ("alltoallmem return", 0, shmem_alltoallmem(T.team, dst, src, blk - 1));
    for (k = 0; k < T.size; k++)
        check_bytes("alltoallmem", dst, (size_t)k * (blk - 1), blk - 1, T.world[k],
                    (size_t)T.me * (blk - 1), salt);
    check_guard("alltoallmem", dst, (size_t)T.size * (blk - 1));

    /* alltoallsmem: bytes with strides 3 (dest) and 2 (source); gaps keep 0xEE. */
    off = blk / 8;
    memset(dst, 0xEE, BIG + 64);
    shmem_team_sync(T.team);
    PE_CHECK_EQ("alltoallsmem return", 0, shmem_alltoallsmem(T.team, dst, src, 3, 2, off));
    for (k = 0; k < T.size; k++) {
        size_t bad = 0, e;

        for (e = 0; e < off; e++) {
            size_t at = ((size_t)k * off + e) * 3;

            if (dst[at] != pat(T.world[k], ((size_t)T.me * off + e) * 2, salt) ||
                dst[at + 1] != 0xEE || dst[at + 2] != 0xEE)
                bad++;
        }
        PE_CHECK(bad == 0, "alltoallsmem, %s: %zu of %zu elements from member %d wrong", T.name,
                 bad, off, k);
    }
    check_guard("alltoallsmem", dst, (size_t)T.size * off * 3);
    shmem_team_sync(T.team);
}

/* team_sync and barrier_all order what came before: puts completed by quiet before
 * team_sync, and plain puts before barrier_all, are visible after them. */
static void coll_sync(long *marks)
{
    static long epoch;
    int k, r;

    for (r = 0; r < 3; r++) {
        long e = ++epoch;

        for (k = 0; k < T.size; k++)
            shmem_long_p(&marks[T.me], e * 1000 + T.me, T.world[k]);
        if (r < 2) {
            shmem_quiet();
            PE_CHECK_EQ("team_sync return", 0, shmem_team_sync(T.team));
        } else {
            shmem_barrier_all();
        }
        for (k = 0; k < T.size; k++)
            PE_CHECK(marks[k] == e * 1000 + k, "%s: %s %ld: mark of member %d is %ld", T.name,
                     r < 2 ? "team_sync" : "barrier_all", e, k, marks[k]);
        /* nobody marks again before everyone has looked */
        shmem_team_sync(T.team);
    }
}

/* The specification lets a PE call a collective before another PE's source is
 * ready: that PE writes its source only 5 ms later, then calls. Everyone must get
 * the new values (old ones were there before). The late PE is the broadcast's root,
 * and a contributor of every other collective. */
static void late_fill(long *src, size_t n, int late)
{
    struct timespec ts = {0, 5 * 1000 * 1000};
    size_t i;

    for (i = 0; i < n; i++)
        src[i] = (long)val(me, i, T.me == late ? 50 : 60, sizeof(long));
    shmem_team_sync(T.team);
    if (T.me == late) {
        nanosleep(&ts, NULL);
        for (i = 0; i < n; i++)
            src[i] = (long)val(me, i, 60, sizeof(long));
    }
}

static void coll_late_source(void)
{
    long *s = src_sym, *d = dst_sym;
    int late = T.size - 1, k, ex;
    size_t i, n = ELEMS;

    cur_t = &info_long;
    cur_salt = 60;
    for (i = 0; i < ELEMS; i++)
        d[i] = -1;
    late_fill(s, n, late);
    snprintf(what, sizeof(what), "long broadcast, root late with its source, %s", T.name);
    cur_root = late;
    cur_n = NB;
    RC(shmem_long_broadcast(T.team, d, s, NB, late));
    check_dst(want_bcast, NB + 1);

    for (i = 0; i < ELEMS; i++)
        d[i] = -1;
    late_fill(s, n, late);
    snprintf(what, sizeof(what), "long fcollect, one PE late with its source, %s", T.name);
    cur_n = 3;
    RC(shmem_long_fcollect(T.team, d, s, 3));
    check_dst(want_collect, 3 * (size_t)T.size + 1);

    for (i = 0; i < ELEMS; i++)
        d[i] = -1;
    late_fill(s, n, late);
    snprintf(what, sizeof(what), "long alltoall, one PE late with its source, %s", T.name);
    cur_n = 2;
    cur_dst = cur_sst = 1;
    RC(shmem_long_alltoall(T.team, d, s, 2));
    check_dst(want_alltoalls, 2 * (size_t)T.size + 1);

    for (i = 0; i < ELEMS; i++)
        d[i] = -1;
    late_fill(s, n, late);
    snprintf(what, sizeof(what), "long alltoalls (dst 2, sst 3), one PE late with its source, %s",
             T.name);
    cur_n = 1;
    cur_dst = 2;
    cur_sst = 3;
    RC(shmem_long_alltoalls(T.team, d, s, 2, 3, 1));
    check_dst(want_alltoalls, 2 * (size_t)T.size + 1);

    /* collect: index 0 is the late one, as some indices bring nothing. */
    for (i = 0; i < ELEMS; i++)
        d[i] = -1;
    late_fill(s, n, 0);
    snprintf(what, sizeof(what), "long collect, index 0 late with its source, %s", T.name);
    cur_n = 0;
    RC(shmem_long_collect(T.team, d, s, collect_count(T.me)));
    for (i = 0, k = 0; k < T.size; k++)
        i += collect_count(k);
    check_dst(want_collect, i + 1);

    /* Reductions: sum, max and xor (the table has no long xor: unsigned long's,
     * on the same words), each its own combining code. The late PE is
     * the team's highest world PE, whose values are the largest (val), so the max
     * shows its new values too. */
    for (ex = 0; ex < 3; ex++) {
        static const char *const ops[] = {"sum", "max", "xor"};

        for (i = 0; i < ELEMS; i++)
            d[i] = -1;
        late_fill(s, n, late);
        snprintf(what, sizeof(what), "long %s_reduce, one PE late with its source, %s", ops[ex],
                 T.name);
        RC(ex == 0 ? shmem_long_sum_reduce(T.team, d, s, 4)
           : ex == 1
               ? shmem_long_max_reduce(T.team, d, s, 4)
               : shmem_ulong_xor_reduce(T.team, (unsigned long *)d, (const unsigned long *)s, 4));
        for (i = 0; i < 4; i++) {
            long want = ex == 1 ? LONG_MIN : 0;

            for (k = 0; k < T.size; k++) {
                long v = (long)val(T.world[k], i, 60, sizeof(long));

                want = ex == 0 ? want + v : ex == 1 ? (v > want ? v : want) : want ^ v;
            }
            PE_CHECK(d[i] == want, "%s: [%zu]: expected %ld, found %ld", what, i, want, d[i]);
        }
    }

    /* The scans (1.6): every member but index 0 reads index 0's source, so index 0
     * is the late one; the exclusive scan gives index 0 a sum of nothing, 0. */
    for (ex = 0; ex < 2; ex++) {
        for (i = 0; i < ELEMS; i++)
            d[i] = -1;
        late_fill(s, n, 0);
        snprintf(what, sizeof(what), "long sum_%sscan, index 0 late with its source, %s",
                 ex ? "ex" : "in", T.name);
        RC(ex ? shmem_long_sum_exscan(T.team, d, s, 4) : shmem_long_sum_inscan(T.team, d, s, 4));
        for (i = 0; i < 4; i++) {
            long want = 0;

            for (k = 0; k < T.me + !ex; k++)
                want += (long)val(T.world[k], i, 60, sizeof(long));
            PE_CHECK(d[i] == want, "%s: [%zu]: expected %ld, found %ld", what, i, want, d[i]);
        }
    }
    shmem_team_sync(T.team);
}

/* Rounds of collectives on crossing teams, rows and columns of a 2-wide split and
 * WORLD, one after another with nothing between them: each must keep to its own
 * team's counters. Destinations and sources alternate between two sets by round;
 * a PE two rounds ahead has passed the next round's WORLD reduction, which every PE
 * enters only after checking the round before, so nothing is overwritten early. */
#define ROUNDS 12
static long ix_src[2][NB], ix_bx[2][NB + 1], iy_bx[2][NB + 1], ir_src[2][4], ir_w[2][5], ir_x[2][5],
    iy_f[2][2 * PE_TEAM_MAXPE + 1], ix_a[2][PE_TEAM_MAXPE + 1], ix_asrc[2][PE_TEAM_MAXPE];

static long ival(int round, int pe, int i)
{
    return (long)round * 100000 + pe * 100 + i;
}

static void coll_interleaved(void)
{
    pe_team_t world, x, y;
    int r, i, k, rx_root;

    pe_team_world(&world);
    pe_team_split_2d(&x, &y, &world, 2);
    if (x.me < 0 || y.me < 0)
        return;
    for (r = 0; r < ROUNDS; r++) {
        int p = r % 2;

        for (i = 0; i < NB; i++)
            ix_src[p][i] = ival(r, me, i);
        for (i = 0; i < 4; i++)
            ir_src[p][i] = ival(r, me, i);
        for (k = 0; k < x.size; k++)
            ix_asrc[p][k] = ival(r, me, 50 + k);
        ix_bx[p][NB] = iy_bx[p][NB] = ir_w[p][4] = ir_x[p][4] = -1;
        iy_f[p][2 * y.size] = ix_a[p][x.size] = -1;
        if (r < 2) /* the first use of each set: everyone's guards are in place */
            shmem_barrier_all();
        rx_root = r % x.size;
        PE_CHECK_EQ("interleaved broadcast on a row", 0,
                    shmem_long_broadcast(x.team, ix_bx[p], ix_src[p], NB, rx_root));
        PE_CHECK_EQ("interleaved broadcast on a column", 0,
                    shmem_long_broadcast(y.team, iy_bx[p], ix_src[p], NB, y.size - 1));
        PE_CHECK_EQ("interleaved sum on WORLD", 0,
                    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, ir_w[p], ir_src[p], 4));
        PE_CHECK_EQ("interleaved fcollect on a column", 0,
                    shmem_long_fcollect(y.team, iy_f[p], ir_src[p], 2));
        PE_CHECK_EQ("interleaved alltoall on a row", 0,
                    shmem_long_alltoall(x.team, ix_a[p], ix_asrc[p], 1));
        PE_CHECK_EQ("interleaved max on a row", 0,
                    shmem_long_max_reduce(x.team, ir_x[p], ir_src[p], 4));

        for (i = 0; i < NB; i++) {
            if (ix_bx[p][i] != ival(r, x.world[rx_root], i) ||
                iy_bx[p][i] != ival(r, y.world[y.size - 1], i)) {
                PE_CHECK(0, "round %d: row/column broadcast [%d]: %ld, %ld; expected %ld, %ld", r,
                         i, ix_bx[p][i], iy_bx[p][i], ival(r, x.world[rx_root], i),
                         ival(r, y.world[y.size - 1], i));
                break;
            }
        }
        for (i = 0; i < 4; i++) {
            long sum = 0, max = 0;

            for (k = 0; k < npes; k++)
                sum += ival(r, k, i);
            for (k = 0; k < x.size; k++)
                max = ival(r, x.world[k], i) > max ? ival(r, x.world[k], i) : max;
            PE_CHECK(ir_w[p][i] == sum && ir_x[p][i] == max,
                     "round %d: [%d]: WORLD sum %ld, row max %ld; expected %ld, %ld", r, i,
                     ir_w[p][i], ir_x[p][i], sum, max);
        }
        for (k = 0; k < y.size; k++)
            for (i = 0; i < 2; i++)
                PE_CHECK(iy_f[p][2 * k + i] == ival(r, y.world[k], i),
                         "round %d: column fcollect [%d]: %ld, expected %ld", r, 2 * k + i,
                         iy_f[p][2 * k + i], ival(r, y.world[k], i));
        for (k = 0; k < x.size; k++)
            PE_CHECK(ix_a[p][k] == ival(r, x.world[k], 50 + x.me),
                     "round %d: row alltoall [%d]: %ld, expected %ld", r, k, ix_a[p][k],
                     ival(r, x.world[k], 50 + x.me));
        PE_CHECK(ix_bx[p][NB] == -1 && iy_bx[p][NB] == -1 && ir_w[p][4] == -1 && ir_x[p][4] == -1 &&
                     iy_f[p][2 * y.size] == -1 && ix_a[p][x.size] == -1,
                 "round %d: an element after a destination was written", r);
    }
    shmem_barrier_all();
    pe_team_free(&x);
    pe_team_free(&y);
    shmem_barrier_all();
}

/* Broadcasts back to back into one dest, the root moving on each call and writing
 * its source just before it; every PE checks each result as soon as the call
 * returns. Sizes on both sides of the small-broadcast staging limit (4 KiB). The
 * caller then destroys the team with no barrier first: a root may still have
 * readers of its last broadcast when the team goes. */
static long rotate_val(int round, size_t i)
{
    return round * 100003L + (long)i * 7 + 1;
}

static void coll_bcast_rotate(long *src, long *dst)
{
    static const size_t counts[] = {1, 512, 513, 0, 64};
    int round;
    size_t k, i;

    for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
        snprintf(what, sizeof(what), "long broadcast of %zu back to back, root moving, %s",
                 counts[k], T.name);
        for (round = 0; round < 3 * T.size + 1; round++) {
            int root = round % T.size, bad = 0;

            if (T.me == root)
                for (i = 0; i < counts[k]; i++)
                    src[i] = rotate_val(round, i);
            RC(shmem_long_broadcast(T.team, dst, src, counts[k], root));
            for (i = 0; i < counts[k] && !bad; i++)
                bad = dst[i] != rotate_val(round, i);
            PE_CHECK(!bad, "%s: round %d (root %d): dest[%zu] is %ld, expected %ld", what, round,
                     root, i - 1, dst[i - 1], rotate_val(round, i - 1));
            if (bad)
                return;
        }
    }
}

int main(void)
{
    unsigned char *msrc, *mdst;
    long *marks;
    int layout;

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    pe_test_upto("pe_coll", PE_TEAM_MAXPE);
    ELEMS = (size_t)npes * NS * MAXSTRIDE * MAXSTRIDE + 3 * (NB + 1) + 64;
    src_sym = shmem_malloc(ELEMS * 16);
    dst_sym = shmem_malloc(ELEMS * 16);
    msrc = shmem_malloc(BIG);
    mdst = shmem_malloc(BIG + 64);
    marks = shmem_calloc(PE_TEAM_MAXPE, sizeof(long));
    PE_CHECK(src_sym && dst_sym && msrc && mdst && marks, "allocations %p %p %p %p %p", src_sym,
             dst_sym, (void *)msrc, (void *)mdst, (void *)marks);
    if (!(src_sym && dst_sym && msrc && mdst && marks))
        return pe_test_finish("pe_coll");

    for (layout = 0; layout < PE_LAYOUT_COUNT; layout++) {
        pe_team_layout(layout, &T);
        if (T.me < 0) {
            PE_CHECK(T.me >= 0, "layout %d: this PE is in no team", layout);
            continue;
        }
        coll_sync(marks);
#define CALL(T_, NAME) coll_##NAME();
        SHOAL_RMA_TYPES(CALL)
#undef CALL
        if (layout == PE_LAYOUT_WORLD || layout == PE_LAYOUT_REVERSED) {
#define CALL(T_, NAME) generic_##NAME();
            SHOAL_RMA_C11_TYPES(CALL)
#undef CALL
        }
        coll_mem(msrc, mdst);
        coll_late_source();
        shmem_barrier_all();
        coll_bcast_rotate((long *)msrc, (long *)mdst);
        pe_team_free(&T);
    }
    coll_interleaved();

    shmem_free(marks);
    shmem_free(mdst);
    shmem_free(msrc);
    shmem_free(dst_sym);
    shmem_free(src_sym);
    return pe_test_finish("pe_coll");
}
