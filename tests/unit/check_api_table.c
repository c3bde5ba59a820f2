/* check_api_table.c - checks the generated typed API against the C compiler:
 * the table's exact widths, the sized forms' widths, that every family's
 * routines (and their shmem_ctx_ forms) exist for every type of its list, that
 * every C11 selection picks a routine of the right element size and signedness
 * (the typedefs land on a base type of the same size), and that the generic
 * names take both arities; the same for the families OpenSHMEM 1.6 added. Never calls a
 * routine: no launcher needed. */
#include <check.h>

#include "check_main.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmemx.h"
#include "shoal_type_tables.h"

#define NTYPES (sizeof(shoal_rma_type_info) / sizeof(shoal_rma_type_info[0]))
#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

static const shoal_routine_info_t *routine_by_name(const char *name)
{
    for (size_t i = 0; i < SHOAL_ROUTINE_INFO_COUNT; i++)
        if (strcmp(shoal_routine_info[i].name, name) == 0)
            return &shoal_routine_info[i];
    return NULL;
}

static const shoal_type_info_t *type_by_name(const char *typename)
{
    for (size_t i = 0; i < NTYPES; i++)
        if (strcmp(shoal_rma_type_info[i].typename, typename) == 0)
            return &shoal_rma_type_info[i];
    return NULL;
}

static const shoal_routine_info_t *routine_by_fn(shoal_fn_t fn)
{
    for (size_t i = 0; i < SHOAL_ROUTINE_INFO_COUNT; i++)
        if (shoal_routine_info[i].fn == fn)
            return &shoal_routine_info[i];
    return NULL;
}

/* The generated lists agree on the number of standard RMA types. */
START_TEST(test_lists_agree)
{
#define COUNT_ONE(type, name) +1
    ck_assert_uint_eq(NTYPES, 0 SHOAL_RMA_TYPES(COUNT_ONE));
    ck_assert_uint_eq(NTYPES, SHOAL_RMA_TYPES_COUNT);
#undef COUNT_ONE
}
END_TEST

/* Looped over the RMA types: the recorded width matches sizeof, and each
 * typed routine, its context form and the typed team collectives are in the
 * routine table with that element size. */
START_TEST(test_type_size)
{
    static const char *const ops[] = {"put",  "get",     "p",          "g",
                                      "iput", "iget",    "put_nbi",    "get_nbi",
                                      "put_signal", "put_signal_nbi"};
    static const char *const coll[] = {"broadcast", "collect", "fcollect", "alltoall",
                                       "alltoalls"};
    const shoal_type_info_t *t = &shoal_rma_type_info[_i];
    char name[64];

    ck_assert_uint_gt(t->size, 0);
    if (t->bits != 0)
        ck_assert_msg(t->size * CHAR_BIT == t->bits, "%s: table says %u bits, sizeof is %zu",
                      t->type, t->bits, t->size);
    for (size_t k = 0; k < 2 * NELEMS(ops) + NELEMS(coll); k++) {
        if (k < NELEMS(ops))
            snprintf(name, sizeof(name), "shmem_%s_%s", t->typename, ops[k]);
        else if (k < 2 * NELEMS(ops))
            snprintf(name, sizeof(name), "shmem_ctx_%s_%s", t->typename, ops[k - NELEMS(ops)]);
        else
            snprintf(name, sizeof(name), "shmem_%s_%s", t->typename, coll[k - 2 * NELEMS(ops)]);
        const shoal_routine_info_t *r = routine_by_name(name);
        ck_assert_msg(r != NULL, "%s missing from the routine table", name);
        ck_assert(r->fn != NULL);
        ck_assert_str_eq(r->key, t->typename);
        ck_assert_msg(r->elem_size == t->size, "%s: element size %zu, sizeof(%s) is %zu", name,
                      r->elem_size, t->type, t->size);
    }
}
END_TEST

/* The sized forms move SIZE bits per element; mem forms move bytes. */
START_TEST(test_sized_widths)
{
    size_t nsized = 0;

    for (size_t i = 0; i < SHOAL_ROUTINE_INFO_COUNT; i++) {
        const shoal_routine_info_t *r = &shoal_routine_info[i];
        char *end;
        unsigned long bits = strtoul(r->key, &end, 10);

        if (strcmp(r->key, "mem") == 0) {
            ck_assert_uint_eq(r->elem_size, 1);
            nsized++;
        } else if (*end == '\0' && end != r->key) {
            ck_assert_msg(r->elem_size * 8 == bits, "%s: element size %zu", r->name,
                          r->elem_size);
            nsized++;
        }
    }
    /* put, get, iput, iget, put_nbi, get_nbi, put_signal, put_signal_nbi and
     * shmem_ibput, shmem_ibget x 5 sizes, plus 6 mem forms (all but the strided
     * ones); each twice, with its shmem_ctx_ form; then the deprecated active-set
     * broadcast, collect, fcollect, alltoall and alltoalls, 32 and 64 bits only,
     * without a ctx form */
    ck_assert_uint_eq(nsized, 2 * (10 * SHOAL_RMA_SIZES_COUNT + 6) + 5 * 2);
}
END_TEST

