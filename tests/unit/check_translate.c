/* Unit tests of address translation and the symmetric-range checks, on segments
 * set up by hand (no launcher). A failed check must end the process non-zero. */
#include <check.h>

#include "check_main.h"
#include <stdlib.h>

#include "shoal_check.h"
#include "shoal_status.h"

static char heap_mem[1 << 16] __attribute__((aligned(64)));
static char data_mem[4096];

static void setup(void)
{
    shoal_core_state.seg[SHOAL_SEG_HEAP] =
        (shoal_seg_t){.base = heap_mem, .size = sizeof(heap_mem)};
    shoal_core_state.seg[SHOAL_SEG_DATA] =
        (shoal_seg_t){.base = data_mem, .size = sizeof(data_mem)};
    shoal_core_state.n_pes = 4;
    shoal_core_state.initialized = 1;
    shoal_core_state.settings.check = 0;
    ck_assert_int_eq(shoal_heap_setup(&shoal_core_state.heap, sizeof(heap_mem)), SHOAL_OK);
}

static void teardown(void)
{
    shoal_heap_cleanup(&shoal_core_state.heap);
}

START_TEST(test_find_segments)
{
    size_t off;
    int local;

    ck_assert_int_eq(shoal_segment_find(heap_mem, &off), SHOAL_SEG_HEAP);
    ck_assert_uint_eq(off, 0);
    ck_assert_int_eq(shoal_segment_find(heap_mem + 100, &off), SHOAL_SEG_HEAP);
    ck_assert_uint_eq(off, 100);
    ck_assert_int_eq(shoal_segment_find(data_mem + 4095, &off), SHOAL_SEG_DATA);
    ck_assert_uint_eq(off, 4095);
    ck_assert_int_eq(shoal_segment_find(heap_mem + sizeof(heap_mem), &off), -1);
    ck_assert_int_eq(shoal_segment_find(&local, &off), -1);
    ck_assert_int_eq(shoal_segment_find(NULL, &off), -1);
}
END_TEST

START_TEST(test_ranges_inside_pass)
{
    size_t off;

    ck_assert_int_eq(shoal_check_symmetric(heap_mem + 10, sizeof(heap_mem) - 10, "t", "dest", &off),
                     SHOAL_SEG_HEAP);
    ck_assert_uint_eq(off, 10);
    ck_assert_int_eq(shoal_check_symmetric(data_mem, 4096, "t", "dest", &off), SHOAL_SEG_DATA);
}
END_TEST

START_TEST(test_outside_address_ends_process)
{
    size_t off;
    int local = 0;

    shoal_check_symmetric(&local, sizeof(local), "shmem_int_put", "dest", &off);
}
END_TEST

START_TEST(test_overrun_ends_process)
{
    size_t off;

    shoal_check_symmetric(heap_mem + sizeof(heap_mem) - 4, 8, "shmem_long_put", "dest", &off);
}
END_TEST

START_TEST(test_bad_pe_ends_process)
{
    shoal_check_pe(4, "shmem_int_put");
}
END_TEST

START_TEST(test_negative_pe_ends_process)
{
    shoal_check_pe(-1, "shmem_int_put");
}
END_TEST

START_TEST(test_overflowing_size_ends_process)
{
    shoal_check_bytes((size_t)-1 / 2, 4, "shmem_int_put");
}
END_TEST

START_TEST(test_overflowing_collective_ends_process)
{
    shoal_check_bytes_pes((size_t)1 << 61, 4, 2, "shmem_int_fcollect");
}
END_TEST

START_TEST(test_uninitialised_ends_process)
{
    shoal_core_state.initialized = 0;
    shoal_check_init("shmem_int_put");
}
END_TEST

START_TEST(test_allocation_bounds_when_checking)
{
    size_t off, a;

    shoal_core_state.settings.check = 1;
    ck_assert_int_eq(shoal_heap_alloc(&shoal_core_state.heap, 100, 0, &a), SHOAL_OK);
    ck_assert_int_eq(shoal_check_symmetric(heap_mem + a, 100, "t", "dest", &off), SHOAL_SEG_HEAP);
    shoal_check_symmetric(heap_mem + a + 50, 51, "shmem_putmem", "dest", &off);
}
END_TEST

START_TEST(test_valid_pes_pass)
{
    int pe;

    for (pe = 0; pe < 4; pe++)
        shoal_check_pe(pe, "t");
    ck_assert_uint_eq(shoal_check_bytes(3, 8, "t"), 24);
    ck_assert_uint_eq(shoal_check_bytes_pes(3, 8, 4, "t"), 96);
    ck_assert_uint_eq(shoal_check_bytes_pes((size_t)1 << 60, 4, 2, "t"), (size_t)1 << 63);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("translate");
    TCase *tc = tcase_create("segments");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_find_segments);
    tcase_add_test(tc, test_ranges_inside_pass);
    tcase_add_test(tc, test_valid_pes_pass);
    tcase_add_exit_test(tc, test_outside_address_ends_process, 1);
    tcase_add_exit_test(tc, test_overrun_ends_process, 1);
    tcase_add_exit_test(tc, test_bad_pe_ends_process, 1);
    tcase_add_exit_test(tc, test_negative_pe_ends_process, 1);
    tcase_add_exit_test(tc, test_overflowing_size_ends_process, 1);
    tcase_add_exit_test(tc, test_overflowing_collective_ends_process, 1);
    tcase_add_exit_test(tc, test_uninitialised_ends_process, 1);
    tcase_add_exit_test(tc, test_allocation_bounds_when_checking, 1);
    suite_add_tcase(s, tc);
    return check_main_run(s);
}
