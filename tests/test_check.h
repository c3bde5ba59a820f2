/* The check both multi-PE test harnesses make (tests/pe/pe_test.h's PE_CHECK,
 * tests/gpu/gpu_test.h's GPU_CHECK): where cond is false, one line on stderr,
 * "FAIL PE <pe> <file>:<line>: <text>: <message>", and one more in the
 * harness's failure counter; the test goes on. text is the condition as written
 * (the harness's #cond, so that its macros show unexpanded). For C and C++. */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <shmem.h>
#include <stdio.h>

#define TEST_CHECK(failures, cond, text, fmt, ...)                                                 \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL PE %d %s:%d: %s: " fmt "\n", shmem_my_pe(), __FILE__, __LINE__,  \
                    text, __VA_ARGS__);                                                            \
            (failures)++;                                                                          \
        }                                                                                          \
    } while (0)

#endif
