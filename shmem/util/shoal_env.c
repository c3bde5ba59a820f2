/* Parses the environment-variable table, and describes its rows (shoal_env_row_at).
 * The only caller of getenv in libshoal (oshrun and shoal_info read their own). */
#include "shoal_env.h"
#include "shoal_status.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int shoal_env_parse_size(const char *text, size_t *out)
{
    unsigned long long value, mult = 1;
    char *end;

    while (isspace((unsigned char)*text))
        text++;
    if (!isdigit((unsigned char)*text))
        return -1;
    errno = 0;
    value = strtoull(text, &end, 10);
    if (errno != 0)
        return -1;
    switch (toupper((unsigned char)*end)) {
    case 'T':
        mult <<= 10; /* fall through */
    case 'G':
        mult <<= 10; /* fall through */
    case 'M':
        mult <<= 10; /* fall through */
    case 'K':
        mult <<= 10;
        end++;
        break;
    default:
        break;
    }
    if (mult > 1 && toupper((unsigned char)*end) == 'I')
        end++;
    if (mult > 1 && toupper((unsigned char)*end) == 'B')
        end++;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0' || (value != 0 && mult > SIZE_MAX / value))
        return -1;
    *out = (size_t)(value * mult);
    return 0;
}

int shoal_env_parse_count(const char *text, size_t *out)
{
    const char *p = text;

    while (isspace((unsigned char)*p))
        p++;
    while (isdigit((unsigned char)*p))
        p++;
    /* A count is a size without a suffix. */
    if (p == text || (*p != '\0' && !isspace((unsigned char)*p)))
        return -1;
    return shoal_env_parse_size(text, out);
}

int shoal_env_parse_bool(const char *text, int *out)
{
    static const char *const yes[] = {"1", "yes", "true", "on", "y"};
    static const char *const no[] = {"0", "no", "false", "off", "n", ""};
    size_t i;

    for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (strcasecmp(text, yes[i]) == 0) {
            *out = 1;
            return 0;
        }
    }
    for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
        if (strcasecmp(text, no[i]) == 0) {
            *out = 0;
            return 0;
        }
    }
    return -1;
}

int shoal_env_parse_transport(const char *text, int *out)
{
    if (strcasecmp(text, "auto") == 0)
        *out = SHOAL_TRANSPORT_AUTO;
    else if (strcasecmp(text, "ucx") == 0)
        *out = SHOAL_TRANSPORT_UCX;
    else
        return -1;
    return 0;
}

/* One of names[] (case ignored) to its value in values[]. */
static int parse_choice(const char *text, const char *const *names, const int *values, int n,
                        int *out)
{
    int i;

    for (i = 0; i < n; i++) {
        if (strcasecmp(text, names[i]) == 0) {
            *out = values[i];
            return 0;
        }
    }
    return -1;
}

static const char *const bcast_names[] = {"auto", "direct", "binomial", "flat"};
static const int bcast_values[] = {SHOAL_ALGO_AUTO, SHOAL_ALGO_DIRECT, SHOAL_ALGO_TREE,
                                   SHOAL_ALGO_FLAT};
static const char *const reduce_names[] = {"auto", "direct", "ring", "doubling", "flat"};
static const int reduce_values[] = {SHOAL_ALGO_AUTO, SHOAL_ALGO_DIRECT, SHOAL_ALGO_RING,
                                    SHOAL_ALGO_DOUBLING, SHOAL_ALGO_FLAT};
static const char *const gpu_proxy_names[] = {"auto", "all", "none"};
static const int gpu_proxy_values[] = {SHOAL_GPU_PROXY_AUTO, SHOAL_GPU_PROXY_ALL,
                                       SHOAL_GPU_PROXY_NONE};