/* One family's routines: each "shmem_<TYPENAME>_<suffix>" exists, with the
 * element size of its type and the right op. */
typedef struct {
    const char *type;
    const char *typename;
    size_t size;
} family_type_t;

#define FAMILY_TYPE(type, name) {#type, #name, sizeof(type)},
static const family_type_t amo_std_types[] = {SHOAL_AMO_STD_TYPES(FAMILY_TYPE)};
static const family_type_t amo_ext_types[] = {SHOAL_AMO_EXT_ALL_TYPES(FAMILY_TYPE)};
static const family_type_t amo_bit_types[] = {SHOAL_AMO_BIT_TYPES(FAMILY_TYPE)};
static const family_type_t p2p_types[] = {SHOAL_P2P_TYPES(FAMILY_TYPE)};
static const family_type_t signal_types[] = {SHOAL_SIGNAL_TYPES(FAMILY_TYPE)};
static const family_type_t depr_amo_types[] = {SHOAL_DEPR_AMO_TYPES(FAMILY_TYPE)};
static const family_type_t depr_amo_ext_types[] = {SHOAL_DEPR_AMO_EXT_TYPES(FAMILY_TYPE)};
static const family_type_t depr_wait_types[] = {SHOAL_DEPR_WAIT_TYPES(FAMILY_TYPE)};
static const family_type_t red_bit_types[] = {SHOAL_REDUCE_BIT_TYPES(FAMILY_TYPE)};
static const family_type_t red_minmax_types[] = {SHOAL_REDUCE_MINMAX_TYPES(FAMILY_TYPE)};
static const family_type_t red_arith_types[] = {SHOAL_REDUCE_ARITH_TYPES(FAMILY_TYPE)};
static const family_type_t toall_bit_types[] = {SHOAL_TOALL_BIT_TYPES(FAMILY_TYPE)};
static const family_type_t toall_minmax_types[] = {SHOAL_TOALL_MINMAX_TYPES(FAMILY_TYPE)};
static const family_type_t toall_arith_types[] = {SHOAL_TOALL_ARITH_TYPES(FAMILY_TYPE)};
#undef FAMILY_TYPE

static void check_family_ctx(const family_type_t *types, size_t ntypes,
                             const char *const *suffixes, size_t nsuffixes,
                             const char *const *ops, int ctx)
{
    char name[96], op[64];

    for (size_t t = 0; t < ntypes; t++) {
        for (size_t k = 0; k < nsuffixes; k++) {
            snprintf(name, sizeof(name), "shmem_%s%s_%s", ctx ? "ctx_" : "", types[t].typename,
                     suffixes[k]);
            snprintf(op, sizeof(op), "%s%s", ctx ? "ctx_" : "", ops[k]);
            const shoal_routine_info_t *r = routine_by_name(name);
            ck_assert_msg(r != NULL, "%s missing from the routine table", name);
            ck_assert_msg(r->elem_size == types[t].size, "%s: element size %zu, sizeof(%s) is %zu",
                          name, r->elem_size, types[t].type, types[t].size);
            ck_assert_str_eq(r->key, types[t].typename);
            ck_assert_msg(strcmp(r->op, op) == 0, "%s: op %s, want %s", name, r->op, op);
        }
    }
}

static void check_family(const family_type_t *types, size_t ntypes, const char *const *suffixes,
                         size_t nsuffixes, const char *const *ops)
{
    check_family_ctx(types, ntypes, suffixes, nsuffixes, ops, 0);
}

