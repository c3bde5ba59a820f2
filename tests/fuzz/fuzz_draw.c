/* The argument draws of the fuzzer: each picks from a mix of valid and invalid
 * values and writes what it picked into the call's description. A draw never
 * depends on which PE makes it (but for the pointer it returns, which may be this
 * PE's own stack or team handle): that is what keeps collectives consistent.
 *
 * Excluded, because the spec leaves them undefined and no library can tell them
 * from valid calls: a remote range that runs past its object but stays inside
 * the segment (except a heap block under SHOAL_CHECK=1, which checks every
 * allocation), so "past the end" sizes become sizes past the segment otherwise;
 * local buffers too small for the transfer, and local strides so large that the
 * local side leaves its buffer (the library sees no size for local memory); a
 * freed heap block as a target without SHOAL_CHECK=1. */
#include "fuzz.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fz_me, fz_npes, fz_erring, fz_call_index;
int fz_check, fz_check_coll, fz_handles = 1, fz_local_null, fz_bias;

/* In a biased run most draws stay in their valid range (below valid out of 100):
 * calls then get through the checks and move data, at odd but valid sizes. */
static unsigned draw_r(unsigned valid)
{
    if (fz_bias && fz_chance(85))
        return fz_below(valid);
    return fz_below(100);
}

/* ---- the stream ---- */

static uint64_t rng_state;

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The start is hashed: splitmix64 streams from nearby states are the same stream
 * shifted, and seed n would replay seed n+1's calls one draw late. */
void fz_seed(uint64_t seed)
{
    rng_state = mix(seed ^ 0x2545f4914f6cdd1dULL);
}

uint64_t fz_rand(void)
{
    return mix(rng_state += 0x9e3779b97f4a7c15ULL);
}

unsigned fz_below(unsigned n)
{
    return n == 0 ? 0 : (unsigned)(fz_rand() % n);
}

int fz_chance(unsigned percent)
{
    return fz_below(100) < percent;
}

/* ---- the description ---- */

static char desc[2048];
static size_t desc_len;
static char desc_name[128];
static const char *expected;

void fz_desc_reset(const char *routine)
{
    snprintf(desc_name, sizeof(desc_name), "%s", routine);
    desc_len = 0;
    desc[0] = '\0';
    expected = NULL;
}

void fz_expect(int cond, const char *why)
{
    if (cond && expected == NULL)
        expected = why;
}

void fz_must_fail(int cond, int failed, const char *why)
{
    if (!cond || failed)
        return;
    printf("fuzz: PE %d: call %d: MISSED: %s reported success, but %s\n", fz_me, fz_call_index,
           desc_name, why);
    fflush(stdout);
    exit(98);
}

void fz_returned(void)
{
    if (expected == NULL)
        return;
    printf("fuzz: PE %d: call %d: MISSED: %s returned, but %s\n", fz_me, fz_call_index, desc_name,
           expected);
    fflush(stdout);
    exit(98);
}

void fz_desc(const char *fmt, ...)
{
    va_list ap;
    int n;

    if (desc_len + 2 >= sizeof(desc))
        return;
    if (desc_len > 0)
        desc[desc_len++] = ' ';
    va_start(ap, fmt);
    n = vsnprintf(desc + desc_len, sizeof(desc) - desc_len, fmt, ap);
    va_end(ap);
    if (n > 0)
        desc_len += (size_t)n < sizeof(desc) - desc_len ? (size_t)n : sizeof(desc) - desc_len - 1;
}

const char *fz_desc_routine(void)
{
    return desc_name;
}

/* One line per calling PE, flushed before the call: if the call ends the job, the
 * line that reproduces it is out already. */
void fz_desc_print(const char *who)
{
    printf("fuzz: PE %d: call %d: %s(%s) %s%s%s%s\n", fz_me, fz_call_index, desc_name, desc, who,
           expected ? " (expect an error: " : "", expected ? expected : "", expected ? ")" : "");
    fflush(stdout);
}

/* ---- objects ---- */

void *fz_heap_obj[FZ_NROLES];
void *fz_freed_block;
char *fz_stack_buf; /* an array in main's frame: not symmetric, lives to the end */
static char *malloc_buf;
static char *local_sym, *local_malloc;
static char local_glob[FZ_LOCAL] __attribute__((aligned(64)));
static char glob_obj[FZ_NROLES][2048] __attribute__((aligned(64)));
static const char rodata[64] = "a string literal is no symmetric object";