#define N_GPU_PROXY (int)(sizeof(gpu_proxy_values) / sizeof(gpu_proxy_values[0]))
#define N_BCAST (int)(sizeof(bcast_values) / sizeof(bcast_values[0]))
#define N_REDUCE (int)(sizeof(reduce_values) / sizeof(reduce_values[0]))

int shoal_env_parse_bcast(const char *text, int *out)
{
    return parse_choice(text, bcast_names, bcast_values, N_BCAST, out);
}

int shoal_env_parse_reduce(const char *text, int *out)
{
    return parse_choice(text, reduce_names, reduce_values, N_REDUCE, out);
}

int shoal_env_parse_gpu_proxy(const char *text, int *out)
{
    return parse_choice(text, gpu_proxy_names, gpu_proxy_values, N_GPU_PROXY, out);
}

static const char *env_getenv(const char *name)
{
    return getenv(name);
}

/* Other names of a row, each read when the row's own name is unset: the SMA_
 * names OpenSHMEM 1.4 deprecated and 1.5 still lists (spec annex, "SMA_*
 * Environment Variables"), and NVSHMEM's name for the GPU heap's size, so that
 * an NVSHMEM job's environment means the same here. */
static const char *const sma_names[][2] = {
    {"SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE"},
    {"SHMEM_DEBUG", "SMA_DEBUG"},
    {"SHMEM_INFO", "SMA_INFO"},
    {"SHMEM_VERSION", "SMA_VERSION"},
    {"SHOAL_GPU_SYMMETRIC_SIZE", "NVSHMEM_SYMMETRIC_SIZE"},
};

#define N_SMA (sizeof(sma_names) / sizeof(sma_names[0]))

/* The value of name, else of its deprecated SMA_ name; *used is the one read. */
static const char *env_lookup(shoal_env_get_cb_t get, const char *name, const char **used)
{
    const char *value = get(name);
    size_t i;

    *used = name;
    for (i = 0; value == NULL && i < N_SMA; i++) {
        if (strcmp(name, sma_names[i][0]) == 0) {
            value = get(sma_names[i][1]);
            if (value != NULL)
                *used = sma_names[i][1];
        }
    }
    return value;
}

static void print_size(FILE *f, size_t v)
{
    fprintf(f, "%zu", v);
}

#define print_count print_size

static void print_bool(FILE *f, int v)
{
    fputs(v ? "1" : "0", f);
}

static void print_transport(FILE *f, int v)
{
    fputs(v == SHOAL_TRANSPORT_UCX ? "ucx" : "auto", f);
}

static void print_choice(FILE *f, int v, const char *const *names, const int *values, int n)
{
    int i;

    for (i = 0; i < n; i++)
        if (values[i] == v)
            fputs(names[i], f);
}

static void print_bcast(FILE *f, int v)
{
    print_choice(f, v, bcast_names, bcast_values, N_BCAST);
}

static void print_reduce(FILE *f, int v)
{
    print_choice(f, v, reduce_names, reduce_values, N_REDUCE);
}

static void print_gpu_proxy(FILE *f, int v)
{
    print_choice(f, v, gpu_proxy_names, gpu_proxy_values, N_GPU_PROXY);
}

/* One parser and one printer per kind, taking the field's address untyped so that
 * the table can be a loop (a macro that returns would hide the return). */
#define KIND_PARSER(kind, type, parser, ranged, what, form, example)                               \
    static int parse_at_##kind(const char *text, void *field)                                      \
    {                                                                                              \
        return shoal_env_parse_##parser(text, (shoal_env_##kind##_t *)field);                      \
    }                                                                                              \
    static void print_at_##kind(FILE *f, const void *field)                                        \
    {                                                                                              \
        print_##parser(f, *(const shoal_env_##kind##_t *)field);                                   \
    }
SHOAL_ENV_KINDS(KIND_PARSER)
#undef KIND_PARSER

/* A kind's field type is what its parser writes, and a ranged kind's is a size_t
 * (it is read as one to compare it with the bounds). */
