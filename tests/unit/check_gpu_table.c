/* check_gpu_table.c - checks the API table's GPU rows against its host rows, with
 * no CUDA: every host RMA, AMO and point-to-point routine NVSHMEM has has its
 * nvshmem_ device twin (and the single-variable waits their nvshmemx_ stream
 * forms) with the same parameters, element size and signedness, and nothing
 * else is there. The C compiler compares each device prototype with its host
 * twin's declaration. Never calls a routine. */
#include <check.h>

#include "check_main.h"
#include <stdio.h>
#include <string.h>

#include "shmem.h"
#include "shoal_gpu_tables.h"
#include "shoal_type_tables.h"

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Each device prototype, as a host function type, is its twin's type. */
#define TWIN_TYPE(dev, host, ret, params)                                                       \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&host), ret(*) params),             \
                   #dev " does not take what " #host " takes");
SHOAL_GPU_DEVICE_TWINS(TWIN_TYPE)
#undef TWIN_TYPE

/* The host ops whose routines have a device twin: NVSHMEM has no context, strided,
 * signal, collective or _nbi AMO forms, nor the deprecated AMO names. */
static const char *const mirrored[] = {
    "put", "get", "p", "g", "put_nbi", "get_nbi", "put_signal", "put_signal_nbi",
    "atomic_compare_swap", "atomic_fetch_inc", "atomic_inc", "atomic_fetch_add", "atomic_add",
    "atomic_fetch", "atomic_set", "atomic_swap",
    "atomic_fetch_and", "atomic_and", "atomic_fetch_or", "atomic_or", "atomic_fetch_xor",
    "atomic_xor",
    "wait_until", "wait_until_all", "wait_until_any", "wait_until_some", "wait_until_all_vector",
    "wait_until_any_vector", "wait_until_some_vector", "test", "test_all", "test_any",
    "test_some", "test_all_vector", "test_any_vector", "test_some_vector", "wait"};
/* ... and of those, the ones with a stream form. */
static const char *const streamed[] = {"wait_until", "wait"};

typedef struct {
    const char *typename;
    size_t size;
    int is_signed;
} p2p_type_t;

#define P2P_TYPE(type, name, sgn) {#name, sizeof(type), sgn},
static const p2p_type_t p2p_types[] = {SHOAL_P2P_TYPES_SIGNED(P2P_TYPE)};
#undef P2P_TYPE
#define NAME_ONLY(type, name) #name,
static const char *const depr_wait_types[] = {SHOAL_DEPR_WAIT_TYPES(NAME_ONLY)};
#undef NAME_ONLY

static int in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return 1;
    return 0;
}

static const shoal_gpu_routine_info_t *gpu_by_name(const char *name)
{
    for (size_t i = 0; i < SHOAL_GPU_ROUTINE_INFO_COUNT; i++)
        if (strcmp(shoal_gpu_routine_info[i].name, name) == 0)
            return &shoal_gpu_routine_info[i];
    return NULL;
}

static const shoal_routine_info_t *host_by_name(const char *name)
{
    for (size_t i = 0; i < SHOAL_ROUTINE_INFO_COUNT; i++)
        if (strcmp(shoal_routine_info[i].name, name) == 0)
            return &shoal_routine_info[i];
    return NULL;
}

static const p2p_type_t *p2p_type(const char *typename)
{
    for (size_t i = 0; i < NELEMS(p2p_types); i++)
        if (strcmp(p2p_types[i].typename, typename) == 0)
            return &p2p_types[i];
    return NULL;
}

/* The untyped deprecated waits (long only) have no twin. */
static int untyped_wait(const shoal_routine_info_t *h)
{
    return strcmp(h->name, "shmem_wait") == 0 || strcmp(h->name, "shmem_wait_until") == 0;
}

/* Looped over the host routines: a mirrored one has its twins, which say so. */
START_TEST(test_host_rows_mirrored)
{
    const shoal_routine_info_t *h = &shoal_routine_info[_i];
    const shoal_gpu_routine_info_t *d;
    char name[96], params[256];

    if (!in_list(h->op, mirrored, NELEMS(mirrored)) || untyped_wait(h))
        return;
    snprintf(name, sizeof(name), "nv%s", h->name);
    d = gpu_by_name(name);
    if (strcmp(h->key, "longdouble") == 0) { /* device code has no long double */
        ck_assert_msg(d == NULL, "%s: NVSHMEM has no long double routines", name);
        return;
    }
    ck_assert_msg(d != NULL, "%s has no device twin %s", h->name, name);
    ck_assert_msg(!d->stream && strcmp(d->twin, h->name) == 0, "%s: twin %s, want %s", name,
                  d->twin, h->name);
    ck_assert_str_eq(d->op, h->op);
    ck_assert_str_eq(d->key, h->key);
    ck_assert_msg(d->elem_size == h->elem_size, "%s: element size %zu, %s has %zu", name,
                  d->elem_size, h->name, h->elem_size);
    ck_assert_msg(strcmp(d->params, d->twin_params) == 0, "%s (%s) and %s (%s) differ", name,
                  d->params, h->name, d->twin_params);
    if (!in_list(h->op, streamed, NELEMS(streamed)))
        return;
    snprintf(name, sizeof(name), "nvshmemx_%s_on_stream", h->name + strlen("shmem_"));
    d = gpu_by_name(name);
    ck_assert_msg(d != NULL, "%s has no stream form %s", h->name, name);
    ck_assert_msg(d->stream && strcmp(d->twin, h->name) == 0, "%s: twin %s, want %s", name,
                  d->twin, h->name);
    snprintf(params, sizeof(params), "%s, cudaStream_t stream", d->twin_params);
    ck_assert_msg(strcmp(d->params, params) == 0, "%s takes (%s), want (%s)", name, d->params,
                  params);
    ck_assert_str_eq(d->ret, "void");
    ck_assert_msg(d->elem_size == h->elem_size, "%s: element size %zu, %s has %zu", name,
                  d->elem_size, h->name, h->elem_size);
}
END_TEST

