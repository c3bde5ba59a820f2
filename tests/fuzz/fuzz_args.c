/* fuzz_args SEED: from the seed (argv[1] or FUZZ_SEED), every PE draws the same
 * one to three calls, with arguments from valid and invalid ranges, and makes
 * them; then shmem_barrier_all, shmem_finalize, exit 0. Each run must end in
 * success or in the library's one-line error with a non-zero exit; run-fuzz.sh
 * judges that. Each call is printed before it is made ("fuzz: PE n: call i:
 * routine(args) by who"), so that a failing seed is reproduced by running it again
 * (under the same environment: the calls a seed draws never change; how far other
 * PEs get before an error ends the job is timing). A call with an argument the
 * library must reject that returns anyway is reported ("MISSED", exit 98).
 *
 * Knobs (environment): FUZZ_HANDLES=0 leaves out destroyed and garbage team and
 * context handles (on by default); FUZZ_LOCAL_NULL=0 leaves out NULL for local
 * pointers (source buffers, out-arguments; on by default); FUZZ_UCX=0 keeps SHOAL_TRANSPORT
 * at auto. SHOAL_CHECK, SHOAL_CHECK_COLL and SHOAL_TRANSPORT are drawn from the seed
 * unless set. Excluded by design (the spec leaves them undefined and no library can
 * see them): see fuzz_draw.c; waits are only ever made on conditions true at once
 * (fuzz_typed.c); no PE sets a lock it holds; a collective's arguments differ
 * across PEs only where the erring PE can see it alone, or SHOAL_CHECK_COLL=1
 * compares them; the deprecated collectives' pWrk, which Shoal never reads, is
 * not fuzzed beyond NULL; shmem_global_exit and a second shmem_init are not
 * called (they end or restart the job by design). */
#include "fuzz.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define FZ_ALARM 60 /* seconds: past oshrun --timeout, for runs without it */

static int env_flag(const char *name, int dflt)
{
    const char *v = getenv(name);
    static const char *const yes[] = {"1", "yes", "true", "on", "y"};
    size_t i;

    if (v == NULL || v[0] == '\0')
        return dflt;
    for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        if (strcasecmp(v, yes[i]) == 0)
            return 1;
    return 0;
}

/* The seed's settings, each drawn whether or not the environment already has it. */
static void draw_env(void)
{
    int check = fz_chance(50), coll = fz_chance(25), ucx = fz_chance(20);

    if (getenv("SHOAL_CHECK") == NULL)
        setenv("SHOAL_CHECK", check ? "1" : "0", 1);
    if (getenv("SHOAL_CHECK_COLL") == NULL) {
        setenv("SHOAL_CHECK_COLL", coll ? "1" : "0", 1);
        if (getenv("SHOAL_CHECK_COLL_TIMEOUT") == NULL)
            setenv("SHOAL_CHECK_COLL_TIMEOUT", "3", 1);
    }
    if (getenv("SHOAL_TRANSPORT") == NULL && env_flag("FUZZ_UCX", 1) && ucx)
        setenv("SHOAL_TRANSPORT", "ucx", 1);
    fz_check = env_flag("SHOAL_CHECK", 0);
    fz_check_coll = env_flag("SHOAL_CHECK_COLL", 0);
    fz_handles = env_flag("FUZZ_HANDLES", 1);
    fz_local_null = env_flag("FUZZ_LOCAL_NULL", 1);
}

static void *maybe_null(void *p, const char *name)
{
    if (fz_local_null && fz_chance(15)) {
        fz_desc("%s=NULL", name);
        return NULL;
    }
    fz_desc("%s=valid", name);
    return p;
}

/* ---- symmetric heap ---- */

static const size_t heap_sizes[] = {0,
                                    1,
                                    8,
                                    100,
                                    4096,
                                    1 << 20,
                                    (size_t)256 << 20,
                                    (size_t)1 << 40,
                                    SIZE_MAX,
                                    (size_t)-16,
                                    (size_t)INT_MIN,
                                    SIZE_MAX / 2 + 1};
