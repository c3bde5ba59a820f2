/* Shared by the hang_* programs, which hang on purpose for hang-report.sh: the
 * heap offset a hang report must name, and a wait that never ends. */
#ifndef HANG_TEST_H
#define HANG_TEST_H

#include "pe_test.h" /* first: it asks for POSIX */

#include <stdint.h>
#include <stdio.h>

/* Shoal maps the heap at a 1 GiB boundary (shmem_align may ask for that much),
 * and these tests run with a heap of less than 1 GiB: an address's offset in it
 * is the address modulo 1 GiB. */
static inline size_t hang_heap_off(const void *p)
{
    return (size_t)((uintptr_t)p % ((uintptr_t)1 << 30));
}

/* Says which heap int this PE will wait on (the script reads the line), then
 * waits forever in shmem_int_wait_until on it: nobody sets it. */
static inline void hang_forever(const char *name, int *never)
{
    printf("%s: PE %d waits on heap+0x%zx\n", name, shmem_my_pe(), hang_heap_off(never));
    fflush(stdout);
    shmem_int_wait_until(never, SHMEM_CMP_NE, 0);
}

#endif
