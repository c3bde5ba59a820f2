/* soak.c: a long run that moves data every way OpenSHMEM can and checks every byte it moves:
 * puts and gets (blocking and nbi) of random sizes, put-with-signal, fenced puts, atomics and
 * collectives, round after round for SOAK_SECONDS. Plain OpenSHMEM 1.5 C (shmem.h only).
 * Every PE can replay any PE's plan for a round (a PRNG seeded by seed, round and PE), so each
 * receiver knows what every byte must be. Not a timing benchmark: its GB/s include the checks. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZE (1u << 20)            /* largest put, get or signal payload */
#define SLOT (2 * (size_t)MAX_SIZE)    /* a source's room in a target's inbox, per round */
#define GSRC ((size_t)MAX_SIZE + 4096) /* what each PE offers to gets, per round */
#define NOPS 8                         /* puts and gets a PE issues per round */
#define NAMO 4                         /* fetch_adds and adds a PE issues per round */
#define COLL_MAX (64u << 10)           /* fcollect and alltoall: bytes per PE */
#define BCAST_MAX (256u << 10)
#define RED_MAX 4096 /* sum_reduce: uint64 elements */

/* Pattern streams: a key names (tag, round, source PE); byte o of its stream is byte o % 8 of
 * a hash of (key, o / 8). A put, get or collective of round r from PE s carries bytes of the
 * stream (tag, r, s) at known offsets, so stale, misplaced or foreign bytes all mismatch. */
enum tag {
    TAG_PUT = 1, /* + op index */
    TAG_GSRC = 64,
    TAG_SIG,
    TAG_FENCE,
    TAG_BCAST,
    TAG_FCOLLECT,
    TAG_RED,
    TAG_A2A = 1 << 16, /* + destination PE << 8 */
    TAG_PLAN = 1 << 30,
    TAG_AMO,
    TAG_COLL,
};

enum op_kind { OP_PUT, OP_PUT_NBI, OP_GET, OP_GET_NBI, OP_NKINDS };

typedef struct op {
    int kind;
    int pe;      /* target of a put, owner of what a get reads */
    size_t off;  /* in the source's inbox slot on pe (puts), in pe's get source (gets) */
    size_t size; /* 0: nothing to do (no room left in the slot) */
} op_t;

/* Counters per PE, summed over PEs at the end: operations by kind, then bytes verified. */
enum stat {
    ST_PUT,
    ST_PUT_NBI,
    ST_GET,
    ST_GET_NBI,
    ST_PUT_SIGNAL,
    ST_FENCED_PUT,
    ST_FETCH_ADD,
    ST_ADD,
    ST_CSWAP,
    ST_BCAST,
    ST_FCOLLECT,
    ST_ALLTOALL,
    ST_REDUCE,
    ST_BARRIER,
    ST_QUIET,
    ST_FENCE,
    ST_NOPS, /* the operation counters end here */
    ST_B_PUT = ST_NOPS,
    ST_B_GET,
    ST_B_SIGNAL,
    ST_B_FENCED,
    ST_B_COLL,
    ST_CLAIM_WINS,
    ST_N
};

static const char *const stat_name[ST_N] = {"put",          "put_nbi",     "get",       "get_nbi",
                                            "put_signal",   "fenced put",  "fetch_add", "add",
                                            "compare_swap", "broadcast",   "fcollect",  "alltoall",
                                            "sum_reduce",   "barrier_all", "quiet",     "fence"};

static int me, npes;
static uint64_t seed = 1;
static uint64_t st[ST_N];

/* symmetric */
static uint64_t counter;          /* fetch_add and add target */
static uint64_t ring;             /* compare_swap'd by the left neighbour only, once a round */
static uint64_t claim;            /* compare_swap'd by every PE in the rounds it is the host */
static uint64_t sig[2], fflag[2]; /* per round parity */
static long stop_round = -1;      /* PE 0 sets it to the last round */

static inline uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static inline uint64_t key_of(uint64_t tag, long round, int pe)
{
    return mix64(mix64(mix64(seed ^ tag) + (uint64_t)round) + (uint64_t)pe);
}

static inline uint64_t pat_word(uint64_t key, size_t j)
{
    return mix64(key + (uint64_t)j * 0xd6e8feb86659fd93ull);
}

static inline unsigned pat_byte(uint64_t key, size_t o)
{
    return (unsigned)(pat_word(key, o >> 3) >> ((o & 7) * 8)) & 0xff;
}