static size_t obj_size(int role)
{
    return role == FZ_PSYNC ? 3 * SHMEM_SYNC_SIZE * sizeof(long) : FZ_OBJ;
}

/* Collective: every PE allocates the same blocks in the same order. */
void fz_objects_init(char *stack_buf)
{
    int r;

    fz_stack_buf = stack_buf;
    for (r = 0; r < FZ_NROLES; r++)
        fz_heap_obj[r] = shmem_calloc(1, obj_size(r));
    local_sym = shmem_calloc(1, FZ_LOCAL);
    fz_freed_block = shmem_malloc(FZ_OBJ);
    shmem_free(fz_freed_block);
    malloc_buf = calloc(1, FZ_LOCAL);
    local_malloc = calloc(1, FZ_LOCAL + 16);
    if (local_sym == NULL || malloc_buf == NULL || local_malloc == NULL) {
        fprintf(stderr, "fuzz: PE %d: cannot allocate the fuzzer's own buffers\n", fz_me);
        exit(99);
    }
}

/* A symmetric argument. Classes: heap block, global, misaligned, near the end of
 * a heap block, a freed heap block, stack, malloc, NULL, unmapped, read-only data. */
fz_addr_t fz_draw_sym(const char *name, int role, size_t elem, int amo)
{
    unsigned r = draw_r(63);
    size_t size = obj_size(role), off;
    char *heap = fz_heap_obj[role], *glob = glob_obj[role];
    fz_addr_t a = {NULL, size, 0, 0, 1, 0};

    if (role == FZ_PSYNC) { /* each call its own pSync, fresh at SHMEM_SYNC_VALUE */
        heap += (size_t)fz_call_index * SHMEM_SYNC_SIZE * sizeof(long);
        glob += (size_t)fz_call_index * SHMEM_SYNC_SIZE * sizeof(long);
        size = a.room = SHMEM_SYNC_SIZE * sizeof(long);
    }
    if ((r >= 70 && r < 75) && !fz_check)
        r = 0; /* near the end: only diagnosable with SHOAL_CHECK */
    if ((r >= 75 && r < 78) && !fz_check)
        r = 1; /* freed: likewise */
    if (r < 45) {
        off = role == FZ_PSYNC || fz_chance(70) ? 0 : 16 * fz_below((unsigned)(size / 32));
        a = (fz_addr_t){heap + off, size - off, fz_check, 1, 0, 0};
        fz_desc("%s=heap+%zu", name, off);
    } else if (r < 63) {
        a = (fz_addr_t){glob, size, 0, 1, 0, 0};
        fz_desc("%s=global", name);
    } else if (r < 70) {
        off = amo && elem > 1 ? elem / 2 : 1;
        a = (fz_addr_t){heap + off, size - off, fz_check, 1, 0, elem > 1};
        fz_desc("%s=heap+%zu(misaligned)", name, off);
    } else if (r < 75) {
        char *end = (char *)fz_heap_obj[role] + obj_size(role);

        a = (fz_addr_t){end - elem, elem, 1, 1, 0, 0};
        fz_desc("%s=heap_end-%zu", name, elem);
    } else if (r < 78) {
        a = (fz_addr_t){fz_freed_block, FZ_OBJ, 1, 0, 1, 0};
        fz_desc("%s=freed", name);
    } else if (r < 85) {
        a = (fz_addr_t){fz_stack_buf, size, 0, 1, 1, 0};
        fz_desc("%s=stack", name);
    } else if (r < 89) {
        a = (fz_addr_t){malloc_buf, size, 0, 1, 1, 0};
        fz_desc("%s=malloc", name);
    } else if (r < 95) {
        fz_desc("%s=NULL", name);
    } else if (r < 98) {
        a.p = (void *)(uintptr_t)(fz_chance(50) ? 0x1000 : 0xdead0000);
        fz_desc("%s=%p(unmapped)", name, a.p);
    } else {
        a.p = (void *)rodata;
        fz_desc("%s=rodata", name);
    }
    return a;
}

