/* The main() every Check unit test shares: run the suite, exit 0 when every case
 * passed, 1 otherwise. In fork mode (check_main_run) each test and each loop
 * iteration runs in a child of its own, so that a crash or an exit test ends
 * only that one; check_main_run_nofork runs them in the process itself, for
 * suites of table checks that call no routine that can crash, whose thousands
 * of iterations forked as many children (check_api_table and check_gpu_table:
 * 1.5 and 2.1 s, and 30 and 45 s under ASan, against a few milliseconds). */
#ifndef CHECK_MAIN_H
#define CHECK_MAIN_H

#include <check.h>

static inline int check_main_run_mode(Suite *suite, enum fork_status mode)
{
    SRunner *sr = srunner_create(suite);
    int failed;

    srunner_set_fork_status(sr, mode);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}

static inline int check_main_run(Suite *suite)
{
    return check_main_run_mode(suite, CK_FORK);
}

static inline int check_main_run_nofork(Suite *suite)
{
    return check_main_run_mode(suite, CK_NOFORK);
}

#endif