START_TEST(test_amo_families)
{
    static const char *const std[] = {"atomic_compare_swap", "atomic_fetch_inc", "atomic_inc",
                                      "atomic_fetch_add", "atomic_add",
                                      "atomic_compare_swap_nbi", "atomic_fetch_inc_nbi",
                                      "atomic_fetch_add_nbi"};
    static const char *const ext[] = {"atomic_fetch", "atomic_set", "atomic_swap",
                                      "atomic_fetch_nbi", "atomic_swap_nbi"};
    static const char *const bit[] = {"atomic_fetch_and", "atomic_and", "atomic_fetch_and_nbi",
                                      "atomic_fetch_or", "atomic_or", "atomic_fetch_or_nbi",
                                      "atomic_fetch_xor", "atomic_xor", "atomic_fetch_xor_nbi"};
    static const char *const depr[] = {"cswap", "finc", "inc", "fadd", "add"};
    static const char *const depr_ext[] = {"fetch", "set", "swap"};

    check_family(amo_std_types, NELEMS(amo_std_types), std, NELEMS(std), std);
    check_family(amo_ext_types, NELEMS(amo_ext_types), ext, NELEMS(ext), ext);
    check_family(amo_bit_types, NELEMS(amo_bit_types), bit, NELEMS(bit), bit);
    /* Every current AMO has a context form; the deprecated names have none. */
    check_family_ctx(amo_std_types, NELEMS(amo_std_types), std, NELEMS(std), std, 1);
    check_family_ctx(amo_ext_types, NELEMS(amo_ext_types), ext, NELEMS(ext), ext, 1);
    check_family_ctx(amo_bit_types, NELEMS(amo_bit_types), bit, NELEMS(bit), bit, 1);
    ck_assert(routine_by_name("shmem_ctx_long_cswap") == NULL);
    ck_assert(routine_by_name("shmem_ctx_long_fadd") == NULL);
    check_family(depr_amo_types, NELEMS(depr_amo_types), depr, NELEMS(depr), depr);
    check_family(depr_amo_ext_types, NELEMS(depr_amo_ext_types), depr_ext, NELEMS(depr_ext),
                 depr_ext);
    /* The spec's tables: the extended types are the standard ones plus two. */
    ck_assert_uint_eq(SHOAL_AMO_STD_TYPES_COUNT, 12);
    ck_assert_uint_eq(SHOAL_AMO_EXT_TYPES_COUNT, 2);
    ck_assert_uint_eq(SHOAL_AMO_EXT_ALL_TYPES_COUNT, 14);
    ck_assert_uint_eq(SHOAL_AMO_BIT_TYPES_COUNT, 7);
}
END_TEST

START_TEST(test_p2p_signal_families)
{
    static const char *const p2p[] = {"wait_until",       "wait_until_all",
                                      "wait_until_any",   "wait_until_some",
                                      "wait_until_all_vector", "wait_until_any_vector",
                                      "wait_until_some_vector", "test",
                                      "test_all",         "test_any",
                                      "test_some",        "test_all_vector",
                                      "test_any_vector",  "test_some_vector"};
    static const char *const wait[] = {"wait"};
    static const char *const sig[] = {"put_signal", "put_signal_nbi"};
    const shoal_routine_info_t *r;

    check_family(p2p_types, NELEMS(p2p_types), p2p, NELEMS(p2p), p2p);
    check_family(depr_wait_types, NELEMS(depr_wait_types), wait, NELEMS(wait), wait);
    check_family(signal_types, NELEMS(signal_types), sig, NELEMS(sig), sig);
    check_family_ctx(signal_types, NELEMS(signal_types), sig, NELEMS(sig), sig, 1);
    ck_assert(routine_by_name("shmem_ctx_long_wait_until") == NULL);
    ck_assert_uint_eq(SHOAL_P2P_TYPES_COUNT, 14);
    /* The deprecated untyped waits work on long. */
    r = routine_by_name("shmem_wait");
    ck_assert(r != NULL && r->elem_size == sizeof(long) && strcmp(r->key, "long") == 0);
    r = routine_by_name("shmem_wait_until");
    ck_assert(r != NULL && r->elem_size == sizeof(long) && strcmp(r->key, "long") == 0);
}
END_TEST

/* The reductions, team and active-set, over the spec's tables of types. */
START_TEST(test_reduce_families)
{
    static const char *const bit[] = {"and_reduce", "or_reduce", "xor_reduce"};
    static const char *const minmax[] = {"max_reduce", "min_reduce"};
    static const char *const arith[] = {"sum_reduce", "prod_reduce"};
    static const char *const tbit[] = {"and_to_all", "or_to_all", "xor_to_all"};
    static const char *const tminmax[] = {"max_to_all", "min_to_all"};
    static const char *const tarith[] = {"sum_to_all", "prod_to_all"};

    check_family(red_bit_types, NELEMS(red_bit_types), bit, NELEMS(bit), bit);
    check_family(red_minmax_types, NELEMS(red_minmax_types), minmax, NELEMS(minmax), minmax);
    check_family(red_arith_types, NELEMS(red_arith_types), arith, NELEMS(arith), arith);
    check_family(toall_bit_types, NELEMS(toall_bit_types), tbit, NELEMS(tbit), tbit);
    check_family(toall_minmax_types, NELEMS(toall_minmax_types), tminmax, NELEMS(tminmax),
                 tminmax);
    check_family(toall_arith_types, NELEMS(toall_arith_types), tarith, NELEMS(tarith), tarith);
    /* OpenSHMEM 1.5, tables "Reduction Types, Names and Supporting Operations" */
    ck_assert_uint_eq(SHOAL_REDUCE_BIT_TYPES_COUNT, 14);
    ck_assert_uint_eq(SHOAL_REDUCE_MINMAX_TYPES_COUNT, 24);
    ck_assert_uint_eq(SHOAL_REDUCE_ARITH_TYPES_COUNT, 26);
    ck_assert_uint_eq(SHOAL_TOALL_BIT_TYPES_COUNT, 4);
    ck_assert_uint_eq(SHOAL_TOALL_MINMAX_TYPES_COUNT, 7);
    ck_assert_uint_eq(SHOAL_TOALL_ARITH_TYPES_COUNT, 9);
    ck_assert_uint_eq(SHOAL_REDUCE_ARITH_TYPES_KIND_COUNT, SHOAL_REDUCE_ARITH_TYPES_COUNT);
}
END_TEST