#define N_HEAP_SIZES (sizeof(heap_sizes) / sizeof(heap_sizes[0]))

static size_t draw_size(const char *name, const size_t *set, unsigned n)
{
    size_t v = set[fz_below(n)];

    fz_desc("%s=%zu", name, v);
    return v;
}

/* A block argument for realloc and free: made here (collectively) when valid. */
static void *draw_block(const char *name, void **fresh)
{
    unsigned k = fz_below(7);
    static const char *const labels[] = {"fresh", "fresh", "NULL", "stack", "fresh+8(interior)",
                                         "freed", "global"};

    *fresh = NULL;
    fz_desc("%s=%s", name, labels[k]);
    fz_expect(k >= 3, "ptr is not a block from shmem_malloc");
    if (k <= 1 || k == 4)
        *fresh = shmem_malloc(64);
    switch (k) {
    case 0:
    case 1:
        return *fresh;
    case 2:
        return NULL;
    case 3:
        return fz_stack_buf;
    case 4:
        return (char *)*fresh + 8;
    case 5:
        return fz_freed_block;
    default:
        return &fz_erring; /* a global */
    }
}

static void heap(void)
{
    static const char *const names[] = {"shmem_malloc", "shmem_malloc_with_hints", "shmem_calloc",
                                        "shmem_align",  "shmem_realloc",           "shmem_free"};
    static const size_t counts[] = {0,          1, 3, 1000, 1 << 20, SIZE_MAX, SIZE_MAX / 2 + 1,
                                    (size_t)-16};
    static const size_t aligns[] = {
        0, 1, 3, 8, 48, 64, 4096, 1 << 20, 1 << 21, (size_t)1 << 40, SIZE_MAX, SIZE_MAX / 2 + 1};
    static const long hints[] = {
        0, SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE, 3, 4, -1, LONG_MIN};
    unsigned k = fz_below(6);
    size_t size = 0, count = 0, align = 0;
    long hint = 0;
    void *p = NULL, *fresh = NULL, *res = NULL;
    int spoil;

    fz_desc_reset(names[k]);
    if (k == 4 || k == 5)
        p = draw_block("ptr", &fresh);
    if (k == 2)
        count = draw_size("count", counts, sizeof(counts) / sizeof(counts[0]));
    if (k == 3) {
        align = draw_size("alignment", aligns, sizeof(aligns) / sizeof(aligns[0]));
        fz_expect(align == 0 || (align & (align - 1)) != 0, "alignment is no power of two");
    }
    if (k == 1) {
        hint = hints[fz_below(sizeof(hints) / sizeof(hints[0]))];
        fz_desc("hints=%ld", hint);
    }
    if (k != 5)
        size = draw_size("size", heap_sizes, N_HEAP_SIZES);
    /* a size that differs across PEs: only SHOAL_CHECK_COLL compares them, each PE
     * against PE 0, so the erring PE sees it itself unless it is PE 0 (then the
     * others do, and it may return first); calloc compares the product, and not
     * at all when the product overflows */
    spoil = fz_check_coll && k <= 3 && fz_chance(20);
    if (spoil) {
        size_t a, b;
        int differs = k != 2 || (!__builtin_mul_overflow(count, size, &a) &&
                                 !__builtin_mul_overflow(count, size + 8, &b) && a != b);

        fz_desc("spoiled-on-PE-%d=size(+8)", fz_erring);
        fz_expect(fz_me == fz_erring && fz_me != 0 && differs, "the erring PE's size differs");
        if (fz_me == fz_erring)
            size += 8;
    }
    fz_desc_print("by every PE");
    switch (k) {
    case 0:
        res = shmem_malloc(size);
        break;
    case 1:
        res = shmem_malloc_with_hints(size, hint);
        break;
    case 2:
        res = shmem_calloc(count, size);
        break;
    case 3:
        res = shmem_align(align, size);
        break;
    case 4:
        res = shmem_realloc(p, size);
        break;
    default:
        shmem_free(p);
        break;
    }
    fz_returned();
    /* leave the heap as it was: every PE got the same result */
    if (res != NULL)
        shmem_free(res);
    else if (k == 4 && fresh != NULL && size != 0)
        shmem_free(fresh);
}

