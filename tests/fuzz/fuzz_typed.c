/* The typed routines, taken from the generated API table (every name the library
 * exports for RMA, AMO, signal, wait/test and the collectives, each with its type),
 * plus the untyped collectives that take the same arguments. Each family draws its
 * arguments here; call_<type> casts the table's pointer back to the routine's own
 * type and makes the call. Must not call anything the table does not list. */
#include "fuzz.h"
#include "shoal_type_tables.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    shmem_ctx_t ctx;
    shmem_team_t team;
    void *dest;
    const void *source;
    void *fetch;
    size_t nelems, fill; /* fill: ivars this PE sets to FZ_IVAR first */
    size_t bsize;        /* shmem_ibput/ibget: elements per block (nelems: blocks) */
    ptrdiff_t dst, sst;
    int pe, cmp, sig_op, root, nreduce, start, log_stride, size;
    uint64_t *sig_addr;
    uint64_t signal;
    long long value, cond;
    int *status;
    size_t *indices;
    int vector_null;
    void *pwrk;
    long *psync;
} fz_call_t;

#define FZ_IVAR 5 /* what every ivar holds before a wait: conditions are drawn true */

static int status_buf[FZ_OBJ];
static size_t indices_buf[FZ_OBJ];
static long double cmpvals_buf[FZ_OBJ];

/* The untyped team collectives, in the table's form (the table's own "as_" rows, the
 * active-set 32 and 64 forms, take an active set). */
static const shoal_routine_info_t extra_rows[] = {
    {"shmem_broadcastmem", "broadcast", "mem", (shoal_fn_t)shmem_broadcastmem, 1},
    {"shmem_collectmem", "collect", "mem", (shoal_fn_t)shmem_collectmem, 1},
    {"shmem_fcollectmem", "fcollect", "mem", (shoal_fn_t)shmem_fcollectmem, 1},
    {"shmem_alltoallmem", "alltoall", "mem", (shoal_fn_t)shmem_alltoallmem, 1},
    {"shmem_alltoallsmem", "alltoalls", "mem", (shoal_fn_t)shmem_alltoallsmem, 1},
};
#define N_EXTRA (sizeof(extra_rows) / sizeof(extra_rows[0]))

static const shoal_routine_info_t *row_at(size_t i)
{
    return i < SHOAL_ROUTINE_INFO_COUNT ? &shoal_routine_info[i]
                                        : &extra_rows[i - SHOAL_ROUTINE_INFO_COUNT];
}

static int op_is(const char *op, const char *want)
{
    return strcmp(op, want) == 0;
}

static int op_ends(const char *op, const char *suffix)
{
    size_t n = strlen(op), m = strlen(suffix);

    return n >= m && strcmp(op + n - m, suffix) == 0;
}

/* ---- the calls, one function per table key ---- */

#define FZ_UNPAREN(...) __VA_ARGS__
/* A routine with or without a leading context argument. */
#define FZ_CX(RT, P, A)                                                                            \
    (is_ctx ? (void)((RT(*)(shmem_ctx_t, FZ_UNPAREN P))fn)(c->ctx, FZ_UNPAREN A)                   \
            : (void)((RT(*)(FZ_UNPAREN P))fn)(FZ_UNPAREN A))
#define FZ_CALL(RT, P, A) ((void)((RT(*)(FZ_UNPAREN P))fn)(FZ_UNPAREN A))