/* A local argument: always big enough (FZ_LOCAL bytes), so the library has nothing
 * to diagnose; NULL (a fifth of the draws) unless FUZZ_LOCAL_NULL=0; misaligned only where
 * elements are bytes (a misaligned typed pointer is the C language's undefined behaviour, not the
 * library's to find). */
void *fz_draw_local(const char *name, int aligned)
{
    unsigned r = fz_below(100);

    if (fz_local_null && r >= 80) {
        fz_desc("%s=NULL", name);
        return NULL;
    }
    if (r < 30) {
        fz_desc("%s=stack", name);
        return fz_stack_buf;
    } else if (r < 55) {
        fz_desc("%s=malloc", name);
        return local_malloc;
    } else if (r < 75) {
        fz_desc("%s=symheap", name);
        return local_sym;
    } else if (r < 90) {
        fz_desc("%s=global", name);
        return local_glob;
    } else if (aligned) {
        fz_desc("%s=malloc", name);
        return local_malloc;
    }
    fz_desc("%s=malloc+1(misaligned)", name);
    return local_malloc + 1;
}

/* The largest n such that n*mult elements, stride elements apart, fit in room. */
size_t fz_fit(size_t room, size_t elem, ptrdiff_t stride, size_t mult)
{
    size_t units = room / elem, total;

    if (stride < 1 || stride > FZ_OBJ)
        stride = stride < 1 ? 1 : FZ_OBJ + 1;
    if (units == 0)
        return 0;
    total = (units - 1) / (size_t)stride + 1;
    return total / mult;
}

static const struct {
    size_t value;
    const char *label;
} huge_counts[] = {
    {SIZE_MAX, "SIZE_MAX"},
    {SIZE_MAX / 2 + 1, "2^63"},
    {(size_t)-16, "(size_t)-16"},
    {(size_t)1 << 40, "2^40"},
    {(size_t)INT_MAX + 1, "INT_MAX+1"},
    {(size_t)INT_MIN, "(size_t)INT_MIN"},
};

/* A count: 0, 1, one that fits, exactly the object, just past it (when that is
 * diagnosable, else past the segment), or huge. */
int fz_count_bad;

size_t fz_draw_count(const char *name, size_t max_fit, int pastable)
{
    unsigned r = draw_r(72), h = fz_below(sizeof(huge_counts) / sizeof(huge_counts[0]));
    size_t n;

    fz_count_bad = r >= 72;
    if (r < 10 || (r < 60 && max_fit == 0)) {
        n = 0;
    } else if (r < 25) {
        n = 1;
    } else if (r < 60) {
        n = 1 + fz_below((unsigned)max_fit);
    } else if (r < 72) {
        n = max_fit;
    } else if (r < 82 && pastable) {
        fz_desc("%s=%zu(past)", name, max_fit + 1);
        return max_fit + 1;
    } else {
        fz_desc("%s=%s", name, huge_counts[h].label);
        return huge_counts[h].value;
    }
    fz_desc("%s=%zu", name, n);
    return n;
}

/* A stride: remote ones may be huge (the span then runs past the segment, or
 * overflows); local ones never are (see the top of the file). */
ptrdiff_t fz_draw_stride(const char *name, int remote)
{
    static const ptrdiff_t valid[] = {1, 1, 2, 3, 4};
    static const ptrdiff_t invalid[] = {0, -1, -3, PTRDIFF_MIN, PTRDIFF_MAX, (ptrdiff_t)1 << 40};
    ptrdiff_t s;

    if (fz_chance(fz_bias ? 97 : 80))
        s = valid[fz_below(sizeof(valid) / sizeof(valid[0]))];
    else
        s = invalid[fz_below(remote ? 6 : 4)];
    fz_desc("%s=%td", name, s);
    return s;
}

/* A PE among n (the context's team), or outside. */
int fz_draw_pe(const char *name, int n)
{
    unsigned r = draw_r(75);
    int pe;

    if (r < 55) {
        pe = (int)fz_below((unsigned)n);
    } else if (r < 65 && n == fz_npes) {
        fz_desc("%s=me", name);
        return fz_me;
    } else if (r < 75 && n == fz_npes) {
        fz_desc("%s=next", name);
        return (fz_me + 1) % n;
    } else {
        static const char *const labels[] = {"-1", "n_pes", "INT_MAX", "INT_MIN"};
        int v[] = {-1, n, INT_MAX, INT_MIN}, k = (int)fz_below(4);

        fz_desc("%s=%s(%d)", name, labels[k], v[k]);
        return v[k];
    }
    fz_desc("%s=%d", name, pe);
    return pe;
}