/* the word as it lies in memory: byte o % 8 of the stream first */
static inline uint64_t le64(uint64_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return __builtin_bswap64(w);
#else
    return w;
#endif
}

/* Writes bytes off .. off+len-1 of stream key to d. */
static void pat_fill(unsigned char *d, size_t len, uint64_t key, size_t off)
{
    size_t i = 0;

    for (; i < len && ((off + i) & 7) != 0; i++) {
        d[i] = (unsigned char)pat_byte(key, off + i);
    }
    for (; i + 8 <= len; i += 8) {
        uint64_t w = le64(pat_word(key, (off + i) >> 3));
        memcpy(d + i, &w, 8);
    }
    for (; i < len; i++) {
        d[i] = (unsigned char)pat_byte(key, off + i);
    }
}

/* The first byte of d that is not byte off+i of stream key, or len when all are. */
static size_t pat_check(const unsigned char *d, size_t len, uint64_t key, size_t off)
{
    size_t i = 0;

    for (; i < len && ((off + i) & 7) != 0; i++) {
        if (d[i] != pat_byte(key, off + i)) {
            return i;
        }
    }
    for (; i + 8 <= len; i += 8) {
        uint64_t w, want = le64(pat_word(key, (off + i) >> 3));
        memcpy(&w, d + i, 8);
        if (w != want) {
            break;
        }
    }
    for (; i < len; i++) {
        if (d[i] != pat_byte(key, off + i)) {
            return i;
        }
    }
    return len;
}

/* Ends the job after one line from the PE that saw the wrong value. */
static void fail(long round, const char *what, const char *where, unsigned long long expected,
                 unsigned long long got)
{
    fprintf(stderr, "soak: PE %d, round %ld: %s: %s is 0x%llx, expected 0x%llx (seed %llu)\n", me,
            round, what, where, got, expected, (unsigned long long)seed);
    fflush(stderr);
    shmem_global_exit(1);
    exit(1);
}

/* Checks len bytes at d against stream key from off; counts them into stat. */
static void verify(const void *d, size_t len, uint64_t key, size_t off, long round,
                   const char *what, int stat)
{
    size_t bad = pat_check(d, len, key, off);

    if (bad < len) {
        char where[64];
        snprintf(where, sizeof(where), "byte %zu of %zu", bad, len);
        fail(round, what, where, pat_byte(key, off + bad), ((const unsigned char *)d)[bad]);
    }
    st[stat] += len;
}

static inline uint64_t rng_next(uint64_t *s)
{
    *s += 0x9e3779b97f4a7c15ull;
    return mix64(*s);
}

/* 8 B to 1 MiB - 1, each power of two as likely as the next: small and large both common */
static size_t draw_size(uint64_t *s, size_t max)
{
    unsigned k = 4 + (unsigned)(rng_next(s) % 17); /* 2^(k-1) .. 2^k - 1 for k = 4..20 */
    size_t size = ((size_t)1 << (k - 1)) + (size_t)(rng_next(s) % ((uint64_t)1 << (k - 1)));

    return size < max ? size : max;
}

/* PE src's puts and gets of a round, as it issues them and as their receivers replay them.
 * Puts to one target lie one after another (gaps of 0..63 bytes) in src's slot there. */
static void plan(long round, int src, op_t *ops, size_t *cursor)
{
    uint64_t s = key_of(TAG_PLAN, round, src);

    memset(cursor, 0, sizeof(*cursor) * (size_t)npes);
    for (int i = 0; i < NOPS; i++) {
        op_t *o = &ops[i];
        o->kind = (int)(rng_next(&s) % OP_NKINDS);
        o->pe = (int)(rng_next(&s) % (uint64_t)npes);
        o->size = draw_size(&s, MAX_SIZE);
        if (o->kind == OP_PUT || o->kind == OP_PUT_NBI) {
            o->off = cursor[o->pe] + (size_t)(rng_next(&s) % 64);
            o->size = o->off >= SLOT ? 0 : o->size < SLOT - o->off ? o->size : SLOT - o->off;
            cursor[o->pe] = o->off + o->size;
        } else {
            o->off = (size_t)(rng_next(&s) % (GSRC - o->size + 1));
        }
    }
}

/* Payload sizes of PE src's put-with-signal and fenced put in a round, and whether the put
 * with signal is the nbi one. */