#define FZ_PTR_OPS(T)                                                                              \
    if (op_is(b, "put") || op_is(b, "put_nbi") || op_is(b, "get") || op_is(b, "get_nbi"))          \
        return FZ_CX(void, (T *, const T *, size_t, int), (c->dest, c->source, c->nelems, c->pe)), \
               1;                                                                                  \
    if (op_is(b, "iput") || op_is(b, "iget"))                                                      \
        return FZ_CX(void, (T *, const T *, ptrdiff_t, ptrdiff_t, size_t, int),                    \
                     (c->dest, c->source, c->dst, c->sst, c->nelems, c->pe)),                      \
               1;                                                                                  \
    if (op_is(b, "ibput") || op_is(b, "ibget"))                                                    \
        return FZ_CX(void, (T *, const T *, ptrdiff_t, ptrdiff_t, size_t, size_t, int),            \
                     (c->dest, c->source, c->dst, c->sst, c->bsize, c->nelems, c->pe)),            \
               1;                                                                                  \
    if (op_is(b, "put_signal") || op_is(b, "put_signal_nbi"))                                      \
        return FZ_CX(void, (T *, const T *, size_t, uint64_t *, uint64_t, int, int),               \
                     (c->dest, c->source, c->nelems, c->sig_addr, c->signal, c->sig_op, c->pe)),   \
               1;                                                                                  \
    if (op_is(b, "broadcast"))                                                                     \
        return FZ_CALL(int, (shmem_team_t, T *, const T *, size_t, int),                           \
                       (c->team, c->dest, c->source, c->nelems, c->root)),                         \
               1;                                                                                  \
    if (op_is(b, "collect") || op_is(b, "fcollect") || op_is(b, "alltoall") ||                     \
        op_ends(b, "_reduce") || op_ends(b, "scan"))                                               \
        return FZ_CALL(int, (shmem_team_t, T *, const T *, size_t),                                \
                       (c->team, c->dest, c->source, c->nelems)),                                  \
               1;                                                                                  \
    if (op_is(b, "alltoalls"))                                                                     \
        return FZ_CALL(int, (shmem_team_t, T *, const T *, ptrdiff_t, ptrdiff_t, size_t),          \
                       (c->team, c->dest, c->source, c->dst, c->sst, c->nelems)),                  \
               1;                                                                                  \
    if (op_ends(b, "_to_all"))                                                                     \
        return FZ_CALL(void, (T *, const T *, int, int, int, int, T *, long *),                    \
                       (c->dest, c->source, c->nreduce, c->start, c->log_stride, c->size, c->pwrk, \
                        c->psync)),                                                                \
               1;                                                                                  \
    if (op_is(b, "as_broadcast"))                                                                  \
        return FZ_CALL(void, (T *, const T *, size_t, int, int, int, int, long *),                 \
                       (c->dest, c->source, c->nelems, c->root, c->start, c->log_stride, c->size,  \
                        c->psync)),                                                                \
               1;                                                                                  \
    if (op_is(b, "as_collect") || op_is(b, "as_fcollect") || op_is(b, "as_alltoall"))              \
        return FZ_CALL(                                                                            \
                   void, (T *, const T *, size_t, int, int, int, long *),                          \
                   (c->dest, c->source, c->nelems, c->start, c->log_stride, c->size, c->psync)),   \
               1;                                                                                  \
    if (op_is(b, "as_alltoalls"))                                                                  \
        return FZ_CALL(void,                                                                       \
                       (T *, const T *, ptrdiff_t, ptrdiff_t, size_t, int, int, int, long *),      \
                       (c->dest, c->source, c->dst, c->sst, c->nelems, c->start, c->log_stride,    \
                        c->size, c->psync)),                                                       \
               1;