int fz_draw_cmp(const char *name)
{
    static const int invalid[] = {0, 7, 99, -1, INT_MIN};
    int cmp;

    if (fz_chance(fz_bias ? 97 : 85))
        cmp = SHMEM_CMP_EQ + (int)fz_below(6);
    else
        cmp = invalid[fz_below(5)];
    fz_desc("%s=%d", name, cmp);
    return cmp;
}

int fz_pick_int(const char *name, const int *vals, unsigned n)
{
    int v = vals[fz_below(n)];

    fz_desc("%s=%d", name, v);
    return v;
}

/* ---- teams and contexts, made when first drawn (every PE draws them) ---- */

static shmem_team_t team_sub, team_copy, team_dead;
static int have_sub, have_copy, have_dead;
static long garbage_words[64]; /* zeros: a garbage handle that points at memory */
enum { KIND_OTHER, KIND_SUB, KIND_COPY };
int fz_handle_gated;
static int last_kind;
int fz_team_n;    /* PEs of the last drawn team, for sizes and roots */
int fz_team_skip; /* this PE is outside the last drawn team: it does not call */

static shmem_team_t garbage_handle(const char *name)
{
    static const uintptr_t values[] = {0xdeadbeef0, 1, 0};
    unsigned k = fz_below(3);
    uintptr_t v = values[k] != 0 ? values[k] : (uintptr_t)garbage_words;

    fz_desc("%s=garbage(%#lx)", name, (unsigned long)v);
    return (shmem_team_t)v;
}

/* The PEs 1..n-1 (PE 0 only, at one PE): PE 0 is outside when there are more. */
static shmem_team_t get_sub(void)
{
    if (!have_sub) {
        int n = fz_npes > 1 ? fz_npes - 1 : 1;

        shmem_team_split_strided(SHMEM_TEAM_WORLD, fz_npes > 1 ? 1 : 0, 1, n, NULL, 0, &team_sub);
        have_sub = 1;
    }
    return team_sub;
}

static shmem_team_t get_copy(void)
{
    if (!have_copy) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, fz_npes, NULL, 0, &team_copy);
        have_copy = 1;
    }
    return team_copy;
}

static shmem_team_t get_dead(void)
{
    if (!have_dead) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, fz_npes, NULL, 0, &team_dead);
        shmem_team_destroy(team_dead);
        have_dead = 1;
    }
    return team_dead;
}

shmem_team_t fz_draw_team(const char *name)
{
    unsigned r = draw_r(70);

    fz_team_n = fz_npes;
    fz_team_skip = 0;
    last_kind = KIND_OTHER;
    if (r >= 85 && !fz_handles)
        r = 0;
    fz_handle_gated = r >= 85;
    if (r < 30) {
        fz_desc("%s=WORLD", name);
        return SHMEM_TEAM_WORLD;
    } else if (r < 42) {
        fz_desc("%s=SHARED", name);
        return SHMEM_TEAM_SHARED;
    } else if (r < 57) {
        shmem_team_t t = get_sub();

        fz_desc("%s=sub(PEs 1..n-1)", name);
        fz_team_n = fz_npes > 1 ? fz_npes - 1 : 1;
        fz_team_skip = t == SHMEM_TEAM_INVALID;
        last_kind = KIND_SUB;
        return t;
    } else if (r < 70) {
        fz_desc("%s=copy(split of WORLD)", name);
        last_kind = KIND_COPY;
        return get_copy();
    } else if (r < 85) {
        fz_desc("%s=INVALID", name);
        return SHMEM_TEAM_INVALID;
    } else if (r < 92) {
        fz_desc("%s=destroyed", name);
        return get_dead();
    }
    return garbage_handle(name);
}

static shmem_ctx_t ctx_world, ctx_team, ctx_dead;
static long ctx_world_opt, ctx_team_opt;
static int have_ctx_world, have_ctx_team, have_ctx_dead;

/* The last drawn team is being destroyed: a later draw makes a fresh one. Every
 * PE forgets it, members or not, so that every PE joins the next split. */
