/* The main() every Check unit test shares: run the suite in fork mode, exit 0
 * when every case passed, 1 otherwise. */
#ifndef CHECK_MAIN_H
#define CHECK_MAIN_H

#include <check.h>

static inline int check_main_run(Suite *suite)
{
    SRunner *sr = srunner_create(suite);
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}

#endif