#define KIND_TYPE_CHECK(kind, type, parser, ranged, what, form, example)                           \
    _Static_assert(_Generic(&shoal_env_parse_##parser,                                             \
                            int (*)(const char *, shoal_env_##kind##_t *) : 1, default : 0),       \
                   "the " #kind " kind's type is not what shoal_env_parse_" #parser " writes");    \
    _Static_assert(!(ranged) || _Generic((shoal_env_##kind##_t)0, size_t : 1, default : 0),        \
                   "the ranged " #kind " kind is not a size_t");
SHOAL_ENV_KINDS(KIND_TYPE_CHECK)
#undef KIND_TYPE_CHECK

typedef struct env_kind {
    int ranged, is_size; /* a size's bounds print with K, M, G or T */
    const char *what, *form, *example;
} env_kind_t;

enum {
#define KIND_ID(kind, type, parser, ranged, what, form, example) KIND_##kind,
    SHOAL_ENV_KINDS(KIND_ID)
#undef KIND_ID
};

enum {
#define KIND_RANGED(kind, type, parser, ranged, what, form, example) KIND_RANGED_##kind = ranged,
    SHOAL_ENV_KINDS(KIND_RANGED)
#undef KIND_RANGED
};

static const env_kind_t kinds[] = {
#define KIND_ROW(kind, type, parser, ranged, what, form, example)                                  \
    [KIND_##kind] = {ranged, KIND_##kind == KIND_size, what, form, example},
    SHOAL_ENV_KINDS(KIND_ROW)
#undef KIND_ROW
};

static const char *const category_titles[] = {
#define CATEGORY_TITLE(category, title) [SHOAL_ENV_CAT_##category] = title,
    SHOAL_ENV_CATEGORIES(CATEGORY_TITLE)
#undef CATEGORY_TITLE
};

/* A row's range as designated initialisers; no bound is 0 (the floor of a size_t)
 * or SIZE_MAX. The row's token is pasted on: FROM_TO(2, 64) -> RANGE_FROM_TO(2, 64). */
#define RANGE_FROM_TO(lo, hi) .min = (lo), .max = (hi)
#define RANGE_FROM(lo) .min = (lo), .max = SIZE_MAX
#define RANGE_UP_TO(hi) .min = 0, .max = (hi)
#define RANGE_NONE .min = 0, .max = SIZE_MAX
/* The same bounds as text, for shoal_env_row_t. */
#define RANGE_TEXT_FROM_TO(lo, hi) .min = #lo, .max = #hi
#define RANGE_TEXT_FROM(lo) .min = #lo, .max = ""
#define RANGE_TEXT_UP_TO(hi) .min = "", .max = #hi
#define RANGE_TEXT_NONE .min = "", .max = ""

typedef struct env_entry {
    shoal_env_row_t row; /* name, default and help as text (shoal_env_row_at) */
    int (*parse)(const char *text, void *field);
    void (*print)(FILE *f, const void *field);
    size_t offset;
    int kind, category;
    size_t min, max;
} env_entry_t;

static const env_entry_t entries[] = {
#define ENV_ENTRY(name_, kind_, field_, dflt_, range_, category_, help_)                           \
    {.row = {.name = #name_,                                                                       \
             .kind = #kind_,                                                                       \
             .dflt = dflt_,                                                                        \
             .help = help_,                                                                        \
             .ranged = KIND_RANGED_##kind_,                                                        \
             .category = SHOAL_ENV_CAT_##category_,                                                \
             RANGE_TEXT_##range_},                                                                 \
     .parse = parse_at_##kind_,                                                                    \
     .print = print_at_##kind_,                                                                    \
     .offset = offsetof(shoal_settings_t, field_),                                                 \
     .kind = KIND_##kind_,                                                                         \
     .category = SHOAL_ENV_CAT_##category_,                                                        \
     RANGE_##range_},
    SHOAL_ENV_TABLE(ENV_ENTRY)
#undef ENV_ENTRY
};

#define N_ENTRIES (sizeof(entries) / sizeof(entries[0]))
_Static_assert(N_ENTRIES == SHOAL_ENV_ROWS, "SHOAL_ENV_ROWS counts the table's rows");

const shoal_env_row_t *shoal_env_row_at(size_t i)
{
    return i < N_ENTRIES ? &entries[i].row : NULL;
}

/* A bound as the table means it: bytes with the largest suffix that divides them. */
static void format_bound(char *buf, size_t len, size_t v, int is_size)
{
    int i = -1;

    while (is_size && v != 0 && v % 1024 == 0 && i < 3) {
        v /= 1024;
        i++;
    }
    if (i >= 0)
        snprintf(buf, len, "%zu%c", v, "KMGT"[i]);
    else
        snprintf(buf, len, "%zu", v);
}

/* The row's range: "from 2 to 64", "from 1", "up to 1000", or "" (none). */
static void format_range(char *buf, size_t len, const env_entry_t *e)
{
    int is_size = kinds[e->kind].is_size;
    char lo[32], hi[32];

    format_bound(lo, sizeof(lo), e->min, is_size);
    format_bound(hi, sizeof(hi), e->max, is_size);
    if (!kinds[e->kind].ranged || (e->min == 0 && e->max == SIZE_MAX))
        buf[0] = '\0';
    else if (e->max == SIZE_MAX)
        snprintf(buf, len, "from %s", lo);
    else if (e->min == 0)
        snprintf(buf, len, "up to %s", hi);
    else
        snprintf(buf, len, "from %s to %s", lo, hi);
}

/* What the row accepts: "a whole number from 2 to 64", or the kind's forms. */
static void format_expected(char *buf, size_t len, const env_entry_t *e)
{
    const env_kind_t *k = &kinds[e->kind];
    char range[80];

    format_range(range, sizeof(range), e);
    if (range[0] != '\0')
        snprintf(buf, len, "%s%s %s", k->what, k->form, range);
    else
        snprintf(buf, len, "%s%s%s%s", k->what, k->form, k->example[0] ? ", e.g. " : "",
                 k->example);
}

int shoal_env_expected(const char *name, char *buf, size_t len)
{
    size_t i;

    for (i = 0; i < N_ENTRIES; i++)
        if (strcmp(entries[i].row.name, name) == 0) {
            format_expected(buf, len, &entries[i]);
            return 1;
        }
    return 0;
}

shoal_status_t shoal_env_parse(shoal_env_get_cb_t get, char *err, size_t errlen,
                               shoal_settings_t *out)
{
    shoal_settings_t s;
    const char *value, *used;
    char expected[160];
    size_t i;

    memset(&s, 0, sizeof(s));
    if (get == NULL)
        get = env_getenv;
    for (i = 0; i < N_ENTRIES; i++) {
        const env_entry_t *e = &entries[i];
        void *field = (char *)&s + e->offset;

        value = env_lookup(get, e->row.name, &used);
        if (value == NULL)
            value = e->row.dflt;
        if (e->parse(value, field) != 0) {
            format_expected(expected, sizeof(expected), e);
            snprintf(err, errlen, "environment variable %s is '%s'; expected %s", used, value,
                     expected);
            return SHOAL_ERR_INVALID_ARG;
        }
        /* The value is a number here, so it goes unquoted. */
        if (kinds[e->kind].ranged && (*(size_t *)field < e->min || *(size_t *)field > e->max)) {
            format_expected(expected, sizeof(expected), e);
            snprintf(err, errlen, "environment variable %s is %s; expected %s", used, value,
                     expected);
            return SHOAL_ERR_INVALID_ARG;
        }
    }
    *out = s;
    return SHOAL_OK;
}

/* The settings by category, each with its default and range. */
void shoal_env_print(FILE *f, const shoal_settings_t *s)
{
    char range[80];
    size_t i;
    int cat;

    for (cat = 0; cat < SHOAL_ENV_CAT_COUNT; cat++) {
        fprintf(f, " %s:\n", category_titles[cat]);
        for (i = 0; i < N_ENTRIES; i++) {
            const env_entry_t *e = &entries[i];

            if (e->row.category != cat)
                continue;
            format_range(range, sizeof(range), e);
            fprintf(f, "  %-24s = ", e->row.name);
            e->print(f, (const char *)s + e->offset);
            fprintf(f, "\t(default %s%s%s) %s\n", e->row.dflt, range[0] ? ", " : "", range,
                    e->row.help);
        }
    }
}

/* Names Shoal's tools read, not the library: oshcc's and oshc++'s compilers
 * (oshcc(1)). A user who exports SHOAL_CC for the build runs the program with it
 * still set, which is no typo. */
static const char *const tool_names[] = {"SHOAL_CC", "SHOAL_CXX", "SHOAL_NVCC"};

#define N_TOOL (sizeof(tool_names) / sizeof(tool_names[0]))
#define N_KNOWN (N_ENTRIES + N_SMA + N_TOOL)

/* Known name i: the table's, their SMA_ aliases, then the tools' names. */
static const char *known_name(size_t i)
{
    if (i < N_ENTRIES)
        return entries[i].row.name;
    if (i < N_ENTRIES + N_SMA)
        return sma_names[i - N_ENTRIES][1];
    return tool_names[i - N_ENTRIES - N_SMA];
}

/* Edit distance of a and b, up to 4 (anything larger counts as 4): enough to tell
 * a typo from another name. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb)
{
    size_t row[64], i, j;

    if (na >= 64 || nb >= 64)
        return 4;
    for (j = 0; j <= nb; j++)
        row[j] = j;
    for (i = 1; i <= na; i++) {
        size_t diag = row[0], up;

        row[0] = i;
        for (j = 1; j <= nb; j++) {
            up = row[j];
            row[j] = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < row[j])
                row[j] = up + 1;
            if (row[j - 1] + 1 < row[j])
                row[j] = row[j - 1] + 1;
            diag = up;
        }
    }
    return row[nb] < 4 ? row[nb] : 4;
}

int shoal_env_unknown(char *const *env, char *name, size_t namelen, char *near, size_t nearlen)
{
    extern char **environ;
    int count = 0;

    if (env == NULL)
        env = environ;
    for (; env != NULL && *env != NULL; env++) {
        const char *e = *env, *eq = strchr(e, '=');
        size_t len = eq != NULL ? (size_t)(eq - e) : strlen(e), i, best = 4, d;
        const char *best_name = "";
        int known = 0;

        if (strncmp(e, "SHMEM_", 6) != 0 && strncmp(e, "SHOAL_", 6) != 0 &&
            strncmp(e, "SMA_", 4) != 0)
            continue;
        for (i = 0; i < N_KNOWN && !known; i++) {
            const char *k = known_name(i);

            known = strlen(k) == len && strncmp(k, e, len) == 0;
            d = distance(e, len, k, strlen(k));
            if (d < best) {
                best = d;
                best_name = k;
            }
        }
        if (known)
            continue;
        /* the first one, or the first that looks like a typo of a known name */
        if (count++ == 0 || (near[0] == '\0' && best_name[0] != '\0')) {
            snprintf(name, namelen, "%.*s", (int)len, e);
            snprintf(near, nearlen, "%s", best_name);
        }
    }
    return count;
}

int shoal_env_has(const char *name)
{
    return getenv(name) != NULL;
}

const char *shoal_env_oshrun_binding(void)
{
    return getenv("OSHRUN_BINDING");
}

int shoal_env_launched_by_pmix(void)
{
    return getenv("PMIX_NAMESPACE") != NULL && getenv("PMIX_RANK") != NULL;
}