/* The KIND column agrees with what the compiler makes of each type: 'f' keeps
 * a half, the integer kinds drop it and 'i' is signed. (The min/max lists hold
 * every non-complex kind; complex has no order to ask about.) */
static void check_kind(const char *type, int kind, int keeps_half, int c_signed)
{
    if (kind == 'f') {
        ck_assert_msg(keeps_half, "%s: KIND 'f' but (%s)0.5 is 0", type, type);
        return;
    }
    ck_assert_msg(kind == 'i' || kind == 'u', "%s: KIND %c", type, kind);
    ck_assert_msg(!keeps_half, "%s: KIND %c but it keeps a half", type, kind);
    ck_assert_msg((kind == 'i') == c_signed, "%s: KIND %c, C says signed=%d", type, kind,
                  c_signed);
}

START_TEST(test_reduce_kinds)
{
#define CHECK_KIND(type, name, kind) \
    check_kind(#type, kind, (type)0.5 != (type)0, (type)-1 < (type)1);
    SHOAL_REDUCE_MINMAX_TYPES_KIND(CHECK_KIND)
    SHOAL_TOALL_MINMAX_TYPES_KIND(CHECK_KIND)
    SHOAL_REDUCE_BIT_TYPES_KIND(CHECK_KIND)
    SHOAL_TOALL_BIT_TYPES_KIND(CHECK_KIND)
#undef CHECK_KIND
#define COUNT_COMPLEX(type, name, kind) +((kind) == 'c')
    ck_assert_int_eq(0 SHOAL_REDUCE_ARITH_TYPES_KIND(COUNT_COMPLEX), 2);
    ck_assert_int_eq(0 SHOAL_TOALL_ARITH_TYPES_KIND(COUNT_COMPLEX), 2);
#undef COUNT_COMPLEX
}
END_TEST

/* The signed column the wait and test wrappers pass agrees with the C type
 * (c_signed: what the compiler says) and with the type table. */
static void check_sign(const char *type, const char *typename, int table, int c_signed)
{
    const shoal_type_info_t *t = type_by_name(typename);

    ck_assert_msg(table == c_signed, "%s: table says signed=%d, C says %d", type, table, c_signed);
    ck_assert_msg(t != NULL && t->is_signed == table, "%s: type table disagrees", type);
}

START_TEST(test_p2p_signedness)
{
#define CHECK_SIGN(type, name, sgn) check_sign(#type, #name, sgn, (type)-1 < (type)1);
    SHOAL_P2P_TYPES_SIGNED(CHECK_SIGN)
#undef CHECK_SIGN
}
END_TEST

/* The typed families OpenSHMEM 1.6 added: blocked strided RMA over the standard
 * RMA types and the scans over the SUM types, each with its op, size and (for
 * RMA) context form. */
START_TEST(test_1_6_families)
{
    static const char *const rma[] = {"ibput", "ibget"};
    static const char *const scan[] = {"sum_inscan", "sum_exscan"};
    char name[96], op[64];

    for (size_t t = 0; t < NTYPES; t++) {
        for (size_t k = 0; k < 2 * NELEMS(rma); k++) {
            int ctx = k >= NELEMS(rma);

            snprintf(name, sizeof(name), "shmem_%s%s_%s", ctx ? "ctx_" : "",
                     shoal_rma_type_info[t].typename, rma[k % NELEMS(rma)]);
            snprintf(op, sizeof(op), "%s%s", ctx ? "ctx_" : "", rma[k % NELEMS(rma)]);
            const shoal_routine_info_t *r = routine_by_name(name);
            ck_assert_msg(r != NULL, "%s missing from the routine table", name);
            ck_assert_uint_eq(r->elem_size, shoal_rma_type_info[t].size);
            ck_assert_msg(strcmp(r->op, op) == 0, "%s: op %s, want %s", name, r->op, op);
        }
    }
    for (size_t t = 0; t < NELEMS(red_arith_types); t++) {
        for (size_t k = 0; k < NELEMS(scan); k++) {
            snprintf(name, sizeof(name), "shmem_%s_%s", red_arith_types[t].typename, scan[k]);
            const shoal_routine_info_t *r = routine_by_name(name);
            ck_assert_msg(r != NULL, "%s missing from the routine table", name);
            ck_assert_uint_eq(r->elem_size, red_arith_types[t].size);
            ck_assert_str_eq(r->op, scan[k]);
        }
    }
    /* The spec's text has no mem form of the blocked routines, and no context
     * form of the scans. */
    ck_assert(routine_by_name("shmem_ibputmem") == NULL);
    ck_assert(routine_by_name("shmem_ctx_long_sum_inscan") == NULL);
    ck_assert(routine_by_name("shmem_ctx_ibget128") != NULL);
}
END_TEST

/* Shoal's shmemx_ names of the 1.6 routines are aliases: the same code, at the
 * address of the shmem_ routine (a wrapper would have one of its own). */
START_TEST(test_shmemx_aliases)
{
    ck_assert(shmemx_int_ibput == shmem_int_ibput);
    ck_assert(shmemx_ctx_ibget128 == shmem_ctx_ibget128);
    ck_assert(shmemx_complexd_sum_exscan == shmem_complexd_sum_exscan);
    ck_assert((shmemx_signal_add) == (shmem_signal_add));
    ck_assert((shmemx_ctx_signal_set) == (shmem_ctx_signal_set));
    ck_assert(shmemx_pe_quiet == shmem_pe_quiet);
    ck_assert(shmemx_ctx_session_start == shmem_ctx_session_start);
    ck_assert(shmemx_ctx_session_stop == shmem_ctx_session_stop);
    ck_assert(SHMEMX_CTX_SESSION_BATCH == SHMEM_CTX_SESSION_BATCH);
    ck_assert(SHMEMX_CTX_SESSION_TOTAL_OPS == SHMEM_CTX_SESSION_TOTAL_OPS);
}
END_TEST

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
static void check_selected(const char *type, size_t size, const char *typename, int exact,
                           const char *op, shoal_fn_t fn)
{
    const shoal_routine_info_t *r = routine_by_fn(fn);

    ck_assert_msg(r != NULL, "shmem_%s on %s * selects no generated routine", op, type);
    ck_assert_msg(r->elem_size == size, "shmem_%s on %s * selects %s (element size %zu, want %zu)",
                  op, type, r->name, r->elem_size, size);
    ck_assert_msg(strcmp(r->op, op) == 0 || (strcmp(op, "g_const") == 0 && strcmp(r->op, "g") == 0),
                  "shmem_%s on %s * selects %s", op, type, r->name);
    /* A base C type must land on its own routine, not on a same-size twin. */
    if (exact)
        ck_assert_msg(strcmp(r->key, typename) == 0, "shmem_%s on %s * selects %s", op, type,
                      r->name);
}

/* Looped over the RMA types: what the C11 generic macros pick. */
START_TEST(test_generic_selection)
{
    const shoal_type_info_t *t = &shoal_rma_type_info[_i];
    const shoal_rma_select_t *s = &shoal_rma_select[_i];

    ck_assert_str_eq(s->typename, t->typename);
    check_selected(t->type, t->size, t->typename, t->c11, "put", s->put);
    check_selected(t->type, t->size, t->typename, t->c11, "get", s->get);
    check_selected(t->type, t->size, t->typename, t->c11, "p", s->p);
    check_selected(t->type, t->size, t->typename, t->c11, "g", s->g);
    check_selected(t->type, t->size, t->typename, t->c11, "g_const", s->g_const);
    ck_assert(s->g == s->g_const);
    check_selected(t->type, t->size, t->typename, t->c11, "iput", s->iput);
    check_selected(t->type, t->size, t->typename, t->c11, "iget", s->iget);
    check_selected(t->type, t->size, t->typename, t->c11, "put_nbi", s->put_nbi);
    check_selected(t->type, t->size, t->typename, t->c11, "get_nbi", s->get_nbi);
}
END_TEST

/* Looped over every selection of every generic macro and type: the routine
 * picked is of that macro's op, has the type's size, is the type's own routine
 * for a base C type, and for a typedef has the typedef's signedness (an
 * int64_t must not land on an unsigned long routine). */
START_TEST(test_generic_selection_all)
{
    const shoal_select_info_t *s = &shoal_select_info[_i];
    const shoal_routine_info_t *r = routine_by_fn(s->fn);
    const char *cq = s->is_const ? "const " : "";

    ck_assert_msg(r != NULL, "shmem_%s on %s%s * selects no generated routine", s->op, cq,
                  s->type);
    ck_assert_msg(strcmp(r->op, s->op) == 0, "shmem_%s on %s%s * selects %s", s->op, cq, s->type,
                  r->name);
    ck_assert_msg(r->elem_size == s->size,
                  "shmem_%s on %s%s * selects %s (element size %zu, want %zu)", s->op, cq,
                  s->type, r->name, r->elem_size, s->size);
    if (s->c11) {
        ck_assert_msg(strcmp(r->key, s->typename) == 0, "shmem_%s on %s%s * selects %s", s->op,
                      cq, s->type, r->name);
    } else {
        const shoal_type_info_t *t = type_by_name(r->key);

        ck_assert_msg(t != NULL, "%s: key %s is no known type", r->name, r->key);
        ck_assert_msg(t->is_signed == s->is_signed,
                      "shmem_%s on %s%s * selects %s (signed %d, want %d)", s->op, cq, s->type,
                      r->name, t->is_signed, s->is_signed);
    }
}
END_TEST

/* The user-facing macros expand to the selected function (type check only). */
START_TEST(test_generic_macros_compile)
{
    static long dest[4];
    long src[4] = {0};

    if (0) {
        shmem_put(dest, src, 4, 0);
        shmem_get(src, dest, 4, 0);
        shmem_p(&dest[0], 1L, 0);
        (void)shmem_g((const long *)dest, 0);
        shmem_iput(dest, src, 1, 1, 4, 0);
        shmem_iget(src, dest, 1, 1, 4, 0);
        shmem_put_nbi(dest, src, 4, 0);
        shmem_get_nbi(src, dest, 4, 0);
    }
    if (0) {
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;

        shmem_put(ctx, dest, src, 4, 0);
        shmem_get(SHMEM_CTX_DEFAULT, src, dest, 4, 0);
        shmem_p(ctx, &dest[0], 1L, 0);
        src[0] = shmem_g(ctx, (const long *)dest, 0) + shmem_g(ctx, dest, 0);
        shmem_iput(ctx, dest, src, 1, 1, 4, 0);
        shmem_iget(ctx, src, dest, 1, 1, 4, 0);
        shmem_put_nbi(ctx, dest, src, 4, 0);
        shmem_get_nbi(ctx, src, dest, 4, 0);
    }
    ck_assert(SHOAL_SELECT_put(dest) == shmem_long_put);
    ck_assert(SHOAL_SELECT_ctx_put(dest) == shmem_ctx_long_put);
    ck_assert(SHOAL_SELECT_ctx_g((const int64_t *)0) == SHOAL_SELECT_ctx_g((int64_t *)0));
    ck_assert(SHOAL_SELECT_g((const int64_t *)0) == SHOAL_SELECT_g((int64_t *)0));
}
END_TEST

START_TEST(test_generic_macros_amo_p2p_compile)
{
    static long l;
    static unsigned int u;
    static int32_t i32;
    static double d;
    static uint64_t sig;
    const long cl = 0;
    long lv[2] = {0, 0};
    size_t idx[2];

    if (0) {
        l = shmem_atomic_fetch(&cl, 0) + shmem_atomic_fetch(&l, 0);
        shmem_atomic_fetch_nbi(&l, &cl, 0);
        shmem_atomic_set(&d, 1.0, 0);
        d = shmem_atomic_swap(&d, 2.0, 0);
        shmem_atomic_swap_nbi(&d, &d, 2.0, 0);
        l = shmem_atomic_compare_swap(&l, 0L, 1L, 0);
        shmem_atomic_compare_swap_nbi(&l, &l, 0L, 1L, 0);
        l = shmem_atomic_fetch_inc(&l, 0);
        shmem_atomic_fetch_inc_nbi(&l, &l, 0);
        shmem_atomic_inc(&l, 0);
        l = shmem_atomic_fetch_add(&l, 2L, 0);
        shmem_atomic_fetch_add_nbi(&l, &l, 2L, 0);
        shmem_atomic_add(&l, 2L, 0);
        u = shmem_atomic_fetch_and(&u, 1u, 0) | shmem_atomic_fetch_or(&u, 1u, 0) |
            shmem_atomic_fetch_xor(&u, 1u, 0);
        shmem_atomic_and(&i32, 1, 0);
        shmem_atomic_or(&i32, 1, 0);
        shmem_atomic_xor(&i32, 1, 0);
        shmem_atomic_fetch_and_nbi(&u, &u, 1u, 0);
        shmem_atomic_fetch_or_nbi(&u, &u, 1u, 0);
        shmem_atomic_fetch_xor_nbi(&u, &u, 1u, 0);
        shmem_wait_until(&l, SHMEM_CMP_EQ, 1L);
        shmem_wait_until_all(lv, 2, NULL, SHMEM_CMP_EQ, 1L);
        idx[0] = shmem_wait_until_any(lv, 2, NULL, SHMEM_CMP_EQ, 1L);
        idx[0] = shmem_wait_until_some(lv, 2, idx, NULL, SHMEM_CMP_EQ, 1L);
        shmem_wait_until_all_vector(lv, 2, NULL, SHMEM_CMP_EQ, lv);
        idx[0] = shmem_wait_until_any_vector(lv, 2, NULL, SHMEM_CMP_EQ, lv);
        idx[0] = shmem_wait_until_some_vector(lv, 2, idx, NULL, SHMEM_CMP_EQ, lv);
        idx[0] = (size_t)shmem_test(&l, SHMEM_CMP_NE, 0L) + (size_t)shmem_test_all(lv, 2, NULL,
                 SHMEM_CMP_NE, 0L);
        idx[0] = shmem_test_any(lv, 2, NULL, SHMEM_CMP_EQ, 1L) +
                 shmem_test_some(lv, 2, idx, NULL, SHMEM_CMP_EQ, 1L);
        idx[0] = (size_t)shmem_test_all_vector(lv, 2, NULL, SHMEM_CMP_EQ, lv) +
                 shmem_test_any_vector(lv, 2, NULL, SHMEM_CMP_EQ, lv) +
                 shmem_test_some_vector(lv, 2, idx, NULL, SHMEM_CMP_EQ, lv);
        shmem_put_signal(&d, &d, 1, &sig, 1, SHMEM_SIGNAL_SET, 0);
        shmem_put_signal_nbi(&l, &l, 1, &sig, 1, SHMEM_SIGNAL_ADD, 0);
        l = shmem_cswap(&l, 0L, 1L, 0) + shmem_finc(&l, 0) + shmem_fadd(&l, 1L, 0) +
            shmem_fetch(&cl, 0);
        shmem_inc(&l, 0);
        shmem_add(&l, 1L, 0);
        shmem_set(&d, 1.0, 0);
        d = shmem_swap(&d, 1.0, 0);
        shmem_wait(&l, 0L);
        shmem_long_wait(&l, 0L);
        (shmem_wait_until)(&l, SHMEM_CMP_EQ, 0L);
    }
    if (0) {
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;

        l = shmem_atomic_fetch(ctx, &cl, 0) + shmem_atomic_fetch_add(ctx, &l, 2L, 0) +
            shmem_atomic_compare_swap(ctx, &l, 0L, 1L, 0) + shmem_atomic_fetch_inc(ctx, &l, 0);
        shmem_atomic_fetch_nbi(ctx, &l, &cl, 0);
        shmem_atomic_set(ctx, &d, 1.0, 0);
        d = shmem_atomic_swap(ctx, &d, 2.0, 0);
        shmem_atomic_swap_nbi(ctx, &d, &d, 2.0, 0);
        shmem_atomic_compare_swap_nbi(ctx, &l, &l, 0L, 1L, 0);
        shmem_atomic_fetch_inc_nbi(ctx, &l, &l, 0);
        shmem_atomic_fetch_add_nbi(ctx, &l, &l, 2L, 0);
        shmem_atomic_inc(ctx, &l, 0);
        shmem_atomic_add(ctx, &l, 2L, 0);
        u = shmem_atomic_fetch_and(ctx, &u, 1u, 0) | shmem_atomic_fetch_or(ctx, &u, 1u, 0) |
            shmem_atomic_fetch_xor(ctx, &u, 1u, 0);
        shmem_atomic_and(ctx, &i32, 1, 0);
        shmem_atomic_or(ctx, &i32, 1, 0);
        shmem_atomic_xor(ctx, &i32, 1, 0);
        shmem_atomic_fetch_and_nbi(ctx, &u, &u, 1u, 0);
        shmem_atomic_fetch_or_nbi(ctx, &u, &u, 1u, 0);
        shmem_atomic_fetch_xor_nbi(ctx, &u, &u, 1u, 0);
        shmem_put_signal(ctx, &d, &d, 1, &sig, 1, SHMEM_SIGNAL_SET, 0);
        shmem_put_signal_nbi(ctx, &l, &l, 1, &sig, 1, SHMEM_SIGNAL_ADD, 0);
    }
    ck_assert(SHOAL_SELECT_atomic_fetch_add((long *)0) == shmem_long_atomic_fetch_add);
    ck_assert(SHOAL_SELECT_atomic_fetch((const long *)0) == SHOAL_SELECT_atomic_fetch((long *)0));
    ck_assert(SHOAL_SELECT_atomic_and((int32_t *)0) == shmem_int32_atomic_and);
    ck_assert(SHOAL_SELECT_wait_until((unsigned long *)0) == shmem_ulong_wait_until);
    ck_assert(SHOAL_SELECT_test((short *)0) == shmem_short_test);
    ck_assert(SHOAL_SELECT_ctx_atomic_fetch_add((long *)0) == shmem_ctx_long_atomic_fetch_add);
    ck_assert(SHOAL_SELECT_ctx_atomic_and((int32_t *)0) == shmem_ctx_int32_atomic_and);
    ck_assert(SHOAL_SELECT_ctx_put_signal_nbi((double *)0) == shmem_ctx_double_put_signal_nbi);
}
END_TEST

START_TEST(test_generic_macros_coll_compile)
{
    static long l[4];
    static unsigned char uc[4];
    static double d[4];
    static double _Complex z[2];
    static float _Complex zf[2];
    int rc = 0;

    if (0) {
        rc |= shmem_broadcast(SHMEM_TEAM_WORLD, l, l, 4, 0);
        rc |= shmem_collect(SHMEM_TEAM_WORLD, l, l, 1);
        rc |= shmem_fcollect(SHMEM_TEAM_WORLD, uc, uc, 1);
        rc |= shmem_alltoall(SHMEM_TEAM_WORLD, d, d, 1);
        rc |= shmem_alltoalls(SHMEM_TEAM_WORLD, d, d, 1, 1, 1);
        rc |= shmem_and_reduce(SHMEM_TEAM_WORLD, uc, uc, 4) |
              shmem_or_reduce(SHMEM_TEAM_WORLD, uc, uc, 4) |
              shmem_xor_reduce(SHMEM_TEAM_WORLD, uc, uc, 4);
        rc |= shmem_max_reduce(SHMEM_TEAM_WORLD, d, d, 4) |
              shmem_min_reduce(SHMEM_TEAM_WORLD, l, l, 4);
        rc |= shmem_sum_reduce(SHMEM_TEAM_WORLD, z, z, 2) |
              shmem_prod_reduce(SHMEM_TEAM_WORLD, zf, zf, 2);
    }
    ck_assert_int_eq(rc, 0);
    ck_assert(SHOAL_SELECT_broadcast((long *)0) == shmem_long_broadcast);
    ck_assert(SHOAL_SELECT_sum_reduce((double _Complex *)0) == shmem_complexd_sum_reduce);
    ck_assert(SHOAL_SELECT_prod_reduce((float _Complex *)0) == shmem_complexf_prod_reduce);
    ck_assert(SHOAL_SELECT_and_reduce((int64_t *)0) == shmem_int64_and_reduce);
}
END_TEST

/* The C11 names OpenSHMEM 1.6 added, and their shmemx_ aliases: both arities of
 * ibput, ibget, signal_add and signal_set. */
START_TEST(test_generic_macros_1_6_compile)
{
    static long l[4];
    static uint64_t sig;
    long src[4] = {0};
    int rc = 0;

    if (0) {
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;

        shmemx_ibput(l, src, 2, 2, 2, 2, 0);
        shmemx_ibput(ctx, l, src, 2, 2, 2, 2, 0);
        shmemx_ibget(src, l, 2, 2, 2, 2, 0);
        shmemx_ibget(ctx, src, l, 2, 2, 2, 2, 0);
        shmemx_signal_add(&sig, 1, 0);
        shmemx_signal_add(ctx, &sig, 1, 0);
        shmemx_signal_set(&sig, 1, 0);
        shmemx_signal_set(ctx, &sig, 1, 0);
        rc |= shmemx_sum_inscan(SHMEM_TEAM_WORLD, l, l, 4) |
              shmemx_sum_exscan(SHMEM_TEAM_WORLD, l, src, 4);
        shmem_ibput(l, src, 2, 2, 2, 2, 0);
        shmem_ibput(ctx, l, src, 2, 2, 2, 2, 0);
        shmem_ibget(src, l, 2, 2, 2, 2, 0);
        shmem_ibget(ctx, src, l, 2, 2, 2, 2, 0);
        shmem_signal_add(&sig, 1, 0);
        shmem_signal_add(ctx, &sig, 1, 0);
        shmem_signal_set(&sig, 1, 0);
        shmem_signal_set(ctx, &sig, 1, 0);
        rc |= shmem_sum_inscan(SHMEM_TEAM_WORLD, l, l, 4) |
              shmem_sum_exscan(SHMEM_TEAM_WORLD, l, src, 4);
    }
    ck_assert_int_eq(rc, 0);
    ck_assert(SHOAL_SELECT_ibput(l) == shmem_long_ibput);
    ck_assert(SHOAL_SELECT_ctx_ibget((short *)0) == shmem_ctx_short_ibget);
    ck_assert(SHOAL_SELECT_sum_exscan((float _Complex *)0) == shmem_complexf_sum_exscan);
}
END_TEST
#endif

static Suite *api_table_suite(void)
{
    Suite *s = suite_create("api_table");
    TCase *tc = tcase_create("types");

    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_lists_agree);
    tcase_add_loop_test(tc, test_type_size, 0, (int)NTYPES);
    tcase_add_test(tc, test_sized_widths);
    tcase_add_test(tc, test_amo_families);
    tcase_add_test(tc, test_p2p_signal_families);
    tcase_add_test(tc, test_p2p_signedness);
    tcase_add_test(tc, test_reduce_families);
    tcase_add_test(tc, test_reduce_kinds);
    tcase_add_test(tc, test_1_6_families);
    tcase_add_test(tc, test_shmemx_aliases);
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
    tcase_add_loop_test(tc, test_generic_selection, 0, (int)NTYPES);
    tcase_add_test(tc, test_generic_macros_compile);
    tcase_add_loop_test(tc, test_generic_selection_all, 0, SHOAL_SELECT_INFO_COUNT);
    tcase_add_test(tc, test_generic_macros_amo_p2p_compile);
    tcase_add_test(tc, test_generic_macros_coll_compile);
    tcase_add_test(tc, test_generic_macros_1_6_compile);
#endif
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_main_run_nofork(api_table_suite());
}