/* Value-typed routines: T by value. Waits first set this PE's ivars. */
#define FZ_VAL_OPS(T)                                                                              \
    T v = (T)c->value, w = (T)c->cond, *vals = (T *)cmpvals_buf;                                   \
    size_t i;                                                                                      \
    if (op_is(b, "p") || op_is(b, "atomic_set") || op_is(b, "set") || op_is(b, "atomic_add") ||    \
        op_is(b, "add") || op_is(b, "atomic_and") || op_is(b, "atomic_or") ||                      \
        op_is(b, "atomic_xor"))                                                                    \
        return FZ_CX(void, (T *, T, int), (c->dest, v, c->pe)), 1;                                 \
    if (op_is(b, "g") || op_is(b, "atomic_fetch") || op_is(b, "fetch"))                            \
        return FZ_CX(T, (const T *, int), (c->source, c->pe)), 1;                                  \
    if (op_is(b, "atomic_swap") || op_is(b, "swap") || op_is(b, "atomic_fetch_add") ||             \
        op_is(b, "fadd") || op_is(b, "atomic_fetch_and") || op_is(b, "atomic_fetch_or") ||         \
        op_is(b, "atomic_fetch_xor"))                                                              \
        return FZ_CX(T, (T *, T, int), (c->dest, v, c->pe)), 1;                                    \
    if (op_is(b, "atomic_compare_swap") || op_is(b, "cswap"))                                      \
        return FZ_CX(T, (T *, T, T, int), (c->dest, w, v, c->pe)), 1;                              \
    if (op_is(b, "atomic_inc") || op_is(b, "inc"))                                                 \
        return FZ_CX(void, (T *, int), (c->dest, c->pe)), 1;                                       \
    if (op_is(b, "atomic_fetch_inc") || op_is(b, "finc"))                                          \
        return FZ_CX(T, (T *, int), (c->dest, c->pe)), 1;                                          \
    if (op_is(b, "atomic_fetch_nbi"))                                                              \
        return FZ_CX(void, (T *, const T *, int), (c->fetch, c->source, c->pe)), 1;                \
    if (op_is(b, "atomic_fetch_inc_nbi"))                                                          \
        return FZ_CX(void, (T *, T *, int), (c->fetch, c->dest, c->pe)), 1;                        \
    if (op_is(b, "atomic_compare_swap_nbi"))                                                       \
        return FZ_CX(void, (T *, T *, T, T, int), (c->fetch, c->dest, w, v, c->pe)), 1;            \
    if (op_ends(b, "_nbi") && strncmp(b, "atomic_", 7) == 0)                                       \
        return FZ_CX(void, (T *, T *, T, int), (c->fetch, c->dest, v, c->pe)), 1;                  \
    for (i = 0; i < c->fill; i++)                                                                  \
        memcpy((char *)c->dest + i * sizeof(T), &(T){FZ_IVAR}, sizeof(T));                         \
    for (i = 0; i < c->nelems && i < FZ_OBJ; i++)                                                  \
        vals[i] = v;                                                                               \
    if (c->vector_null)                                                                            \
        vals = NULL;                                                                               \
    if (op_is(b, "wait"))                                                                          \
        return FZ_CALL(void, (T *, T), (c->dest, v)), 1;                                           \
    if (op_is(b, "wait_until"))                                                                    \
        return FZ_CALL(void, (T *, int, T), (c->dest, c->cmp, v)), 1;                              \
    if (op_is(b, "test"))                                                                          \
        return FZ_CALL(int, (T *, int, T), (c->dest, c->cmp, v)), 1;                               \
    if (op_is(b, "wait_until_all"))                                                                \
        return FZ_CALL(void, (T *, size_t, const int *, int, T),                                   \
                       (c->dest, c->nelems, c->status, c->cmp, v)),                                \
               1;                                                                                  \
    if (op_is(b, "test_all"))                                                                      \
        return FZ_CALL(int, (T *, size_t, const int *, int, T),                                    \
                       (c->dest, c->nelems, c->status, c->cmp, v)),                                \
               1;                                                                                  \
    if (op_is(b, "wait_until_any") || op_is(b, "test_any"))                                        \
        return FZ_CALL(size_t, (T *, size_t, const int *, int, T),                                 \
                       (c->dest, c->nelems, c->status, c->cmp, v)),                                \
               1;                                                                                  \
    if (op_is(b, "wait_until_some") || op_is(b, "test_some"))                                      \
        return FZ_CALL(size_t, (T *, size_t, size_t *, const int *, int, T),                       \
                       (c->dest, c->nelems, c->indices, c->status, c->cmp, v)),                    \
               1;                                                                                  \
    if (op_is(b, "wait_until_all_vector"))                                                         \
        return FZ_CALL(void, (T *, size_t, const int *, int, const T *),                           \
                       (c->dest, c->nelems, c->status, c->cmp, vals)),                             \
               1;                                                                                  \
    if (op_is(b, "test_all_vector"))                                                               \
        return FZ_CALL(int, (T *, size_t, const int *, int, const T *),                            \
                       (c->dest, c->nelems, c->status, c->cmp, vals)),                             \
               1;                                                                                  \
    if (op_is(b, "wait_until_any_vector") || op_is(b, "test_any_vector"))                          \
        return FZ_CALL(size_t, (T *, size_t, const int *, int, const T *),                         \
                       (c->dest, c->nelems, c->status, c->cmp, vals)),                             \
               1;                                                                                  \
    if (op_is(b, "wait_until_some_vector") || op_is(b, "test_some_vector"))                        \
        return FZ_CALL(size_t, (T *, size_t, size_t *, const int *, int, const T *),               \
                       (c->dest, c->nelems, c->indices, c->status, c->cmp, vals)),                 \
               1;