/* Looped over the GPU routines: each mirrors a host routine that exists, or is
 * one of the two kinds the host has no typed twin for; the point-to-point ones
 * pass their type's size and signedness. */
START_TEST(test_gpu_rows)
{
    const shoal_gpu_routine_info_t *d = &shoal_gpu_routine_info[_i];
    const p2p_type_t *t = p2p_type(d->key);
    const int p2p = strncmp(d->op, "wait", 4) == 0 || strncmp(d->op, "test", 4) == 0 ||
                    strcmp(d->op, "signal_wait_until") == 0;

    ck_assert_msg(strncmp(d->name, d->stream ? "nvshmemx_" : "nvshmem_",
                          d->stream ? 9 : 8) == 0, "%s: wrong prefix", d->name);
    if (d->twin[0] != '\0') {
        const shoal_routine_info_t *h = host_by_name(d->twin);

        ck_assert_msg(h != NULL && h->fn != NULL, "%s: twin %s is no host routine", d->name,
                      d->twin);
        ck_assert_str_eq(d->op, h->op);
    } else if (strcmp(d->op, "wait") == 0) {
        /* NVSHMEM's deprecated wait takes every p2p type, the host's only some. */
        ck_assert_msg(t != NULL && !in_list(d->key, depr_wait_types, NELEMS(depr_wait_types)),
                      "%s: has no twin, but shmem_%s_wait exists", d->name, d->key);
    } else {
        ck_assert_str_eq(d->name, "nvshmemx_signal_wait_until_on_stream");
        ck_assert(host_by_name("shmem_signal_wait_until") == NULL); /* untyped: no row */
        ck_assert_str_eq(d->params, "uint64_t *sig_addr, int cmp, uint64_t cmp_value, "
                                    "cudaStream_t stream");
    }
    if (p2p) {
        ck_assert_msg(t != NULL, "%s: %s is no point-to-point type", d->name, d->key);
        ck_assert_msg(d->elem_size == t->size && d->is_signed == t->is_signed,
                      "%s passes size %zu signed %d, want %zu and %d", d->name, d->elem_size,
                      d->is_signed, t->size, t->is_signed);
    } else {
        ck_assert_msg(d->is_signed == -1, "%s passes a signed column", d->name);
    }
}
END_TEST

/* Nothing more: the counts follow from the type lists. */
START_TEST(test_gpu_counts)
{
    size_t ndev = 0, nstream = 0, ntwins = 0;
    const size_t sized = SHOAL_RMA_SIZES_COUNT + 1; /* and mem */

    for (size_t i = 0; i < SHOAL_GPU_ROUTINE_INFO_COUNT; i++) {
        const shoal_gpu_routine_info_t *d = &shoal_gpu_routine_info[i];

        *(d->stream ? &nstream : &ndev) += 1;
        ntwins += !d->stream && d->twin[0] != '\0';
    }
    /* put, get, p, g, put_nbi, get_nbi for the RMA types less long double, and the
     * sized put, get, put_nbi, get_nbi; put_signal and put_signal_nbi for the signal
     * types less long double, and sized; 5 standard, 3 extended and 6 bitwise AMOs;
     * 14 wait and test forms and the deprecated wait for every p2p type */
    ck_assert_uint_eq(ndev, 6 * (SHOAL_RMA_TYPES_COUNT - 1) + 4 * sized +
                                2 * (SHOAL_SIGNAL_TYPES_COUNT - 1) + 2 * sized +
                                5 * SHOAL_AMO_STD_TYPES_COUNT + 3 * SHOAL_AMO_EXT_ALL_TYPES_COUNT +
                                6 * SHOAL_AMO_BIT_TYPES_COUNT + 15 * SHOAL_P2P_TYPES_COUNT);
    /* wait_until and wait for every p2p type, and signal_wait_until */
    ck_assert_uint_eq(nstream, 2 * SHOAL_P2P_TYPES_COUNT + 1);
    ck_assert_uint_eq(ntwins, SHOAL_GPU_DEVICE_TWINS_COUNT);
    ck_assert_uint_eq(ndev - ntwins, SHOAL_P2P_TYPES_COUNT - SHOAL_DEPR_WAIT_TYPES_COUNT);
}
END_TEST

/* The X-macro the compiler checked names the same pairs as the table. */
START_TEST(test_twin_list)
{
#define TWIN_NAMES(dev, host, ret, params) {#dev, #host},
    static const char *const twins[][2] = {SHOAL_GPU_DEVICE_TWINS(TWIN_NAMES)};
#undef TWIN_NAMES

    for (size_t i = 0; i < NELEMS(twins); i++) {
        const shoal_gpu_routine_info_t *d = gpu_by_name(twins[i][0]);

        ck_assert_msg(d != NULL && !d->stream, "%s: not a device routine", twins[i][0]);
        ck_assert_str_eq(d->twin, twins[i][1]);
    }
}
END_TEST

static Suite *gpu_table_suite(void)
{
    Suite *s = suite_create("gpu_table");
    TCase *tc = tcase_create("twins");

    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, test_host_rows_mirrored, 0, SHOAL_ROUTINE_INFO_COUNT);
    tcase_add_loop_test(tc, test_gpu_rows, 0, SHOAL_GPU_ROUTINE_INFO_COUNT);
    tcase_add_test(tc, test_gpu_counts);
    tcase_add_test(tc, test_twin_list);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_main_run_nofork(gpu_table_suite());
}