void fz_team_forget_drawn(void)
{
    if (last_kind == KIND_SUB)
        have_sub = 0, have_ctx_team = 0;
    if (last_kind == KIND_COPY)
        have_copy = 0;
}

void fz_ctx_forget(shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_INVALID)
        return;
    if (have_ctx_world && ctx == ctx_world)
        have_ctx_world = 0;
    if (have_ctx_team && ctx == ctx_team)
        have_ctx_team = 0;
}

/* A context, and in *n the PE count of its team (the range of its pe arguments). */
shmem_ctx_t fz_draw_ctx(const char *name, int *n)
{
    static const long options[] = {0, SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED, SHMEM_CTX_NOSTORE};
    unsigned r = draw_r(72);
    long opt = options[fz_below(4)];

    *n = fz_npes;
    if (fz_bias && r >= 35 && r < 72)
        r += 12; /* past INVALID */
    if (r >= 84 && !fz_handles)
        r = 0;
    fz_handle_gated = r >= 84;
    if (r < 35) {
        fz_desc("%s=DEFAULT", name);
        return SHMEM_CTX_DEFAULT;
    } else if (r < 47) {
        fz_desc("%s=INVALID", name);
        return SHMEM_CTX_INVALID;
    } else if (r < 62) {
        if (!have_ctx_world) {
            if (shmem_ctx_create(opt, &ctx_world) != 0)
                ctx_world = SHMEM_CTX_INVALID;
            have_ctx_world = 1;
            ctx_world_opt = opt;
        }
        fz_desc("%s=created(options %ld)", name, ctx_world_opt);
        return ctx_world;
    } else if (r < 77) {
        shmem_team_t t = get_sub();

        if (!have_ctx_team) {
            if (shmem_team_create_ctx(t, opt, &ctx_team) != 0)
                ctx_team = SHMEM_CTX_INVALID;
            have_ctx_team = 1;
            ctx_team_opt = opt;
        }
        *n = fz_npes > 1 ? fz_npes - 1 : 1;
        fz_desc("%s=team_ctx(sub, options %ld)", name, ctx_team_opt);
        return ctx_team;
    } else if (r < 84) {
        fz_desc("%s=DEFAULT", name);
        return SHMEM_CTX_DEFAULT;
    } else if (r < 92) {
        if (!have_ctx_dead) {
            if (shmem_ctx_create(0, &ctx_dead) == 0)
                shmem_ctx_destroy(ctx_dead);
            have_ctx_dead = 1;
        }
        fz_desc("%s=destroyed", name);
        return ctx_dead;
    }
    return (shmem_ctx_t)garbage_handle(name);
}

char fz_who[64];

/* Who makes a one-sided call: the erring PE alone, or every PE. */
int fz_draw_callers(void)
{
    if (fz_chance(30)) {
        snprintf(fz_who, sizeof(fz_who), "by every PE");
        return 1;
    }
    snprintf(fz_who, sizeof(fz_who), "by PE %d", fz_erring);
    return fz_me == fz_erring;
}

int fz_draw_aset(int *start, int *log_stride, int *size, int *n, int *skip)
{
    const int np = fz_npes;
    const int sets[][3] = {
        /* valid */
        {0, 0, np},
        {0, 0, np},
        {np > 1 ? 1 : 0, 0, np > 1 ? np - 1 : 1},
        {0, 1, (np + 1) / 2},
        {np - 1, 0, 1},
        /* invalid */
        {-1, 0, np},
        {np, 0, 1},
        {0, -1, np},
        {0, 31, 1},
        {0, 0, 0},
        {0, 0, -1},
        {0, 0, np + 1},
        {1, 0, np},
        {INT_MAX, 0, 1},
        {0, 0, INT_MIN},
    };
    unsigned k = fz_chance(fz_bias ? 97 : 75) ? fz_below(5) : 5 + fz_below(10);
    int rel;

    *start = sets[k][0];
    *log_stride = sets[k][1];
    *size = sets[k][2];
    *n = k < 5 ? *size : np;
    rel = fz_me - *start;
    *skip =
        k < 5 && (rel < 0 || rel % (1 << *log_stride) != 0 || rel / (1 << *log_stride) >= *size);
    fz_desc("PE_start=%d logPE_stride=%d PE_size=%d%s", *start, *log_stride, *size,
            k < 5 ? "" : "(invalid)");
    return k >= 5;
}
