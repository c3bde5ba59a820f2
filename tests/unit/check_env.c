/* Unit tests of the environment table: size suffixes, booleans, the transport
 * names, defaults, and the error line for a bad value. */
#include <check.h>

#include "check_main.h"
#include <stdint.h>
#include <string.h>

#include "shoal_env.h"
#include "shoal_status.h"

static const char *fake_names[8];
static const char *fake_values[8];

static const char *fake_get(const char *name)
{
    int i;

    for (i = 0; i < 8 && fake_names[i] != NULL; i++)
        if (strcmp(fake_names[i], name) == 0)
            return fake_values[i];
    return NULL;
}

static void fake_set(int i, const char *name, const char *value)
{
    fake_names[i] = name;
    fake_values[i] = value;
    if (i + 1 < 8)
        fake_names[i + 1] = NULL;
}

static const struct {
    const char *text;
    size_t value;
} sizes[] = {
    {"0", 0},           {"4096", 4096},         {"1K", 1024},
    {"1k", 1024},       {"2M", 2u << 20},        {"3G", (size_t)3 << 30},
    {"1T", (size_t)1 << 40}, {"512MB", 512u << 20}, {"64KiB", 64u << 10},
    {" 8M ", 8u << 20},
};

START_TEST(test_size_forms)
{
    size_t v = 0;

    ck_assert_int_eq(shoal_env_parse_size(sizes[_i].text, &v), 0);
    ck_assert_uint_eq(v, sizes[_i].value);
}
END_TEST

static const char *bad_sizes[] = {"", "abc", "-1", "12Q", "1.5G", "M", "99999999999999999999",
                                  "16777216T", "1K2"};

START_TEST(test_size_rejects)
{
    size_t v = 77;

    ck_assert_int_eq(shoal_env_parse_size(bad_sizes[_i], &v), -1);
    ck_assert_uint_eq(v, 77);
}
END_TEST

START_TEST(test_bool_and_transport)
{
    int v;

    ck_assert_int_eq(shoal_env_parse_bool("YES", &v), 0);
    ck_assert_int_eq(v, 1);
    ck_assert_int_eq(shoal_env_parse_bool("off", &v), 0);
    ck_assert_int_eq(v, 0);
    ck_assert_int_eq(shoal_env_parse_bool("2", &v), -1);
    ck_assert_int_eq(shoal_env_parse_transport("UCX", &v), 0);
    ck_assert_int_eq(v, SHOAL_TRANSPORT_UCX);
    ck_assert_int_eq(shoal_env_parse_transport("auto", &v), 0);
    ck_assert_int_eq(v, SHOAL_TRANSPORT_AUTO);
    ck_assert_int_eq(shoal_env_parse_transport("tcp", &v), -1);
}
END_TEST

START_TEST(test_algorithms)
{
    int v;

    ck_assert_int_eq(shoal_env_parse_bcast("Binomial", &v), 0);
    ck_assert_int_eq(v, SHOAL_ALGO_TREE);
    ck_assert_int_eq(shoal_env_parse_bcast("direct", &v), 0);
    ck_assert_int_eq(v, SHOAL_ALGO_DIRECT);
    ck_assert_int_eq(shoal_env_parse_bcast("ring", &v), -1);
    ck_assert_int_eq(shoal_env_parse_reduce("ring", &v), 0);
    ck_assert_int_eq(v, SHOAL_ALGO_RING);
    ck_assert_int_eq(shoal_env_parse_reduce("auto", &v), 0);
    ck_assert_int_eq(v, SHOAL_ALGO_AUTO);
    ck_assert_int_eq(shoal_env_parse_reduce("Doubling", &v), 0);
    ck_assert_int_eq(v, SHOAL_ALGO_DOUBLING);
    ck_assert_int_eq(shoal_env_parse_reduce("flat", &v), 0);
    ck_assert_int_eq(v, SHOAL_ALGO_FLAT);
    ck_assert_int_eq(shoal_env_parse_bcast("FLAT", &v), 0);
    ck_assert_int_eq(v, SHOAL_ALGO_FLAT);
    ck_assert_int_eq(shoal_env_parse_reduce("binomial", &v), -1);
    ck_assert_int_eq(shoal_env_parse_gpu_proxy("ALL", &v), 0);
    ck_assert_int_eq(v, SHOAL_GPU_PROXY_ALL);
    ck_assert_int_eq(shoal_env_parse_gpu_proxy("none", &v), 0);
    ck_assert_int_eq(v, SHOAL_GPU_PROXY_NONE);
    ck_assert_int_eq(shoal_env_parse_gpu_proxy("auto", &v), 0);
    ck_assert_int_eq(v, SHOAL_GPU_PROXY_AUTO);
    ck_assert_int_eq(shoal_env_parse_gpu_proxy("ucx", &v), -1);
}
END_TEST

START_TEST(test_defaults)
{
    shoal_settings_t s;
    char err[256];

    fake_names[0] = NULL;
    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_OK);
    ck_assert_uint_eq(s.symmetric_size, 256u << 20);
    ck_assert_int_eq(s.debug, 0);
    ck_assert_int_eq(s.transport, SHOAL_TRANSPORT_AUTO);
    ck_assert_int_eq(s.check, 0);
}
END_TEST

START_TEST(test_values_are_read)
{
    shoal_settings_t s;
    char err[256];

    fake_set(0, "SHMEM_SYMMETRIC_SIZE", "1G");
    fake_set(1, "SHOAL_TRANSPORT", "ucx");
    fake_set(2, "SHOAL_CHECK", "1");
    fake_set(3, "SHMEM_INFO", "yes");
    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_OK);
    ck_assert_uint_eq(s.symmetric_size, 1u << 30);
    ck_assert_int_eq(s.transport, SHOAL_TRANSPORT_UCX);
    ck_assert_int_eq(s.check, 1);
    ck_assert_int_eq(s.info, 1);
}
END_TEST