#define FZ_PROLOGUE                                                                                \
    int is_ctx = strncmp(op, "ctx_", 4) == 0;                                                      \
    const char *b = is_ctx ? op + 4 : op;

#define FZ_REAL_KEY(T, N)                                                                          \
    static int call_##N(const char *op, shoal_fn_t fn, fz_call_t *c)                               \
    {                                                                                              \
        FZ_PROLOGUE                                                                                \
        FZ_PTR_OPS(T)                                                                              \
        {                                                                                          \
            FZ_VAL_OPS(T)                                                                          \
        }                                                                                          \
        return 0;                                                                                  \
    }
#define FZ_PTR_KEY(T, N)                                                                           \
    static int call_##N(const char *op, shoal_fn_t fn, fz_call_t *c)                               \
    {                                                                                              \
        FZ_PROLOGUE                                                                                \
        FZ_PTR_OPS(T)                                                                              \
        return 0;                                                                                  \
    }

SHOAL_RMA_TYPES(FZ_REAL_KEY)
FZ_PTR_KEY(float _Complex, complexf)
FZ_PTR_KEY(double _Complex, complexd)
FZ_PTR_KEY(void, sized)

typedef int (*call_fn_t)(const char *op, shoal_fn_t fn, fz_call_t *c);
static const struct {
    const char *key;
    call_fn_t call;
} keys[] = {
#define FZ_KEY_ROW(T, N) {#N, call_##N},
    SHOAL_RMA_TYPES(FZ_KEY_ROW){"complexf", call_complexf},
    {"complexd", call_complexd},
    {"8", call_sized},
    {"16", call_sized},
    {"32", call_sized},
    {"64", call_sized},
    {"128", call_sized},
    {"mem", call_sized},
};

static void call_row(const shoal_routine_info_t *r, fz_call_t *c)
{
    size_t i;

    for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        if (strcmp(keys[i].key, r->key) == 0) {
            if (keys[i].call(r->op, r->fn, c))
                return;
            break;
        }
    }
    fprintf(stderr, "fuzz: PE %d: no call form for %s (op %s, key %s)\n", fz_me, r->name, r->op,
            r->key);
    exit(99);
}

/* ---- families: which rows, and how their arguments are drawn ---- */

enum {
    F_RMA,
    F_STRIDED,
    F_PG,
    F_SIGNAL,
    F_AMO,
    F_AMO_DEPR,
    F_WAIT,
    F_TEST,
    F_COLL,
    F_REDUCE,
    F_ASET,
    F_COUNT
};

static int family_of(const char *op)
{
    const char *b = strncmp(op, "ctx_", 4) == 0 ? op + 4 : op;

    if (op_is(b, "put") || op_is(b, "get") || op_is(b, "put_nbi") || op_is(b, "get_nbi"))
        return F_RMA;
    if (op_is(b, "iput") || op_is(b, "iget") || op_is(b, "ibput") || op_is(b, "ibget"))
        return F_STRIDED;
    if (op_is(b, "p") || op_is(b, "g"))
        return F_PG;
    if (op_is(b, "put_signal") || op_is(b, "put_signal_nbi"))
        return F_SIGNAL;
    if (strncmp(b, "atomic_", 7) == 0)
        return F_AMO;
    if (op_is(b, "fetch") || op_is(b, "set") || op_is(b, "swap") || op_is(b, "cswap") ||
        op_is(b, "fadd") || op_is(b, "add") || op_is(b, "inc") || op_is(b, "finc"))
        return F_AMO_DEPR;
    if (strncmp(b, "wait", 4) == 0)
        return F_WAIT;
    if (strncmp(b, "test", 4) == 0)
        return F_TEST;
    if (op_ends(b, "_reduce") || op_ends(b, "scan")) /* and shmem_sum_inscan/exscan */
        return F_REDUCE;
    if (op_ends(b, "_to_all") || strncmp(b, "as_", 3) == 0)
        return F_ASET;
    return F_COLL;
}

int fz_typed_families(void)
{
    return F_COUNT;
}

size_t fz_typed_family_rows(int family)
{
    size_t i, n = 0;

    for (i = 0; i < SHOAL_ROUTINE_INFO_COUNT + N_EXTRA; i++)
        n += family_of(row_at(i)->op) == family;
    return n;
}

