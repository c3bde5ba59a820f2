/* Unit tests of the ranges in SHOAL_ENV_TABLE: shoal_env_parse takes a number at
 * each bound, refuses one past it with one line naming the variable, its value
 * and the range, and SHMEM_INFO's printout shows the range. */
#include <check.h>

#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shoal_env.h"
#include "shoal_status.h"

static const char *fake_name, *fake_value;

static const char *fake_get(const char *name)
{
    return fake_name != NULL && strcmp(name, fake_name) == 0 ? fake_value : NULL;
}

/* One setting at a time: below, at and above each bound; err is the whole line
 * expected, or NULL where the value is taken (and must read back as value). */
static const struct {
    const char *name, *text;
    size_t value;
    const char *err;
} cases[] = {
    {"SHOAL_TEAMS_MAX", "1", 0,
     "environment variable SHOAL_TEAMS_MAX is 1; expected a whole number from 2 to 64"},
    {"SHOAL_TEAMS_MAX", "2", 2, NULL},
    {"SHOAL_TEAMS_MAX", "64", 64, NULL},
    {"SHOAL_TEAMS_MAX", "65", 0,
     "environment variable SHOAL_TEAMS_MAX is 65; expected a whole number from 2 to 64"},
    {"SHOAL_TEAMS_MAX", "99", 0,
     "environment variable SHOAL_TEAMS_MAX is 99; expected a whole number from 2 to 64"},
    {"SHOAL_TEAMS_MAX", "0", 0,
     "environment variable SHOAL_TEAMS_MAX is 0; expected a whole number from 2 to 64"},
    /* a value that is not a number at all is quoted, and the range still given */
    {"SHOAL_TEAMS_MAX", "lots", 0,
     "environment variable SHOAL_TEAMS_MAX is 'lots'; expected a whole number from 2 to 64"},
    {"SHOAL_CHECK_COLL_TIMEOUT", "0", 0,
     "environment variable SHOAL_CHECK_COLL_TIMEOUT is 0; expected a number of seconds from 1"},
    {"SHOAL_CHECK_COLL_TIMEOUT", "1", 1, NULL},
    {"SHOAL_CHECK_COLL_TIMEOUT", "86400", 86400, NULL}, /* no upper bound */
    {"SHOAL_PROGRESS_US", "0", 0, NULL},
    {"SHOAL_PROGRESS_US", "4294967295", 4294967295u, NULL},
    {"SHOAL_PROGRESS_US", "4294967296", 0,
     "environment variable SHOAL_PROGRESS_US is 4294967296; expected a number of microseconds "
     "up to 4294967295"},
    /* no range: any count is taken */
    {"SHOAL_CTX_MAX", "0", 0, NULL},
    {"SHOAL_CTX_MAX", "100000", 100000, NULL},
};

static size_t field_of(const shoal_settings_t *s, const char *name)
{
    if (strcmp(name, "SHOAL_TEAMS_MAX") == 0)
        return s->teams_max;
    if (strcmp(name, "SHOAL_CHECK_COLL_TIMEOUT") == 0)
        return s->check_coll_s;
    if (strcmp(name, "SHOAL_PROGRESS_US") == 0)
        return s->progress_us;
    return s->ctx_max;
}

START_TEST(test_bounds)
{
    shoal_settings_t s;
    char err[256] = "";
    int status;

    fake_name = cases[_i].name;
    fake_value = cases[_i].text;
    memset(&s, 0x5a, sizeof(s));
    status = shoal_env_parse(fake_get, err, sizeof(err), &s);
    if (cases[_i].err == NULL) {
        ck_assert_msg(status == SHOAL_OK, "%s=%s refused: %s", cases[_i].name, cases[_i].text, err);
        ck_assert_uint_eq(field_of(&s, cases[_i].name), cases[_i].value);
    } else {
        ck_assert_int_eq(status, SHOAL_ERR_INVALID_ARG);
        ck_assert_str_eq(err, cases[_i].err);
        ck_assert_uint_eq(s.teams_max, 0x5a5a5a5a5a5a5a5aull); /* out is left alone */
    }
}
END_TEST

/* Every default lies in its range (else shmem_init would fail with nothing set). */
START_TEST(test_defaults_in_range)
{
    shoal_settings_t s;
    char err[256] = "";

    fake_name = NULL;
    ck_assert_msg(shoal_env_parse(fake_get, err, sizeof(err), &s) == SHOAL_OK, "%s", err);
    ck_assert_uint_eq(s.teams_max, 64);
    ck_assert_uint_eq(s.check_coll_s, 10);
    ck_assert_uint_eq(s.progress_us, 1000);
}
END_TEST

START_TEST(test_info_shows_range_and_category)
{
    shoal_settings_t s;
    char err[256], *text = NULL;
    size_t len = 0;
    FILE *f;

    fake_name = "SHOAL_TEAMS_MAX";
    fake_value = "8";
    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_OK);
    f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    shoal_env_print(f, &s);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, " Resources:\n"));
    ck_assert_ptr_nonnull(strstr(text, " Checks:\n"));
    ck_assert_ptr_nonnull(strstr(text, "SHOAL_TEAMS_MAX          = 8\t(default 64, from 2 to 64)"));
    ck_assert_ptr_nonnull(strstr(text, "SHOAL_CHECK_COLL_TIMEOUT = 10\t(default 10, from 1)"));
    ck_assert_ptr_nonnull(strstr(text, "SHOAL_CTX_MAX            = 256\t(default 256) "));
    free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("env_range");
    TCase *tc = tcase_create("range");

    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, test_bounds, 0, sizeof(cases) / sizeof(cases[0]));
    tcase_add_test(tc, test_defaults_in_range);
    tcase_add_test(tc, test_info_shows_range_and_category);
    suite_add_tcase(s, tc);
    return check_main_run(s);
}