/* ---- teams ---- */

static void team_split(void)
{
    static const int masks[] = {0, SHMEM_TEAM_NUM_CONTEXTS, 0xff, -1};
    static const int nctx[] = {0, 1, 4, -1, INT_MAX};
    const int n = fz_npes;
    shmem_team_config_t xcfg = {0}, ycfg = {0};
    shmem_team_t parent, t1 = SHMEM_TEAM_INVALID, t2 = SHMEM_TEAM_INVALID;
    shmem_team_t *o1, *o2;
    int strided = fz_chance(60), xmask, ymask, start = 0, stride = 0, size = 0, xrange = 0;
    int live, pn, index0, spoil, refused, rc;
    long long last;
    const shmem_team_config_t *xc, *yc;

    fz_desc_reset(strided ? "shmem_team_split_strided" : "shmem_team_split_2d");
    parent = fz_draw_team("parent_team");
    live = parent != SHMEM_TEAM_INVALID && !fz_handle_gated;
    pn = fz_team_n;
    index0 = !live || shmem_team_my_pe(parent) == 0;
    if (strided) {
        start = fz_pick_int("start", (const int[]){0, 0, 1, n - 1, -1, n, INT_MAX, INT_MIN}, 8);
        stride = fz_pick_int("stride", (const int[]){1, 1, 2, 0, -1, -2, INT_MAX, INT_MIN}, 8);
        size = fz_pick_int("size", (const int[]){1, 2, n, n - 1, 0, -1, n + 1, INT_MAX}, 8);
    } else {
        xrange = fz_pick_int("xrange", (const int[]){1, 2, n, n + 1, 0, -1, INT_MAX, INT_MIN}, 8);
    }
    xcfg.num_contexts = fz_pick_int("config.num_contexts", nctx, 5);
    xc = fz_chance(50) ? &xcfg : NULL;
    xmask = fz_pick_int("config_mask", masks, 4);
    ycfg.num_contexts = nctx[fz_below(5)];
    yc = fz_chance(50) ? &ycfg : NULL;
    ymask = masks[fz_below(4)];
    fz_desc("config=%s", xc ? "&cfg" : "NULL");
    o1 = maybe_null(&t1, "new_team");
    o2 = strided ? NULL : maybe_null(&t2, "yaxis_team");
    /* the compare is always on for splits: a differing argument is caught by
     * the PE that differs, unless it is the parent's index 0 (then by the others) */
    spoil = fz_chance(15);
    if (spoil) {
        fz_desc("spoiled-on-PE-%d=%s(+-1)", fz_erring, strided ? "size" : "xrange");
        fz_expect(live && fz_me == fz_erring && !index0, "the erring PE's argument differs");
        /* one off, down where one up would overflow (UBSan reports that) */
        if (fz_me == fz_erring && strided)
            size += size == INT_MAX ? -1 : 1;
        else if (fz_me == fz_erring)
            xrange += xrange == INT_MAX ? -1 : 1;
    }
    /* an invalid or empty triplet, or xrange below 1, is a failed split (-1) */
    last = start + (long long)(size - 1) * (size > 1 ? stride : 0);
    refused = live && (strided ? size < 1 || (stride == 0 && size > 1) || start < 0 ||
                                     start >= pn || last < 0 || last >= pn
                               : xrange < 1);
    fz_desc_print("by every PE");
    if (strided)
        rc = shmem_team_split_strided(parent, start, stride, size, xc, xmask, o1);
    else
        rc = shmem_team_split_2d(parent, xrange, xc, xmask, o1, yc, ymask, o2);
    fz_returned();
    fz_must_fail(refused, rc != 0 && t1 == SHMEM_TEAM_INVALID && t2 == SHMEM_TEAM_INVALID,
                 "the split names no team (expected -1 and SHMEM_TEAM_INVALID)");
    shmem_team_destroy(t2);
    shmem_team_destroy(t1);
}