/* A row of the family, uniformly (rows in table order: the same on every PE). */
static const shoal_routine_info_t *pick_row(int family)
{
    size_t i, k;

    k = fz_below((unsigned)fz_typed_family_rows(family));
    for (i = 0;; i++)
        if (family_of(row_at(i)->op) == family && k-- == 0)
            return row_at(i);
}

static void call_if(int calls, const shoal_routine_info_t *r, fz_call_t *c, const char *who)
{
    if (!calls)
        return;
    fz_desc_print(who);
    call_row(r, c);
    fz_returned();
}

/* Put, get, their nbi and ctx forms; p and g; put-with-signal. */
static void one_sided(int family, const shoal_routine_info_t *r)
{
    const char *op = r->op;
    int is_ctx = strncmp(op, "ctx_", 4) == 0,
        put = strstr(op, "put") != NULL || op_is(op, "p") || op_is(op, "ctx_p");
    int blocked = strstr(op, "ibput") != NULL || strstr(op, "ibget") != NULL;
    size_t elem = r->elem_size;
    fz_call_t c = {.ctx = SHMEM_CTX_DEFAULT};
    fz_addr_t remote, sig = {0};
    ptrdiff_t rstride = 1;
    void *local;
    int n = fz_npes, calls, gated = 0;

    if (is_ctx) {
        c.ctx = fz_draw_ctx("ctx", &n);
        gated = fz_handle_gated;
    }
    remote = fz_draw_sym(put ? "dest" : "source", FZ_RMA, elem, 0);
    local = family == F_PG ? NULL : fz_draw_local(put ? "source" : "dest", elem > 1);
    if (family == F_STRIDED) {
        c.dst = fz_draw_stride("dst", put);
        c.sst = fz_draw_stride("sst", !put);
        rstride = put ? c.dst : c.sst;
    }
    if (blocked) {
        static const size_t bsizes[] = {0, 1, 1, 2, 3};

        c.bsize = bsizes[fz_below(sizeof(bsizes) / sizeof(bsizes[0]))];
        fz_desc("bsize=%zu", c.bsize);
    }
    if (family == F_PG) {
        c.value = (long long)fz_below(100);
        fz_desc("value=%lld", c.value);
        c.nelems = 1;
    } else if (blocked) {
        /* blocks that fit: the last one's bsize elements too */
        size_t least = c.bsize > 1 ? c.bsize : 1, units = remote.room / elem;

        c.nelems = fz_draw_count("nblocks",
                                 units < least ? 0 : fz_fit((units - least + 1) * elem, elem,
                                                            rstride, 1),
                                 remote.pastable && c.bsize > 0);
        fz_expect(fz_count_bad && c.bsize > 0, "nblocks runs past the object or the segment");
    } else {
        c.nelems = fz_draw_count("nelems", fz_fit(remote.room, elem, rstride, 1), remote.pastable);
        fz_expect(fz_count_bad, "nelems runs past the object or the segment");
    }
    if (family == F_SIGNAL) {
        static const int ops[] = {
            SHMEM_SIGNAL_SET, SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD, SHMEM_SIGNAL_ADD, 2, -1, 99};

        sig = fz_draw_sym("sig_addr", FZ_SIG, sizeof(uint64_t), 1);
        c.sig_addr = sig.p;
        c.signal = fz_rand();
        c.sig_op = fz_pick_int("sig_op", ops, sizeof(ops) / sizeof(ops[0]));
        fz_expect(sig.bad || sig.misaligned, "sig_addr is not an aligned symmetric word");
        fz_expect(c.sig_op != SHMEM_SIGNAL_SET && c.sig_op != SHMEM_SIGNAL_ADD,
                  "sig_op is invalid");
    }
    c.pe = fz_draw_pe("pe", n);
    fz_expect(!gated && c.ctx == SHMEM_CTX_INVALID, "ctx is SHMEM_CTX_INVALID");
    fz_expect(!gated && (c.pe < 0 || c.pe >= n), "pe is out of range");
    fz_expect(family == F_STRIDED && (c.dst < 1 || c.sst < 1), "a stride is below 1");
    fz_expect(blocked && ((size_t)c.dst < c.bsize || (size_t)c.sst < c.bsize),
              "a stride is below bsize");
    fz_expect(c.nelems > 0 && (!blocked || c.bsize > 0) && remote.bad,
              "the remote address is not symmetric");
    calls = fz_draw_callers();
    c.dest = put ? remote.p : local;
    c.source = put ? local : remote.p;
    call_if(calls, r, &c, fz_who);
}

