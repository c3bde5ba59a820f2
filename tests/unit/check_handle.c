/* Unit tests of the handle tables behind shmem_team_t and shmem_ctx_t: handles
 * find their object, a destroyed handle is told apart from a made-up one even
 * after its entry is reused, and no handle is 0 or a user address. */
#include <check.h>

#include "check_main.h"
#include <stdlib.h>

#include "shoal_handle.h"
#include "shoal_status.h"

static shoal_handles_t table = SHOAL_HANDLES_INIT(SHOAL_HANDLE_TEAM_TAG);

static void teardown(void)
{
    shoal_handle_cleanup(&table);
}

static uintptr_t add_ok(void *obj)
{
    uintptr_t h = 0;

    ck_assert_int_eq(shoal_handle_add(&table, obj, &h), SHOAL_OK);
    ck_assert_uint_ne(h, 0);
    return h;
}

static void *find(uintptr_t h, shoal_handle_state_t expect)
{
    shoal_handle_state_t state = SHOAL_HANDLE_LIVE;
    void *obj = shoal_handle_find(&table, h, &state);

    ck_assert_int_eq(state, expect);
    ck_assert(expect == SHOAL_HANDLE_LIVE ? obj != NULL : obj == NULL);
    return obj;
}

START_TEST(test_first_handles_are_the_predefined_ones)
{
    int a, b;

    ck_assert_uint_eq(add_ok(&a), SHOAL_TEAM_WORLD_HANDLE);
    ck_assert_uint_eq(add_ok(&b), SHOAL_TEAM_SHARED_HANDLE);
    ck_assert_ptr_eq(find(SHOAL_TEAM_WORLD_HANDLE, SHOAL_HANDLE_LIVE), &a);
    ck_assert_ptr_eq(find(SHOAL_TEAM_SHARED_HANDLE, SHOAL_HANDLE_LIVE), &b);
}
END_TEST

START_TEST(test_destroyed_handle_stays_destroyed_after_reuse)
{
    int a, b, c;
    uintptr_t ha = add_ok(&a), hb = add_ok(&b), hc;

    shoal_handle_remove(&table, hb);
    find(hb, SHOAL_HANDLE_DESTROYED);
    hc = add_ok(&c); /* takes b's entry under a new generation */
    ck_assert_uint_eq(hc & 0xfffff, hb & 0xfffff);
    ck_assert_uint_ne(hc, hb);
    find(hb, SHOAL_HANDLE_DESTROYED);
    ck_assert_ptr_eq(find(hc, SHOAL_HANDLE_LIVE), &c);
    ck_assert_ptr_eq(find(ha, SHOAL_HANDLE_LIVE), &a);
    shoal_handle_remove(&table, hb); /* a second remove of a stale handle changes nothing */
    ck_assert_ptr_eq(find(hc, SHOAL_HANDLE_LIVE), &c);
}
END_TEST

START_TEST(test_made_up_handles_are_foreign)
{
    int a, local;
    uintptr_t h = add_ok(&a);

    find((uintptr_t)&local, SHOAL_HANDLE_FOREIGN);                     /* an address */
    find(h + 1, SHOAL_HANDLE_FOREIGN);                                 /* never handed out */
    find(SHOAL_HANDLE_MAKE(SHOAL_HANDLE_CTX_TAG, 1, 0), SHOAL_HANDLE_FOREIGN); /* a context */
    find(SHOAL_HANDLE_MAKE(SHOAL_HANDLE_TEAM_TAG, 7, 0), SHOAL_HANDLE_FOREIGN); /* future gen */
    find(0, SHOAL_HANDLE_FOREIGN);
}
END_TEST

START_TEST(test_many_handles_span_chunks)
{
    static int objs[3 * SHOAL_HANDLE_CHUNK];
    static uintptr_t hs[3 * SHOAL_HANDLE_CHUNK];
    int i;

    for (i = 0; i < 3 * SHOAL_HANDLE_CHUNK; i++)
        hs[i] = add_ok(&objs[i]);
    for (i = 0; i < 3 * SHOAL_HANDLE_CHUNK; i += 2)
        shoal_handle_remove(&table, hs[i]);
    for (i = 0; i < 3 * SHOAL_HANDLE_CHUNK; i++)
        if (i % 2)
            ck_assert_ptr_eq(find(hs[i], SHOAL_HANDLE_LIVE), &objs[i]);
        else
            find(hs[i], SHOAL_HANDLE_DESTROYED);
}
END_TEST

static Suite *handle_suite(void)
{
    Suite *s = suite_create("handle");
    TCase *tc = tcase_create("table");

    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_first_handles_are_the_predefined_ones);
    tcase_add_test(tc, test_destroyed_handle_stays_destroyed_after_reuse);
    tcase_add_test(tc, test_made_up_handles_are_foreign);
    tcase_add_test(tc, test_many_handles_span_chunks);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_main_run(handle_suite());
}