static void team_query(void)
{
    static const char *const names[] = {"shmem_team_my_pe", "shmem_team_n_pes",
                                        "shmem_team_translate_pe", "shmem_team_get_config",
                                        "shmem_team_destroy"};
    static const long masks[] = {0, SHMEM_TEAM_NUM_CONTEXTS, -1, 0x100};
    unsigned k = fz_below(5);
    shmem_team_t team, dest = SHMEM_TEAM_INVALID;
    shmem_team_config_t cfg, *cp = &cfg;
    long mask = 0;
    int pe = 0, calls, skip;

    fz_desc_reset(names[k]);
    team = fz_draw_team(k == 2 ? "src_team" : "team");
    skip = fz_team_skip;
    fz_expect(k == 4 && (team == SHMEM_TEAM_WORLD || team == SHMEM_TEAM_SHARED),
              "a predefined team cannot be destroyed");
    if (k == 2) {
        pe = fz_draw_pe("src_pe", fz_team_n);
        dest = fz_draw_team("dest_team");
    }
    if (k == 3) {
        mask = masks[fz_below(4)];
        cp = fz_chance(20) ? NULL : &cfg;
        fz_desc("config_mask=%ld config=%s", mask, cp ? "&cfg" : "NULL");
    }
    calls = fz_draw_callers();
    if (k == 4) { /* collective over the team's members; every PE forgets it */
        fz_team_forget_drawn();
        if (skip)
            return;
        fz_desc_print("by every member");
        shmem_team_destroy(team);
        fz_returned();
        return;
    }
    if (!calls)
        return;
    fz_desc_print(fz_who);
    switch (k) {
    case 0:
        (void)shmem_team_my_pe(team);
        break;
    case 1:
        (void)shmem_team_n_pes(team);
        break;
    case 2:
        (void)shmem_team_translate_pe(team, pe, dest);
        break;
    default:
        (void)shmem_team_get_config(team, mask, cp);
        break;
    }
    fz_returned();
}

/* ---- contexts ---- */

static void ctx(void)
{
    static const char *const names[] = {"shmem_ctx_create", "shmem_team_create_ctx",
                                        "shmem_ctx_destroy", "shmem_ctx_get_team"};
    static const long options[] = {
        0, SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED, SHMEM_CTX_NOSTORE, 7, 8, 0x100, -1, LONG_MIN};
    unsigned k = fz_below(4);
    shmem_ctx_t c = SHMEM_CTX_INVALID, made = SHMEM_CTX_INVALID;
    shmem_team_t team = SHMEM_TEAM_INVALID, got;
    long opt = 0;
    int n, calls, null_out = 0, rc = -1;

    fz_desc_reset(names[k]);
    if (k == 1)
        team = fz_draw_team("team");
    if (k <= 1) {
        opt = options[fz_below(sizeof(options) / sizeof(options[0]))];
        fz_desc("options=%ld", opt);
    } else {
        c = fz_draw_ctx("ctx", &n);
        fz_expect(k == 2 && c == SHMEM_CTX_DEFAULT, "SHMEM_CTX_DEFAULT cannot be destroyed");
    }
    null_out = fz_chance(10); /* the library checks these two for NULL */
    fz_desc("%s=%s", k == 3 ? "team" : "ctx", null_out && k != 2 ? "NULL" : "&out");
    /* unknown options and a NULL ctx: a failed creation (non-zero) */
    calls = fz_draw_callers();
    if (!calls)
        return;
    fz_desc_print(fz_who);
    switch (k) {
    case 0:
        rc = shmem_ctx_create(opt, null_out ? NULL : &made);
        break;
    case 1:
        rc = shmem_team_create_ctx(team, opt, null_out ? NULL : &made);
        break;
    case 2:
        shmem_ctx_destroy(c);
        fz_ctx_forget(c);
        break;
    default:
        (void)shmem_ctx_get_team(c, null_out ? NULL : &got);
        break;
    }
    fz_returned();
    fz_must_fail(k <= 1 && (null_out || (opt & ~7L) != 0), rc != 0 && made == SHMEM_CTX_INVALID,
                 "options or ctx is invalid (expected non-zero)");
    if (made != SHMEM_CTX_INVALID)
        shmem_ctx_destroy(made);
}