static void amo(const shoal_routine_info_t *r)
{
    const char *op = r->op;
    int is_ctx = strncmp(op, "ctx_", 4) == 0, n = fz_npes, calls;
    const char *b = is_ctx ? op + 4 : op;
    int fetch_only = op_is(b, "atomic_fetch") || op_is(b, "fetch") || op_is(b, "atomic_fetch_nbi");
    fz_call_t c = {.ctx = SHMEM_CTX_DEFAULT};
    fz_addr_t t;
    int gated = 0;

    if (is_ctx) {
        c.ctx = fz_draw_ctx("ctx", &n);
        gated = fz_handle_gated;
    }
    t = fz_draw_sym(fetch_only ? "source" : "dest", FZ_AMO, r->elem_size, 1);
    fz_expect(t.bad || t.misaligned, "the target is not an aligned symmetric object");
    c.dest = t.p;
    c.source = t.p;
    if (op_ends(b, "_nbi"))
        c.fetch = fz_draw_local("fetch", 1);
    c.value = (long long)fz_below(16);
    c.cond = (long long)fz_below(4);
    fz_desc("value=%lld cond=%lld", c.value, c.cond);
    c.pe = fz_draw_pe("pe", n);
    fz_expect(!gated && c.ctx == SHMEM_CTX_INVALID, "ctx is SHMEM_CTX_INVALID");
    fz_expect(!gated && (c.pe < 0 || c.pe >= n), "pe is out of range");
    calls = fz_draw_callers();
    call_if(calls, r, &c, fz_who);
}

/* The value that makes "FZ_IVAR cmp value" true, so that a wait returns at once:
 * nobody else ever writes these ivars, and a wait for a change that never comes
 * is a hang the spec allows, not a bug. */
static long long true_value(int cmp)
{
    switch (cmp) {
    case SHMEM_CMP_NE:
    case SHMEM_CMP_GT:
        return FZ_IVAR - 1;
    case SHMEM_CMP_LT:
        return FZ_IVAR + 1;
    default:
        return FZ_IVAR; /* EQ, LE, GE, and invalid operators */
    }
}

static void wait_test(int family, const shoal_routine_info_t *r)
{
    const char *op = r->op;
    size_t elem = r->elem_size, i;
    int many = !op_is(op, "wait") && !op_is(op, "wait_until") && !op_is(op, "test"), calls;
    fz_call_t c = {0};
    fz_addr_t iv;

    iv = fz_draw_sym(many ? "ivars" : "ivar", FZ_IVARS, elem, 1);
    c.dest = iv.p;
    if (many) {
        static const int status_vals[] = {0, 0, 0, 1, 1, 7, -1};
        unsigned mode = fz_below(4);

        c.nelems = fz_draw_count("nelems", fz_fit(iv.room, elem, 1, 1), iv.pastable);
        fz_expect(fz_count_bad, "nelems runs past the object or the segment");
        c.status = mode == 0 ? NULL : status_buf;
        for (i = 0; mode > 0 && i < c.nelems && i < FZ_OBJ; i++)
            status_buf[i] = mode == 1 ? 0 : mode == 2 ? 1 : status_vals[fz_below(7)];
        fz_desc("status=%s", mode == 0   ? "NULL"
                             : mode == 1 ? "all-included"
                             : mode == 2 ? "all-excluded"
                                         : "mixed");
        c.indices = fz_chance(85) ? indices_buf : NULL;
        fz_desc("indices=%s", c.indices ? "array" : "NULL");
        fz_expect(strstr(op, "some") && c.nelems > 0 && c.indices == NULL, "indices is NULL");
        if (strstr(op, "vector") != NULL) {
            c.vector_null = fz_chance(15);
            fz_desc("cmp_values=%s", c.vector_null ? "NULL" : "array");
            fz_expect(c.nelems > 0 && c.vector_null, "cmp_values is NULL");
        }
    } else {
        c.nelems = 1;
    }
    if (op_is(op, "wait")) {
        c.value = FZ_IVAR + 1; /* waits while *ivar == value: returns at once */
    } else {
        c.cmp = fz_draw_cmp("cmp");
        fz_expect(c.cmp < SHMEM_CMP_EQ || c.cmp > SHMEM_CMP_GE, "cmp is invalid");
        c.value = family == F_WAIT ? true_value(c.cmp) : FZ_IVAR - 2 + (long long)fz_below(5);
    }
    fz_desc("value=%lld", c.value);
    fz_expect(c.nelems > 0 && iv.bad, "the ivars are not symmetric");
    fz_expect(c.nelems > 0 && iv.misaligned, "the ivars are misaligned");
    /* this PE's own ivars, inside their object: set before the call */
    c.fill = iv.writable ? (c.nelems < iv.room / elem ? c.nelems : iv.room / elem) : 0;
    calls = fz_draw_callers();
    call_if(calls, r, &c, fz_who);
}

