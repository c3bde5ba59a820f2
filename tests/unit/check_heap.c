/* Unit tests of the symmetric-heap allocator: determinism, alignment, reuse,
 * coalescing, realloc in place and by moving, and lookups for bounds checks. */
#include <check.h>

#include "check_main.h"
#include <stdlib.h>

#include "shoal_heap.h"
#include "shoal_status.h"

#define CAP (1 << 20)

static shoal_heap_t heap;

static void setup(void)
{
    ck_assert_int_eq(shoal_heap_setup(&heap, CAP), SHOAL_OK);
}

static void teardown(void)
{
    shoal_heap_cleanup(&heap);
}

static size_t alloc_ok(size_t size, size_t align)
{
    size_t off = (size_t)-1;

    ck_assert_int_eq(shoal_heap_alloc(&heap, size, align, &off), SHOAL_OK);
    return off;
}

START_TEST(test_first_allocations_are_packed_and_aligned)
{
    size_t a = alloc_ok(1, 0), b = alloc_ok(100, 0), c = alloc_ok(64, 0);

    ck_assert_uint_eq(a, 0);
    ck_assert_uint_eq(b, 64);
    ck_assert_uint_eq(c, 64 + 128);
    ck_assert_uint_eq(heap.in_use, 64 + 128 + 64);
}
END_TEST

START_TEST(test_same_calls_give_same_offsets)
{
    shoal_heap_t other;
    size_t sizes[] = {10, 4096, 3, 70000, 64, 1};
    size_t i, offs[6], o;

    ck_assert_int_eq(shoal_heap_setup(&other, CAP), SHOAL_OK);
    for (i = 0; i < 6; i++)
        offs[i] = alloc_ok(sizes[i], 0);
    ck_assert_int_eq(shoal_heap_free(&heap, offs[1]), SHOAL_OK);
    for (i = 0; i < 6; i++)
        ck_assert_int_eq(shoal_heap_alloc(&other, sizes[i], 0, &o), SHOAL_OK);
    ck_assert_int_eq(shoal_heap_free(&other, offs[1]), SHOAL_OK);
    ck_assert_int_eq(shoal_heap_alloc(&heap, 500, 0, &o), SHOAL_OK);
    ck_assert_uint_eq(o, offs[1]);
    ck_assert_int_eq(shoal_heap_alloc(&other, 500, 0, &o), SHOAL_OK);
    ck_assert_uint_eq(o, offs[1]);
    shoal_heap_cleanup(&other);
}
END_TEST

START_TEST(test_alignment_honoured)
{
    size_t aligns[] = {64, 128, 4096, 65536};
    size_t i;

    alloc_ok(1, 0);
    for (i = 0; i < 4; i++)
        ck_assert_uint_eq(alloc_ok(10, aligns[i]) % aligns[i], 0);
    ck_assert_int_eq(shoal_heap_alloc(&heap, 10, 96, &i), SHOAL_ERR_INVALID_ARG);
}
END_TEST

START_TEST(test_free_coalesces_whole_arena)
{
    size_t a = alloc_ok(1000, 0), b = alloc_ok(1000, 0), c = alloc_ok(1000, 0);

    ck_assert_int_eq(shoal_heap_free(&heap, b), SHOAL_OK);
    ck_assert_int_eq(shoal_heap_free(&heap, a), SHOAL_OK);
    ck_assert_int_eq(shoal_heap_free(&heap, c), SHOAL_OK);
    ck_assert_uint_eq(heap.nblocks, 1);
    ck_assert_uint_eq(heap.in_use, 0);
    ck_assert_uint_eq(alloc_ok(CAP, 0), 0);
}
END_TEST

START_TEST(test_exhaustion_and_bad_frees)
{
    size_t off;

    alloc_ok(CAP / 2, 0);
    ck_assert_int_eq(shoal_heap_alloc(&heap, CAP / 2 + 64, 0, &off), SHOAL_ERR_NO_MEMORY);
    ck_assert_int_eq(shoal_heap_alloc(&heap, CAP + 1, 0, &off), SHOAL_ERR_INVALID_ARG);
    ck_assert_int_eq(shoal_heap_free(&heap, 64), SHOAL_ERR_NOT_FOUND);
    ck_assert_int_eq(shoal_heap_free(&heap, CAP - 64), SHOAL_ERR_NOT_FOUND);
}
END_TEST

START_TEST(test_realloc_in_place_and_moving)
{
    size_t a = alloc_ok(100, 0), b, n, start, size;
    int moved;

    ck_assert_int_eq(shoal_heap_realloc(&heap, a, 5000, &n, &moved), SHOAL_OK);
    ck_assert_int_eq(moved, 0);
    ck_assert_uint_eq(n, a);
    b = alloc_ok(10, 0);
    ck_assert_int_eq(shoal_heap_realloc(&heap, a, 6000, &n, &moved), SHOAL_OK);
    ck_assert_int_eq(moved, 1);
    ck_assert_uint_gt(n, b);
    ck_assert_int_eq(shoal_heap_free(&heap, a), SHOAL_OK);
    ck_assert_int_eq(shoal_heap_realloc(&heap, n, 10, &n, &moved), SHOAL_OK);
    ck_assert_int_eq(moved, 0);
    ck_assert_int_eq(shoal_heap_lookup(&heap, n + 5, &start, &size), SHOAL_OK);
    ck_assert_uint_eq(start, n);
    ck_assert_uint_eq(size, 10);
}
END_TEST

