/* check_api_table.c - checks the generated typed API against the C compiler:
 * the table's exact widths, the sized forms' widths, and that every C11
 * selection picks a routine of the right element size (the typedefs land on
 * a base type of the same size). Never calls a routine: no launcher needed. */
#include <check.h>

#include "check_main.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmem.h"
#include "shoal_type_tables.h"

#define NTYPES (sizeof(shoal_rma_type_info) / sizeof(shoal_rma_type_info[0]))

static const shoal_routine_info_t *routine_by_name(const char *name)
{
    for (size_t i = 0; i < SHOAL_ROUTINE_INFO_COUNT; i++)
        if (strcmp(shoal_routine_info[i].name, name) == 0)
            return &shoal_routine_info[i];
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
 * typed routine is in the routine table with that element size. */
START_TEST(test_type_size)
{
    static const char *const ops[] = {"put", "get", "p", "g", "iput", "iget", "put_nbi",
                                      "get_nbi"};
    const shoal_type_info_t *t = &shoal_rma_type_info[_i];
    char name[64];

    ck_assert_uint_gt(t->size, 0);
    if (t->bits != 0)
        ck_assert_msg(t->size * CHAR_BIT == t->bits, "%s: table says %u bits, sizeof is %zu",
                      t->type, t->bits, t->size);
    for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
        snprintf(name, sizeof(name), "shmem_%s_%s", t->typename, ops[k]);
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
    /* put, get, iput, iget, put_nbi, get_nbi x 5 sizes, plus 4 mem forms */
    ck_assert_uint_eq(nsized, 6 * SHOAL_RMA_SIZES_COUNT + 4);
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
    ck_assert(SHOAL_SELECT_put(dest) == shmem_long_put);
    ck_assert(SHOAL_SELECT_g((const int64_t *)0) == SHOAL_SELECT_g((int64_t *)0));
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
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
    tcase_add_loop_test(tc, test_generic_selection, 0, (int)NTYPES);
    tcase_add_test(tc, test_generic_macros_compile);
#endif
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_main_run(api_table_suite());
}