/* The erring PE may pass one argument of its own: one it can diagnose alone (the
 * others then wait in the collective until the launcher ends the job), or, under
 * SHOAL_CHECK_COLL=1, a value that differs from the others' (undefined without). */
enum { SPOIL_NONE, SPOIL_TEAM, SPOIL_DEST, SPOIL_ROOT, SPOIL_NELEMS, SPOIL_ROOT2, SPOIL_PSYNC };

static int draw_spoil(int team, int root, int nelems_checked, int tn)
{
    static const char *const names[] = {"",           "team(INVALID)", "dest(stack)", "PE_root(-1)",
                                        "nelems(+1)", "PE_root(+1)",   "pSync(NULL)"};
    int cand[6], n = 0, k;

    cand[n++] = team ? SPOIL_TEAM : SPOIL_PSYNC;
    cand[n++] = SPOIL_DEST;
    if (root)
        cand[n++] = SPOIL_ROOT;
    if (fz_check_coll && nelems_checked)
        cand[n++] = SPOIL_NELEMS;
    if (fz_check_coll && root && tn > 1)
        cand[n++] = SPOIL_ROOT2;
    if (!fz_chance(20))
        return SPOIL_NONE;
    k = cand[fz_below((unsigned)n)];
    fz_desc("spoiled-on-PE-%d=%s", fz_erring, names[k]);
    return k;
}

/* index0: the erring PE is index 0 of the team or set. A differing value is seen
 * by the PE that differs, comparing with index 0, or by all the others when it is
 * index 0 (which may then return before they end the job: nothing to expect). */
static void apply_spoil(int k, fz_call_t *c, int tn, int collect, int count_bad, int index0)
{
    if (k == SPOIL_NONE || fz_me != fz_erring)
        return;
    fz_expect(k == SPOIL_TEAM || k == SPOIL_ROOT || k == SPOIL_PSYNC ||
                  (k == SPOIL_DEST && (c->nelems > 0 || collect)),
              "the erring PE's argument is invalid");
    fz_expect(k == SPOIL_NELEMS && !count_bad && !index0, "the erring PE's nelems differs");
    fz_expect(k == SPOIL_ROOT2 && !index0, "the erring PE's PE_root differs");
    switch (k) {
    case SPOIL_TEAM:
        c->team = SHMEM_TEAM_INVALID;
        break;
    case SPOIL_DEST:
        c->dest = fz_stack_buf;
        break;
    case SPOIL_ROOT:
        c->root = -1;
        break;
    case SPOIL_NELEMS:
        if (!count_bad)
            c->nelems++, c->nreduce++;
        break;
    case SPOIL_ROOT2:
        c->root = c->root == INT_MAX ? 0 : tn > 0 ? (c->root + 1) % tn : c->root + 1;
        break;
    case SPOIL_PSYNC:
        c->psync = NULL;
        break;
    }
}

/* Team and active-set collectives: every member calls (a PE outside a valid team
 * or active set makes no call, as the spec wants). */