START_TEST(test_lookup_reports_requested_size)
{
    size_t a = alloc_ok(100, 0), start, size;

    ck_assert_int_eq(shoal_heap_lookup(&heap, a + 99, &start, &size), SHOAL_OK);
    ck_assert_uint_eq(start, a);
    ck_assert_uint_eq(size, 100);
    ck_assert_int_eq(shoal_heap_lookup(&heap, a + 200, &start, &size), SHOAL_ERR_NOT_FOUND);
}
END_TEST

/* The library's own block (the team slots) is invisible to the program's routines:
 * lookup (SHOAL_CHECK's bounds check), free and realloc do not find it. */
START_TEST(test_own_block_is_not_the_programs)
{
    size_t own = (size_t)-1, a, start, size, n;
    int moved;

    ck_assert_int_eq(shoal_heap_alloc_own(&heap, 8192, 64, &own), SHOAL_OK);
    a = alloc_ok(100, 0);
    ck_assert_uint_eq(own, 0);
    ck_assert_uint_ge(a, 8192);
    ck_assert_int_eq(shoal_heap_is_own(&heap, own + 100), 1);
    ck_assert_int_eq(shoal_heap_is_own(&heap, a), 0);
    ck_assert_int_eq(shoal_heap_lookup(&heap, own + 100, &start, &size), SHOAL_ERR_NOT_FOUND);
    ck_assert_int_eq(shoal_heap_free(&heap, own), SHOAL_ERR_NOT_FOUND);
    ck_assert_int_eq(shoal_heap_realloc(&heap, own, 10, &n, &moved), SHOAL_ERR_NOT_FOUND);
    ck_assert_int_eq(shoal_heap_lookup(&heap, a + 99, &start, &size), SHOAL_OK);
    ck_assert_int_eq(shoal_heap_free(&heap, a), SHOAL_OK);
    ck_assert_int_eq(shoal_heap_is_own(&heap, own), 1); /* freeing a neighbour keeps it */
    ck_assert_uint_eq(heap.in_use, 8192);
}
END_TEST

/* The release count (what the pSync check keys its memory on) moves at every
 * free, realloc and setup, and survives a cleanup. */
START_TEST(test_releases_count_frees_and_setups)
{
    size_t a = alloc_ok(100, 0), n;
    unsigned r = heap.releases;
    int moved;

    alloc_ok(100, 0);
    ck_assert_uint_eq(heap.releases, r);
    ck_assert_int_eq(shoal_heap_realloc(&heap, a, 50, &n, &moved), SHOAL_OK);
    ck_assert_uint_eq(heap.releases, r + 1);
    ck_assert_int_eq(shoal_heap_free(&heap, a), SHOAL_OK);
    ck_assert_uint_eq(heap.releases, r + 2);
    shoal_heap_cleanup(&heap);
    ck_assert_uint_eq(heap.releases, r + 2);
    ck_assert_int_eq(shoal_heap_setup(&heap, CAP), SHOAL_OK);
    ck_assert_uint_eq(heap.releases, r + 3);
}
END_TEST

START_TEST(test_random_churn_keeps_invariants)
{
    size_t live[64] = {0}, i, j, covered;
    int used[64] = {0};

    srand(12345);
    for (i = 0; i < 5000; i++) {
        j = (size_t)rand() % 64;
        if (used[j]) {
            ck_assert_int_eq(shoal_heap_free(&heap, live[j]), SHOAL_OK);
            used[j] = 0;
        } else if (shoal_heap_alloc(&heap, 1 + (size_t)rand() % 20000, 0, &live[j]) ==
                   SHOAL_OK) {
            used[j] = 1;
        }
        covered = 0;
        for (j = 0; j < heap.nblocks; j++) {
            ck_assert_uint_eq(heap.blocks[j].off, covered);
            if (j > 0)
                ck_assert(heap.blocks[j].used || heap.blocks[j - 1].used);
            covered += heap.blocks[j].len;
        }
        ck_assert_uint_eq(covered, CAP);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("heap");
    TCase *tc = tcase_create("allocator");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_first_allocations_are_packed_and_aligned);
    tcase_add_test(tc, test_same_calls_give_same_offsets);
    tcase_add_test(tc, test_alignment_honoured);
    tcase_add_test(tc, test_free_coalesces_whole_arena);
    tcase_add_test(tc, test_exhaustion_and_bad_frees);
    tcase_add_test(tc, test_realloc_in_place_and_moving);
    tcase_add_test(tc, test_lookup_reports_requested_size);
    tcase_add_test(tc, test_own_block_is_not_the_programs);
    tcase_add_test(tc, test_releases_count_frees_and_setups);
    tcase_add_test(tc, test_random_churn_keeps_invariants);
    suite_add_tcase(s, tc);
    return check_main_run(s);
}