static void plan_p2p(long round, int src, size_t *sig_size, size_t *fence_size, int *sig_nbi)
{
    uint64_t s = key_of(TAG_PLAN + 1, round, src);

    *sig_size = draw_size(&s, MAX_SIZE);
    *fence_size = draw_size(&s, MAX_SIZE);
    *sig_nbi = (int)(rng_next(&s) & 1);
}

static inline uint64_t ring_value(long round, int pe)
{
    return round < 0 ? 0 : ((uint64_t)(round + 1) << 20) | (uint64_t)pe;
}

/* What bufs_create asks of the symmetric heap, for the message when it is too small. */
static size_t heap_need(void)
{
    size_t n = (size_t)npes;

    return 2 * (n * SLOT + GSRC + 2 * (size_t)MAX_SIZE + 2 * (size_t)BCAST_MAX +
                (3 * n + 1) * COLL_MAX + 2 * RED_MAX * sizeof(uint64_t));
}

static void *sym_alloc(size_t size)
{
    void *p = shmem_malloc(size);

    if (p == NULL) {
        fprintf(stderr,
                "soak: shmem_malloc(%zu) failed on PE %d: at %d PEs soak needs about %zu MiB of "
                "symmetric heap a PE (raise SHMEM_SYMMETRIC_SIZE)\n",
                size, me, npes, (heap_need() >> 20) + 1);
        shmem_global_exit(1);
        exit(1);
    }
    return p;
}