/* ---- locks ---- */

static void lock(void)
{
    unsigned k = fz_below(3);
    fz_addr_t a;
    long *l;
    int calls;

    fz_desc_reset(k == 0 ? "shmem_set_lock" : k == 1 ? "shmem_test_lock" : "shmem_clear_lock");
    a = fz_draw_sym("lock", FZ_LOCK, sizeof(long), 1);
    l = a.p;
    fz_expect(a.bad || a.misaligned, "lock is not an aligned symmetric long");
    fz_expect(k == 2, "this PE does not hold the lock");
    calls = fz_draw_callers();
    if (!calls)
        return;
    fz_desc_print(fz_who);
    if (k == 2) { /* a lock this PE does not hold */
        shmem_clear_lock(l);
        fz_returned();
        return;
    }
    if (k == 0) {
        shmem_set_lock(l);
    } else if (shmem_test_lock(l) != 0) {
        fz_returned();
        return;
    }
    fz_returned();
    fz_desc_reset("shmem_clear_lock");
    fz_desc("lock=same");
    fz_desc_print(fz_who);
    shmem_clear_lock(l);
    fz_returned();
}

/* ---- queries ---- */

static void query(void)
{
    static const char *const names[] = {"shmem_ptr",
                                        "shmem_addr_accessible",
                                        "shmem_pe_accessible",
                                        "shmem_team_ptr",
                                        "shmem_info_get_version",
                                        "shmem_info_get_name",
                                        "shmem_query_thread",
                                        "shmem_my_pe",
                                        "shmem_n_pes",
                                        "_my_pe",
                                        "_num_pes"};
    unsigned k = fz_below(sizeof(names) / sizeof(names[0]));
    shmem_team_t team = SHMEM_TEAM_WORLD;
    char name[SHMEM_MAX_NAME_LEN];
    void *addr = NULL, *out = NULL, *got = NULL;
    int pe = 0, calls, a, b, bad_pe, yes = 0;

    fz_desc_reset(names[k]);
    if (k == 3)
        team = fz_draw_team("team");
    if (k <= 1 || k == 3)
        addr = fz_draw_sym("dest", FZ_RMA, 1, 0).p;
    if (k <= 3)
        pe = fz_draw_pe("pe", k == 3 ? fz_team_n : fz_npes);
    /* a PE that does not exist: NULL, no access */
    bad_pe =
        (k <= 2 && (pe < 0 || pe >= fz_npes)) ||
        (k == 3 && team != SHMEM_TEAM_INVALID && !fz_handle_gated && (pe < 0 || pe >= fz_team_n));
    if (k >= 4 && k <= 6)
        out = maybe_null(k == 5 ? (void *)name : (void *)&a, "out");
    calls = fz_draw_callers();
    if (!calls)
        return;
    fz_desc_print(fz_who);
    switch (k) {
    case 0:
        got = shmem_ptr(addr, pe);
        break;
    case 1:
        yes = shmem_addr_accessible(addr, pe);
        break;
    case 2:
        yes = shmem_pe_accessible(pe);
        break;
    case 3:
        got = shmem_team_ptr(team, addr, pe);
        break;
    case 4:
        shmem_info_get_version(out, out == NULL ? NULL : &b);
        break;
    case 5:
        shmem_info_get_name(out);
        break;
    case 6:
        shmem_query_thread(out);
        break;
    case 7:
        (void)shmem_my_pe();
        break;
    case 8:
        (void)shmem_n_pes();
        break;
    case 9:
        (void)_my_pe();
        break;
    default:
        (void)_num_pes();
        break;
    }
    fz_returned();
    fz_must_fail(bad_pe, got == NULL && !yes, "pe does not exist (expected NULL or 0)");
}

/* ---- synchronisation and ordering ---- */