START_TEST(test_error_line_names_variable_value_and_forms)
{
    shoal_settings_t s;
    char err[256];

    fake_set(0, "SHMEM_SYMMETRIC_SIZE", "lots");
    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(err, "SHMEM_SYMMETRIC_SIZE"));
    ck_assert_ptr_nonnull(strstr(err, "'lots'"));
    ck_assert_ptr_nonnull(strstr(err, "suffix"));
    fake_set(0, "SHOAL_TRANSPORT", "verbs");
    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(err, "auto, ucx"));
}
END_TEST

/* The deprecated SMA_ names are read when the SHMEM_ ones are unset, lose to
 * them when both are set, and are named in the error line when theirs is bad. */
START_TEST(test_unknown_names)
{
    char *env[] = {"PATH=/bin", "SHOAL_FROBNICATE=1", "SHMEM_SYMETRIC_SIZE=1G",
                   "SHOAL_TRANSPORT=ucx", "SMA_DEBUG=1", "SHMEM_INFO", NULL};
    char *clean[] = {"SHMEM_SYMMETRIC_SIZE=1G", "SHOAL_SLEEP=0", "HOME=/",
                     "SHOAL_CC=clang", "SHOAL_CXX=clang++", "SHOAL_NVCC=nvcc", NULL};
    char name[64], near[64];

    ck_assert_int_eq(shoal_env_unknown(env, name, sizeof(name), near, sizeof(near)), 2);
    ck_assert_str_eq(name, "SHMEM_SYMETRIC_SIZE"); /* the typo first, though later */
    ck_assert_str_eq(near, "SHMEM_SYMMETRIC_SIZE");
    env[2] = "SHOAL_FROBNICATE=2";
    ck_assert_int_eq(shoal_env_unknown(env, name, sizeof(name), near, sizeof(near)), 2);
    ck_assert_str_eq(name, "SHOAL_FROBNICATE");
    ck_assert_str_eq(near, ""); /* nothing close: no suggestion */
    /* oshcc's compiler variables are no typos, though the library reads none */
    ck_assert_int_eq(shoal_env_unknown(clean, name, sizeof(name), near, sizeof(near)), 0);
}
END_TEST

START_TEST(test_sma_names)
{
    shoal_settings_t s;
    char err[256];

    fake_set(0, "SMA_SYMMETRIC_SIZE", "64M");
    fake_set(1, "SMA_DEBUG", "1");
    fake_set(2, "SMA_INFO", "1");
    fake_set(3, "SMA_VERSION", "1");
    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_OK);
    ck_assert_uint_eq(s.symmetric_size, 64u << 20);
    ck_assert_int_eq(s.debug, 1);
    ck_assert_int_eq(s.info, 1);
    ck_assert_int_eq(s.version, 1);
    fake_set(4, "SHMEM_SYMMETRIC_SIZE", "2M");
    fake_set(5, "SHMEM_DEBUG", "0");
    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_OK);
    ck_assert_uint_eq(s.symmetric_size, 2u << 20);
    ck_assert_int_eq(s.debug, 0);
    fake_set(0, "SMA_SYMMETRIC_SIZE", "lots");
    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(err, "SMA_SYMMETRIC_SIZE is 'lots'"));
    fake_set(0, "SMA_TRANSPORT", "bogus"); /* only the four spec names have SMA_ forms */
    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_OK);
    ck_assert_int_eq(s.transport, SHOAL_TRANSPORT_AUTO);
}
END_TEST

/* NVSHMEM's name for the GPU heap's size is read when Shoal's is unset. */
START_TEST(test_nvshmem_symmetric_size)
{
    shoal_settings_t s;
    char err[256];

    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_OK);
    ck_assert_uint_eq(s.gpu_symmetric_size, 256u << 20);
    fake_set(0, "NVSHMEM_SYMMETRIC_SIZE", "1G");
    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_OK);
    ck_assert_uint_eq(s.gpu_symmetric_size, 1u << 30);
    fake_set(1, "SHOAL_GPU_SYMMETRIC_SIZE", "32M");
    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_OK);
    ck_assert_uint_eq(s.gpu_symmetric_size, 32u << 20);
    fake_set(1, "SHOAL_GPU_SYMMETRIC_SIZE", NULL);
    fake_set(0, "NVSHMEM_SYMMETRIC_SIZE", "big");
    ck_assert_int_eq(shoal_env_parse(fake_get, err, sizeof(err), &s), SHOAL_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(err, "NVSHMEM_SYMMETRIC_SIZE is 'big'"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("env");
    TCase *tc = tcase_create("parse");

    tcase_add_loop_test(tc, test_size_forms, 0, sizeof(sizes) / sizeof(sizes[0]));
    tcase_add_loop_test(tc, test_size_rejects, 0, sizeof(bad_sizes) / sizeof(bad_sizes[0]));
    tcase_add_test(tc, test_bool_and_transport);
    tcase_add_test(tc, test_algorithms);
    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_values_are_read);
    tcase_add_test(tc, test_error_line_names_variable_value_and_forms);
    tcase_add_test(tc, test_sma_names);
    tcase_add_test(tc, test_nvshmem_symmetric_size);
    tcase_add_test(tc, test_unknown_names);
    suite_add_tcase(s, tc);
    return check_main_run(s);
}