static void *priv_alloc(size_t size)
{
    void *p = malloc(size);

    if (p == NULL) {
        fprintf(stderr, "soak: cannot allocate %zu bytes on PE %d\n", size, me);
        shmem_global_exit(1);
        exit(1);
    }
    return p;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct bufs {
    unsigned char *inbox[2];   /* npes slots of SLOT bytes: puts land here */
    unsigned char *gsrc[2];    /* GSRC bytes: gets read here */
    unsigned char *sigdata[2]; /* put-with-signal payload, from one PE a round */
    unsigned char *fdata[2];   /* fenced put payload, from the left neighbour */
    unsigned char *bsrc[2], *bdst[2];
    unsigned char *fcsrc[2], *fcdst[2];
    unsigned char *asrc[2], *adst[2];
    uint64_t *rsrc[2], *rdst[2];
    unsigned char *putbuf[NOPS], *getbuf[NOPS], *sigsrc, *fsrc;
    op_t ops[NOPS];
    size_t *cursor;
} bufs_t;

static void bufs_create(bufs_t *b)
{
    size_t n = (size_t)npes;

    for (int p = 0; p < 2; p++) {
        b->inbox[p] = sym_alloc(n * SLOT);
        b->gsrc[p] = sym_alloc(GSRC);
        b->sigdata[p] = sym_alloc(MAX_SIZE);
        b->fdata[p] = sym_alloc(MAX_SIZE);
        b->bsrc[p] = sym_alloc(BCAST_MAX);
        b->bdst[p] = sym_alloc(BCAST_MAX);
        b->fcsrc[p] = sym_alloc(COLL_MAX);
        b->fcdst[p] = sym_alloc(n * COLL_MAX);
        b->asrc[p] = sym_alloc(n * COLL_MAX);
        b->adst[p] = sym_alloc(n * COLL_MAX);
        b->rsrc[p] = sym_alloc(RED_MAX * sizeof(uint64_t));
        b->rdst[p] = sym_alloc(RED_MAX * sizeof(uint64_t));
    }
    for (int i = 0; i < NOPS; i++) {
        b->putbuf[i] = priv_alloc(MAX_SIZE);
        b->getbuf[i] = priv_alloc(MAX_SIZE);
    }
    b->sigsrc = priv_alloc(MAX_SIZE);
    b->fsrc = priv_alloc(MAX_SIZE);
    b->cursor = priv_alloc(n * sizeof(size_t));
}

/* Puts and gets of random sizes and targets; the gets are checked after the quiet. */
static void issue_rma(bufs_t *b, long r, int p)
{
    plan(r, me, b->ops, b->cursor);
    for (int i = 0; i < NOPS; i++) {
        op_t *o = &b->ops[i];
        if (o->size == 0) {
            continue;
        }
        switch (o->kind) {
        case OP_PUT:
        case OP_PUT_NBI:
            pat_fill(b->putbuf[i], o->size, key_of(TAG_PUT + (uint64_t)i, r, me), 0);
            unsigned char *dest = b->inbox[p] + (size_t)me * SLOT + o->off;
            if (o->kind == OP_PUT) {
                shmem_putmem(dest, b->putbuf[i], o->size, o->pe);
            } else {
                shmem_putmem_nbi(dest, b->putbuf[i], o->size, o->pe);
            }
            break;
        case OP_GET:
            shmem_getmem(b->getbuf[i], b->gsrc[p] + o->off, o->size, o->pe);
            break;
        default:
            shmem_getmem_nbi(b->getbuf[i], b->gsrc[p] + o->off, o->size, o->pe);
            break;
        }
        st[o->kind]++;
    }
}

static void check_gets(bufs_t *b, long r)
{
    char what[96];

    for (int i = 0; i < NOPS; i++) {
        op_t *o = &b->ops[i];
        if ((o->kind == OP_GET || o->kind == OP_GET_NBI) && o->size > 0) {
            snprintf(what, sizeof(what), "%s of %zu B at offset %zu from PE %d (op %d)",
                     o->kind == OP_GET ? "getmem" : "getmem_nbi", o->size, o->off, o->pe, i);
            verify(b->getbuf[i], o->size, key_of(TAG_GSRC, r, o->pe), o->off, r, what, ST_B_GET);
        }
    }
}

/* After the round's barrier: every put any PE made to this one this round. */
static void check_inbox(bufs_t *b, long r, int p)
{
    char what[128];

    for (int src = 0; src < npes; src++) {
        plan(r, src, b->ops, b->cursor);
        for (int i = 0; i < NOPS; i++) {
            op_t *o = &b->ops[i];
            if ((o->kind != OP_PUT && o->kind != OP_PUT_NBI) || o->pe != me || o->size == 0) {
                continue;
            }
            snprintf(what, sizeof(what), "%s of %zu B from PE %d (op %d, offset %zu of its slot)",
                     o->kind == OP_PUT ? "putmem" : "putmem_nbi", o->size, src, i, o->off);
            verify(b->inbox[p] + (size_t)src * SLOT + o->off, o->size,
                   key_of(TAG_PUT + (uint64_t)i, r, src), 0, r, what, ST_B_PUT);
        }
    }
}

/* Atomics: fetch_add and add on random PEs' counters (what each PE sent to each is summed at
 * the end), the compare_swap ring (each value known in advance) and a contended
 * compare_swap on the round's host, which exactly one PE must win. */
static void issue_amo(long r, uint64_t *sent)
{
    uint64_t s = key_of(TAG_AMO, r, me);
    int right = (me + 1) % npes, host = (int)(r % npes);

    for (int i = 0; i < NAMO; i++) {
        int pe = (int)(rng_next(&s) % (uint64_t)npes);
        uint64_t v = 1 + (rng_next(&s) >> 32);
        if (i & 1) {
            shmem_uint64_atomic_add(&counter, v, pe);
            st[ST_ADD]++;
        } else {
            (void)shmem_uint64_atomic_fetch_add(&counter, v, pe);
            st[ST_FETCH_ADD]++;
        }
        sent[pe] += v;
    }
    uint64_t cond = ring_value(r - 1, me), old;
    old = shmem_uint64_atomic_compare_swap(&ring, cond, ring_value(r, me), right);
    if (old != cond) {
        char where[64];
        snprintf(where, sizeof(where), "the old value on PE %d", right);
        fail(r, "compare_swap ring", where, cond, old);
    }
    uint64_t prev = r >= npes ? (uint64_t)(r - npes + 1) : 0;
    old = shmem_uint64_atomic_compare_swap(&claim, prev, (uint64_t)r + 1, host);
    if (old == prev) {
        st[ST_CLAIM_WINS]++;
    } else if (old != (uint64_t)r + 1) {
        char where[64];
        snprintf(where, sizeof(where), "the old value on PE %d", host);
        fail(r, "contended compare_swap", where, prev, old);
    }
    st[ST_CSWAP] += 2;
}

/* Put-with-signal to a PE at a distance that changes each round, and a put, fence and flag
 * to the right neighbour; the receivers wait for the signal and the flag and check the data. */
static void issue_p2p(bufs_t *b, long r, int p)
{
    size_t ssz, fsz;
    int nbi, d = npes > 1 ? 1 + (int)(r % (npes - 1)) : 0;
    int to = (me + d) % npes, right = (me + 1) % npes;

    plan_p2p(r, me, &ssz, &fsz, &nbi);
    pat_fill(b->sigsrc, ssz, key_of(TAG_SIG, r, me), 0);
    if (nbi) {
        shmem_putmem_signal_nbi(b->sigdata[p], b->sigsrc, ssz, &sig[p], (uint64_t)r + 1,
                                SHMEM_SIGNAL_SET, to);
    } else {
        shmem_putmem_signal(b->sigdata[p], b->sigsrc, ssz, &sig[p], (uint64_t)r + 1,
                            SHMEM_SIGNAL_SET, to);
    }
    st[ST_PUT_SIGNAL]++;
    pat_fill(b->fsrc, fsz, key_of(TAG_FENCE, r, me), 0);
    shmem_putmem_nbi(b->fdata[p], b->fsrc, fsz, right);
    shmem_fence();
    shmem_uint64_atomic_set(&fflag[p], (uint64_t)r + 1, right);
    st[ST_FENCED_PUT]++;
    st[ST_FENCE]++;
}

static void check_p2p(bufs_t *b, long r, int p)
{
    size_t ssz, fsz;
    int nbi, d = npes > 1 ? 1 + (int)(r % (npes - 1)) : 0;
    int from = (me - d + npes) % npes, left = (me - 1 + npes) % npes;
    char what[96];

    shmem_signal_wait_until(&sig[p], SHMEM_CMP_EQ, (uint64_t)r + 1);
    plan_p2p(r, from, &ssz, &fsz, &nbi);
    snprintf(what, sizeof(what), "putmem_signal%s of %zu B from PE %d", nbi ? "_nbi" : "", ssz,
             from);
    verify(b->sigdata[p], ssz, key_of(TAG_SIG, r, from), 0, r, what, ST_B_SIGNAL);

    shmem_uint64_wait_until(&fflag[p], SHMEM_CMP_EQ, (uint64_t)r + 1);
    plan_p2p(r, left, &ssz, &fsz, &nbi);
    snprintf(what, sizeof(what), "putmem_nbi + fence + flag of %zu B from PE %d", fsz, left);
    verify(b->fdata[p], fsz, key_of(TAG_FENCE, r, left), 0, r, what, ST_B_FENCED);
}

static void check_rc(long r, const char *what, int rc)
{
    if (rc != 0) {
        fail(r, what, "the return value", 0, (unsigned long long)rc);
    }
}

/* Broadcast from a moving root, fcollect, alltoall and a sum reduction, sizes the same on
 * every PE (a stream of the round alone); each result checked as soon as it returns. */
static void collectives(bufs_t *b, long r, int p)
{
    uint64_t s = key_of(TAG_COLL, r, 0);
    size_t bsz = draw_size(&s, BCAST_MAX), fsz = draw_size(&s, COLL_MAX);
    size_t asz = draw_size(&s, COLL_MAX), nred = 1 + (size_t)(rng_next(&s) % RED_MAX);
    int root = (int)(r % npes);
    char what[96];

    if (me == root) {
        pat_fill(b->bsrc[p], bsz, key_of(TAG_BCAST, r, root), 0);
    }
    check_rc(r, "shmem_broadcastmem",
             shmem_broadcastmem(SHMEM_TEAM_WORLD, b->bdst[p], b->bsrc[p], bsz, root));
    snprintf(what, sizeof(what), "broadcastmem of %zu B from root PE %d", bsz, root);
    verify(b->bdst[p], bsz, key_of(TAG_BCAST, r, root), 0, r, what, ST_B_COLL);

    pat_fill(b->fcsrc[p], fsz, key_of(TAG_FCOLLECT, r, me), 0);
    check_rc(r, "shmem_fcollectmem",
             shmem_fcollectmem(SHMEM_TEAM_WORLD, b->fcdst[p], b->fcsrc[p], fsz));
    for (int pe = 0; pe < npes; pe++) {
        snprintf(what, sizeof(what), "fcollectmem of %zu B a PE, PE %d's block", fsz, pe);
        verify(b->fcdst[p] + (size_t)pe * fsz, fsz, key_of(TAG_FCOLLECT, r, pe), 0, r, what,
               ST_B_COLL);
    }

    for (int pe = 0; pe < npes; pe++) {
        pat_fill(b->asrc[p] + (size_t)pe * asz, asz, key_of(TAG_A2A + ((uint64_t)pe << 8), r, me),
                 0);
    }
    check_rc(r, "shmem_alltoallmem",
             shmem_alltoallmem(SHMEM_TEAM_WORLD, b->adst[p], b->asrc[p], asz));
    for (int pe = 0; pe < npes; pe++) {
        snprintf(what, sizeof(what), "alltoallmem of %zu B a PE, PE %d's block", asz, pe);
        verify(b->adst[p] + (size_t)pe * asz, asz, key_of(TAG_A2A + ((uint64_t)me << 8), r, pe), 0,
               r, what, ST_B_COLL);
    }

    uint64_t mine = key_of(TAG_RED, r, me);
    for (size_t i = 0; i < nred; i++) {
        b->rsrc[p][i] = pat_word(mine, i);
    }
    check_rc(r, "shmem_uint64_sum_reduce",
             shmem_uint64_sum_reduce(SHMEM_TEAM_WORLD, b->rdst[p], b->rsrc[p], nred));
    for (size_t i = 0; i < nred; i++) {
        uint64_t want = 0;
        for (int pe = 0; pe < npes; pe++) {
            want += pat_word(key_of(TAG_RED, r, pe), i);
        }
        if (b->rdst[p][i] != want) {
            char where[64];
            snprintf(where, sizeof(where), "element %zu of %zu", i, nred);
            fail(r, "uint64_sum_reduce", where, want, b->rdst[p][i]);
        }
    }
    st[ST_B_COLL] += nred * sizeof(uint64_t);
    st[ST_BCAST]++;
    st[ST_FCOLLECT]++;
    st[ST_ALLTOALL]++;
    st[ST_REDUCE]++;
}

/* One round; returns 1 when it was the last. Its buffers are those of the round's parity p:
 * a PE writes into parity p again only in round r + 2, after the barrier of round r + 1,
 * which this PE reaches only once it has checked round r. */
static int round_run(bufs_t *b, long r, uint64_t *sent, double t0, double seconds)
{
    int p = (int)(r & 1);

    issue_rma(b, r, p);
    issue_p2p(b, r, p);
    issue_amo(r, sent);
    /* What this PE offers to gets in round r + 1: parity p ^ 1 was last read in round r - 1,
     * before its barrier, and is read again only after this round's. */
    pat_fill(b->gsrc[p ^ 1], GSRC, key_of(TAG_GSRC, r + 1, me), 0);
    shmem_quiet();
    st[ST_QUIET]++;
    check_gets(b, r);
    check_p2p(b, r, p);
    collectives(b, r, p);
    shmem_barrier_all();
    st[ST_BARRIER]++;
    check_inbox(b, r, p);

    /* PE 0 names the last round one round ahead: whoever reads stop_round in round r sees
     * either nothing yet or r + 1, never a value that would stop it a round early. */
    if (me == 0 && stop_round < 0 && now_s() - t0 >= seconds) {
        for (int pe = 0; pe < npes; pe++) {
            shmem_long_atomic_set(&stop_round, r + 1, pe);
        }
    }
    return shmem_long_atomic_fetch(&stop_round, me) == r;
}

int main(int argc, char **argv)
{
    const char *arg = argc > 1 ? argv[1] : getenv("SOAK_SECONDS");
    double seconds = arg != NULL ? strtod(arg, NULL) : 60;
    bufs_t b;

    if (getenv("SOAK_SEED") != NULL) {
        seed = strtoull(getenv("SOAK_SEED"), NULL, 0);
    }
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (!(seconds >= 0)) {
        if (me == 0) {
            fprintf(stderr, "usage: soak [SECONDS] (or SOAK_SECONDS; SOAK_SEED picks the data)\n");
        }
        shmem_finalize();
        return 2;
    }
    memset(&b, 0, sizeof(b));
    bufs_create(&b);
    uint64_t *sent = sym_alloc((size_t)npes * sizeof(uint64_t));
    uint64_t *total = sym_alloc((size_t)npes * sizeof(uint64_t));
    uint64_t *st_sym = sym_alloc(sizeof(st));
    uint64_t *st_sum = sym_alloc(sizeof(st));
    memset(sent, 0, (size_t)npes * sizeof(uint64_t));
    pat_fill(b.gsrc[0], GSRC, key_of(TAG_GSRC, 0, me), 0);
    if (me == 0) {
        printf("soak: %d PE%s, %g s, seed %llu: puts and gets of 8 B to 1 MiB, put-with-signal, "
               "fenced puts, atomics, collectives; every byte checked\n",
               npes, npes == 1 ? "" : "s", seconds, (unsigned long long)seed);
        fflush(stdout);
    }
    shmem_barrier_all();

    double t0 = now_s(), next_note = 60;
    long rounds = 0;
    for (long r = 0;; r++) {
        int last = round_run(&b, r, sent, t0, seconds);
        rounds = r + 1;
        if (me == 0 && stop_round < 0 && now_s() - t0 >= next_note) {
            printf("soak: %.0f s, %ld rounds\n", now_s() - t0, rounds);
            fflush(stdout);
            next_note += 60;
        }
        if (last) {
            break;
        }
    }
    shmem_barrier_all();
    double elapsed = now_s() - t0;

    /* fetch_add and add: each PE's counter is exactly what all PEs sent it */
    check_rc(rounds - 1, "shmem_uint64_sum_reduce",
             shmem_uint64_sum_reduce(SHMEM_TEAM_WORLD, total, sent, (size_t)npes));
    uint64_t got = shmem_uint64_atomic_fetch(&counter, me);
    if (got != total[me]) {
        fail(rounds - 1, "fetch_add and add", "the counter after the last round", total[me], got);
    }
    got = shmem_uint64_atomic_fetch(&ring, me);
    if (got != ring_value(rounds - 1, (me - 1 + npes) % npes)) {
        fail(rounds - 1, "compare_swap ring", "the value after the last round",
             ring_value(rounds - 1, (me - 1 + npes) % npes), got);
    }
    memcpy(st_sym, st, sizeof(st));
    check_rc(rounds - 1, "shmem_uint64_sum_reduce",
             shmem_uint64_sum_reduce(SHMEM_TEAM_WORLD, st_sum, st_sym, ST_N));
    if (st_sum[ST_CLAIM_WINS] != (uint64_t)rounds) {
        fail(rounds - 1, "contended compare_swap", "the number of winners over all rounds",
             (unsigned long long)rounds, st_sum[ST_CLAIM_WINS]);
    }

    if (me == 0) {
        uint64_t bytes = 0, coll_calls = 0;
        for (int k = ST_B_PUT; k <= ST_B_COLL; k++) {
            bytes += st_sum[k];
        }
        printf("soak: %d PE%s, %.1f s, %ld rounds, seed %llu\n", npes, npes == 1 ? "" : "s",
               elapsed, rounds, (unsigned long long)seed);
        printf("soak: %.3f GB moved and verified, %.3f GB/s (put %.3f, get %.3f, put_signal "
               "%.3f, fenced put %.3f, collectives %.3f GB)\n",
               (double)bytes * 1e-9, (double)bytes * 1e-9 / elapsed,
               (double)st_sum[ST_B_PUT] * 1e-9, (double)st_sum[ST_B_GET] * 1e-9,
               (double)st_sum[ST_B_SIGNAL] * 1e-9, (double)st_sum[ST_B_FENCED] * 1e-9,
               (double)st_sum[ST_B_COLL] * 1e-9);
        printf("soak: operations:");
        for (int k = 0; k < ST_NOPS; k++) {
            /* collectives and barriers once per call of the job, not per PE */
            uint64_t n = k >= ST_BCAST && k <= ST_BARRIER ? st_sum[k] / (uint64_t)npes : st_sum[k];
            coll_calls += k >= ST_BCAST && k <= ST_BARRIER ? n : 0;
            printf("%s %s %llu", k ? "," : "", stat_name[k], (unsigned long long)n);
        }
        printf("\nsoak: atomics exact: every counter is the sum of the %llu fetch_adds and adds "
               "sent to it, %llu ring compare_swaps, 1 winner in each of %ld contended rounds\n",
               (unsigned long long)(st_sum[ST_FETCH_ADD] + st_sum[ST_ADD]),
               (unsigned long long)(st_sum[ST_CSWAP] / 2), rounds);
        printf("SOAK pes=%d seconds=%.1f rounds=%ld bytes=%llu gbps=%.3f collectives=%llu "
               "seed=%llu status=ok\n",
               npes, elapsed, rounds, (unsigned long long)bytes, (double)bytes * 1e-9 / elapsed,
               (unsigned long long)coll_calls, (unsigned long long)seed);
        fflush(stdout);
    }
    shmem_finalize();
    return 0;
}