static void sync_family(void)
{
    static const char *const names[] = {"shmem_barrier_all", "shmem_sync_all",  "shmem_team_sync",
                                        "shmem_barrier",     "shmem_sync",      "shmem_fence",
                                        "shmem_quiet",       "shmem_ctx_fence", "shmem_ctx_quiet"};
    unsigned k = fz_below(9);
    shmem_team_t team = SHMEM_TEAM_WORLD;
    shmem_ctx_t c = SHMEM_CTX_DEFAULT;
    int start = 0, log_stride = 0, size = 0, n, skip = 0, calls, spoil = 0;
    long *psync = NULL;

    fz_desc_reset(names[k]);
    if (k == 2) {
        team = fz_draw_team("team");
        skip = fz_team_skip;
        fz_expect(team == SHMEM_TEAM_INVALID && !fz_handle_gated, "team is SHMEM_TEAM_INVALID");
    }
    if (k == 3 || k == 4) {
        fz_addr_t p;

        fz_expect(fz_draw_aset(&start, &log_stride, &size, &n, &skip), "the active set is invalid");
        p = fz_draw_sym("pSync", FZ_PSYNC, sizeof(long), 1);
        psync = p.p;
        fz_expect(p.bad || p.misaligned, "pSync is not an aligned symmetric array");
    }
    if (k >= 7) /* on SHMEM_CTX_INVALID: nothing to do */
        c = fz_draw_ctx("ctx", &n);
    if (k >= 2 && k <= 4 && fz_chance(20)) { /* diagnosable by the erring PE alone */
        spoil = fz_me == fz_erring;
        fz_desc("spoiled-on-PE-%d=%s", fz_erring, k == 2 ? "team(INVALID)" : "pSync(NULL)");
        fz_expect(spoil, "the erring PE's argument is invalid");
    }
    calls = k <= 4 ? !skip : fz_draw_callers();
    if (!calls)
        return;
    fz_desc_print(k <= 4 ? "by every member" : fz_who);
    if (spoil)
        team = SHMEM_TEAM_INVALID, psync = NULL;
    switch (k) {
    case 0:
        shmem_barrier_all();
        break;
    case 1:
        shmem_sync_all();
        break;
    case 2:
        shmem_team_sync(team);
        break;
    case 3:
        shmem_barrier(start, log_stride, size, psync);
        break;
    case 4:
        (shmem_sync)(start, log_stride, size, psync);
        break;
    case 5:
        shmem_fence();
        break;
    case 6:
        shmem_quiet();
        break;
    case 7:
        shmem_ctx_fence(c);
        break;
    default:
        shmem_ctx_quiet(c);
        break;
    }
    fz_returned();
}

/* ---- signals waited for locally ---- */

static void signal_family(void)
{
    int wait = fz_chance(50), cmp = 0, calls;
    uint64_t value = 0, five = 5;
    fz_addr_t s;

    fz_desc_reset(wait ? "shmem_signal_wait_until" : "shmem_signal_fetch");
    s = fz_draw_sym("sig_addr", FZ_SIGW, sizeof(uint64_t), 1);
    fz_expect(s.bad || s.misaligned, "sig_addr is not an aligned symmetric word");
    if (wait) { /* true at once: nobody signals this word (see fuzz_typed.c) */
        cmp = fz_draw_cmp("cmp");
        fz_expect(cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_GE, "cmp is invalid");
        value = cmp == SHMEM_CMP_NE || cmp == SHMEM_CMP_GT ? 4 : cmp == SHMEM_CMP_LT ? 6 : 5;
        fz_desc("cmp_value=%llu", (unsigned long long)value);
    }
    calls = fz_draw_callers();
    if (!calls)
        return;
    if (s.writable && s.room >= sizeof(five))
        memcpy(s.p, &five, sizeof(five));
    fz_desc_print(fz_who);
    if (wait)
        (void)shmem_signal_wait_until(s.p, cmp, value);
    else
        (void)shmem_signal_fetch(s.p);
    fz_returned();
}

static void (*const hand[])(void) = {heap, team_split, team_query,  ctx,
                                     lock, query,      sync_family, signal_family};
