/* Unit tests of shmem_pcontrol's record (shmem/api/pcontrol.c): level 1 before any
 * call, each level kept as given (extra arguments ignored), the enabled test, all
 * without shmem_init. */
#include <check.h>

#include "check_main.h"

#include "shmem.h"
#include "shoal_pcontrol.h"

START_TEST(test_default_is_one)
{
    ck_assert_int_eq(shoal_pcontrol_level(), 1);
    ck_assert_int_eq(shoal_pcontrol_enabled(), 1);
}
END_TEST

static const struct {
    int level, enabled;
} levels[] = {{0, 0}, {1, 1}, {2, 1}, {-5, 0}, {3, 1}, {1000, 1}, {1, 1}};

START_TEST(test_levels_are_recorded)
{
    size_t i;

    for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        shmem_pcontrol(levels[i].level);
        ck_assert_int_eq(shoal_pcontrol_level(), levels[i].level);
        ck_assert_int_eq(shoal_pcontrol_enabled(), levels[i].enabled);
    }
    /* Past 2 a profiling library may define arguments; Shoal reads none. */
    shmem_pcontrol(3, "region", 42, 1.5);
    ck_assert_int_eq(shoal_pcontrol_level(), 3);
    shmem_pcontrol(0, (void *)0);
    ck_assert_int_eq(shoal_pcontrol_level(), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pcontrol");
    TCase *tc = tcase_create("level");

    tcase_add_test(tc, test_default_is_one);
    tcase_add_test(tc, test_levels_are_recorded);
    suite_add_tcase(s, tc);
    return check_main_run(s);
}