static void collective(int family, const shoal_routine_info_t *r)
{
    const char *op = r->op, *b = strncmp(op, "as_", 3) == 0 ? op + 3 : op;
    size_t elem = r->elem_size, dfit, sfit, fit;
    int aset = family == F_ASET, tn, skip, to_all = op_ends(op, "_to_all"), spoil, bad_set = 0;
    int gated = 0, count_bad;
    int bcast = op_is(b, "broadcast"), collect = op_is(b, "collect"), pastable;
    fz_call_t c = {0};
    fz_addr_t d, s;
    ptrdiff_t stride = 1;
    size_t mult;

    if (aset) {
        bad_set = fz_draw_aset(&c.start, &c.log_stride, &c.size, &tn, &skip);
        fz_expect(bad_set, "the active set is invalid");
    } else {
        c.team = fz_draw_team("team");
        tn = fz_team_n;
        skip = fz_team_skip;
        gated = fz_handle_gated;
        fz_expect(!gated && c.team == SHMEM_TEAM_INVALID, "team is SHMEM_TEAM_INVALID");
    }
    d = fz_draw_sym("dest", FZ_CDST, elem, 0);
    s = fz_draw_sym("source", FZ_CSRC, elem, 0);
    c.dest = d.p;
    c.source = s.p;
    if (op_is(b, "alltoalls")) {
        c.dst = fz_draw_stride("dst", 1);
        c.sst = fz_draw_stride("sst", 1);
    }
    mult = bcast || to_all || op_ends(op, "_reduce") || op_ends(op, "scan") ? 1 : (size_t)tn;
    dfit = fz_fit(d.room, elem, op_is(b, "alltoalls") ? c.dst : stride, mult);
    sfit = fz_fit(s.room, elem, op_is(b, "alltoalls") ? c.sst : stride,
                  op_is(b, "alltoall") || op_is(b, "alltoalls") ? (size_t)tn : 1);
    fit = dfit < sfit ? dfit : sfit;
    /* collect checks only where dest starts: a dest too small is not seen */
    pastable = (dfit == fit && d.pastable && !collect) || (sfit == fit && s.pastable);
    c.nelems = fz_draw_count(to_all ? "nreduce" : "nelems", fit, pastable);
    count_bad = fz_count_bad;
    c.nreduce = (int)c.nelems; /* to_all takes an int: huge counts wrap, some to 0 */
    if (to_all) {
        fz_desc("(as int %d)", c.nreduce);
        fz_expect(c.nreduce < 0 || (count_bad && c.nreduce > 0), "nreduce is invalid");
        count_bad = c.nreduce < 0 || (count_bad && c.nreduce > 0);
    } else {
        fz_expect(count_bad, "nelems runs past an object or the segment");
    }
    /* collect looks at dest even with nothing to bring, but for NULL (the annex) */
    fz_expect((c.nelems > 0 && (!to_all || c.nreduce > 0) && (d.bad || s.bad)) ||
                  (collect && d.bad && (d.p != NULL || c.nelems > 0)),
              "dest or source is not symmetric");
    if (bcast) {
        static const int bad[] = {-1, INT_MAX, INT_MIN};

        c.root = fz_chance(80)   ? (int)fz_below((unsigned)tn)
                 : fz_chance(50) ? tn
                                 : bad[fz_below(3)];
        fz_desc("PE_root=%d", c.root);
        fz_expect(c.root < 0 || c.root >= tn, "PE_root is out of range");
    }
    if (aset) {
        fz_addr_t p = fz_draw_sym("pSync", FZ_PSYNC, sizeof(long), 1);

        c.psync = p.p;
        fz_expect(p.bad || p.misaligned, "pSync is not an aligned symmetric array");
        if (to_all)
            c.pwrk = fz_chance(80) ? fz_draw_local("pWrk", 1) : NULL;
    }
    fz_expect(op_is(b, "alltoalls") && (c.dst < 1 || c.sst < 1), "a stride is below 1");
    spoil = draw_spoil(!aset, bcast, !collect, tn);
    apply_spoil(spoil, &c, tn, collect, count_bad,
                aset ? fz_me == c.start
                     : gated || c.team == SHMEM_TEAM_INVALID || shmem_team_my_pe(c.team) == 0);
    call_if(!skip, r, &c, "by every member");
}

void fz_typed_call(int family)
{
    const shoal_routine_info_t *r = pick_row(family);

    fz_desc_reset(r->name);
    switch (family) {
    case F_RMA:
    case F_STRIDED:
    case F_PG:
    case F_SIGNAL:
        one_sided(family, r);
        break;
    case F_AMO:
    case F_AMO_DEPR:
        amo(r);
        break;
    case F_WAIT:
    case F_TEST:
        wait_test(family, r);
        break;
    default:
        collective(family, r);
        break;
    }
}