#define N_HAND (int)(sizeof(hand) / sizeof(hand[0]))
/* How often a hand-written family comes, against a typed family's row count: the
 * typed families are picked by their size, so that each routine of the table is
 * about as likely as any other; these few-routine families get this much. */
#define HAND_WEIGHT 40

int fz_hand_families(void)
{
    return N_HAND;
}

void fz_hand_call(int family)
{
    hand[family]();
}

static size_t family_weight(unsigned family)
{
    return (int)family < fz_typed_families() ? fz_typed_family_rows((int)family) : HAND_WEIGHT;
}

/* ---- before shmem_init and after shmem_finalize ---- */

static void out_of_life(const char *when, unsigned k)
{
    static const char *const names[] = {"shmem_my_pe", "shmem_malloc", "shmem_int_p",
                                        "shmem_barrier_all", "shmem_team_my_pe"};
    static int x;

    fz_desc_reset(names[k]);
    fz_expect(1, "the library is not initialised");
    printf("fuzz: PE %d: call %s: %s() by every PE (expect an error: %s)\n", fz_me, when, names[k],
           when);
    fflush(stdout);
    switch (k) {
    case 0:
        (void)shmem_my_pe();
        break;
    case 1:
        (void)shmem_malloc(8);
        break;
    case 2:
        shmem_int_p(&x, 1, 0);
        break;
    case 3:
        shmem_barrier_all();
        break;
    default:
        (void)shmem_team_my_pe(SHMEM_TEAM_WORLD);
        break;
    }
    fz_returned();
}

int main(int argc, char **argv)
{
    char stack_buf[FZ_LOCAL] __attribute__((aligned(64)));
    const char *s = argc > 1 ? argv[1] : getenv("FUZZ_SEED");
    unsigned long long seed;
    int ncalls, i, pre, post, total, typed = fz_typed_families();
    size_t weight_total = 0;
    unsigned pre_k, post_k;
    char *end;

    if (s == NULL || (seed = strtoull(s, &end, 0), *end != '\0')) {
        fprintf(stderr, "usage: fuzz_args SEED (or FUZZ_SEED=SEED)\n");
        return 99;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    alarm(FZ_ALARM);
    memset(stack_buf, 0, sizeof(stack_buf));
    fz_seed(seed);
    draw_env();
    fz_bias = fz_chance(35);
    pre = fz_chance(2);
    post = fz_chance(3);
    pre_k = fz_below(5);
    post_k = fz_below(5);
    if (pre) {
        fz_me = -1;
        out_of_life("before shmem_init", pre_k);
    }
    shmem_init();
    fz_me = shmem_my_pe();
    fz_npes = shmem_n_pes();
    fz_erring = (int)fz_below((unsigned)fz_npes);
    fz_objects_init(stack_buf);
    ncalls = 1 + (int)fz_below(3);
    total = typed + fz_hand_families();
    for (i = 0; i < total; i++)
        weight_total += family_weight(i);
    if (fz_me == 0)
        printf("fuzz: seed %llu: %d PEs, erring PE %d, %d calls, %s, SHOAL_CHECK=%d "
               "SHOAL_CHECK_COLL=%d SHOAL_TRANSPORT=%s FUZZ_HANDLES=%d FUZZ_LOCAL_NULL=%d\n",
               seed, fz_npes, fz_erring, ncalls, fz_bias ? "mostly valid" : "mixed", fz_check,
               fz_check_coll, getenv("SHOAL_TRANSPORT") ? getenv("SHOAL_TRANSPORT") : "auto",
               fz_handles, fz_local_null);
    for (i = 0; i < ncalls; i++) {
        unsigned r = fz_below((unsigned)weight_total), family = 0;

        while (r >= family_weight(family))
            r -= family_weight(family++);
        fz_call_index = i;
        if ((int)family < typed)
            fz_typed_call((int)family);
        else
            fz_hand_call((int)family - typed);
    }
    shmem_barrier_all();
    shmem_finalize();
    if (post)
        out_of_life("after shmem_finalize", post_k);
    return 0;
}
