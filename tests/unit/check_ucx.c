/* Unit tests of the UCX context Shoal opens (transport/ucx/ucx_context.c): its
 * workers are used by several threads at once (one per shmem context, the
 * progress thread, a GPU's host proxy), so UCX must lock what the workers
 * share in the context. Over the loopback TCP and self transports: no launcher. */
#include <check.h>

#include "check_main.h"

#include "ucx/ucx_impl.h"

#include <stdlib.h>

START_TEST(test_context_is_thread_safe)
{
    ucp_context_attr_t attr = {.field_mask = UCP_ATTR_FIELD_THREAD_MODE};
    ucp_context_h context;
    ucp_config_t *config;

    ck_assert_int_eq(shoal_ucx_context_open(&config, &context), UCS_OK);
    ck_assert_int_eq(ucp_context_query(context, &attr), UCS_OK);
    /* UCX built without thread support answers SINGLE: Shoal cannot run on it
     * with more than one context, and this test says so. */
    ck_assert_int_eq(attr.thread_mode, UCS_THREAD_MODE_MULTI);
    ucp_cleanup(context);
    ucp_config_release(config);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ucx");
    TCase *tc = tcase_create("context");

    /* Whatever the machine has: loopback TCP and self, as a laptop without a NIC. */
    setenv("UCX_TLS", "tcp,self", 0);
    setenv("UCX_NET_DEVICES", "lo", 0);
    tcase_add_test(tc, test_context_is_thread_safe);
    suite_add_tcase(s, tc);
    return check_main_run(s);
}
