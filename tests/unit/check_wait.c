/* Unit tests of the wait/test core (shoal_wait.h): every operator at the signed and
 * unsigned boundaries of 2-, 4- and 8-byte ivars, status masks, vector values, the
 * empty-set rules, test_all's progress, test_some's order and test_any's fairness.
 * Each case loops over the six element kinds; values are checked against a plain
 * reference written here, not against the header's own widening. */
#include <check.h>

#include "check_main.h"
#include <stdint.h>
#include <string.h>

#include "shmem.h"
#include "shoal_wait.h"

#define MAXN 16

typedef struct kind {
    size_t size;
    int is_signed;
    const char *name;
} kind_t;

static const kind_t kinds[] = {
    {2, 1, "int16"},  {2, 0, "uint16"}, {4, 1, "int32"},
    {4, 0, "uint32"}, {8, 1, "int64"},  {8, 0, "uint64"},
};
#define NKINDS ((int)(sizeof(kinds) / sizeof(kinds[0])))

static const int cmps[] = {SHOAL_CMP_EQ, SHOAL_CMP_NE, SHOAL_CMP_GT,
                           SHOAL_CMP_LE, SHOAL_CMP_LT, SHOAL_CMP_GE};
static const char *const cmp_names[] = {"?", "EQ", "NE", "GT", "LE", "LT", "GE"};

/* Storage for MAXN elements of any kind, aligned for the widest. */
typedef struct elems {
    uint64_t w[MAXN];
} elems_t;

static uint64_t mask_of(size_t size)
{
    return size == 8 ? UINT64_MAX : ((uint64_t)1 << (8 * size)) - 1;
}

/* Stores the low size bytes of v as element i, through the element's own type. */
static void put_elem(elems_t *e, size_t i, const kind_t *k, uint64_t v)
{
    char *p = (char *)e->w + i * k->size;

    if (k->size == 2) {
        uint16_t h = (uint16_t)v;
        memcpy(p, &h, 2);
    } else if (k->size == 4) {
        uint32_t w = (uint32_t)v;
        memcpy(p, &w, 4);
    } else {
        memcpy(p, &v, 8);
    }
}

/* The reference: v truncated to the element, then compared as the element's type. */
static int ref_compare(const kind_t *k, int cmp, uint64_t a, uint64_t b)
{
    uint64_t m = mask_of(k->size), sign = (m >> 1) + 1;
    uint64_t ua = a & m, ub = b & m;
    int64_t sa = (int64_t)(ua & sign ? ua | ~m : ua), sb = (int64_t)(ub & sign ? ub | ~m : ub);
    int lt = k->is_signed ? sa < sb : ua < ub, eq = ua == ub;

    switch (cmp) {
    case SHOAL_CMP_EQ:
        return eq;
    case SHOAL_CMP_NE:
        return !eq;
    case SHOAL_CMP_GT:
        return !lt && !eq;
    case SHOAL_CMP_LE:
        return lt || eq;
    case SHOAL_CMP_LT:
        return lt;
    case SHOAL_CMP_GE:
        return !lt;
    }
    return -1;
}

static shoal_wait_set_t make_set(const kind_t *k, const elems_t *ivars, size_t n, const int *status,
                                 int cmp, const elems_t *values, int vector)
{
    shoal_wait_set_t s;

    memset(&s, 0, sizeof(s));
    s.ivars = ivars->w;
    s.nelems = n;
    s.elem_size = k->size;
    s.is_signed = k->is_signed;
    s.status = status;
    s.cmp = cmp;
    s.values = values->w;
    s.vector = vector;
    return s;
}

/* The interesting values of a kind: 0, 1, 2, all ones (-1 or the maximum), all ones
 * but the last bit (-2), the sign bit alone (minimum signed) and the maximum signed. */
static int boundary_values(const kind_t *k, uint64_t *out)
{
    uint64_t m = mask_of(k->size), sign = (m >> 1) + 1;

    out[0] = 0;
    out[1] = 1;
    out[2] = 2;
    out[3] = m;
    out[4] = m - 1;
    out[5] = sign;
    out[6] = sign - 1;
    return 7;
}

START_TEST(test_constants_match_the_api)
{
    ck_assert_int_eq(SHOAL_CMP_EQ, SHMEM_CMP_EQ);
    ck_assert_int_eq(SHOAL_CMP_NE, SHMEM_CMP_NE);
    ck_assert_int_eq(SHOAL_CMP_GT, SHMEM_CMP_GT);
    ck_assert_int_eq(SHOAL_CMP_LE, SHMEM_CMP_LE);
    ck_assert_int_eq(SHOAL_CMP_LT, SHMEM_CMP_LT);
    ck_assert_int_eq(SHOAL_CMP_GE, SHMEM_CMP_GE);
    ck_assert(!shoal_wait_cmp_valid(0));
    ck_assert(!shoal_wait_cmp_valid(7));
    ck_assert(!shoal_wait_cmp_valid(99));
    ck_assert(!shoal_wait_cmp_valid(-1));
    for (int c = 0; c < 6; c++)
        ck_assert(shoal_wait_cmp_valid(cmps[c]));
}
END_TEST

/* Every operator on every pair of boundary values, through test_entry and through
 * one-element sets of each selection routine. */
START_TEST(test_every_operator_at_boundaries)
{
    const kind_t *k = &kinds[_i];
    uint64_t v[8];
    int nv = boundary_values(k, v), a, b, c;
    elems_t iv, val;

    for (a = 0; a < nv; a++)
        for (b = 0; b < nv; b++)
            for (c = 0; c < 6; c++) {
                shoal_wait_set_t s;
                size_t next = 0, cursor = 0, idx[1] = {99};
                int want = ref_compare(k, cmps[c], v[a], v[b]);

                memset(&iv, 0xA5, sizeof(iv)); /* garbage beyond the element */
                memset(&val, 0x5A, sizeof(val));
                put_elem(&iv, 0, k, v[a]);
                put_elem(&val, 0, k, v[b]);
                s = make_set(k, &iv, 1, NULL, cmps[c], &val, 0);
                ck_assert_msg(shoal_wait_test_entry(&s, 0) == want,
                              "%s: 0x%llx %s 0x%llx: expected %d", k->name,
                              (unsigned long long)v[a], cmp_names[cmps[c]],
                              (unsigned long long)v[b], want);
                ck_assert_int_eq(
                    shoal_wait_compare(cmps[c], k->is_signed,
                                       shoal_wait_load_ivar(iv.w, k->size, k->is_signed),
                                       shoal_wait_load_value(val.w, k->size, k->is_signed)),
                    want);
                ck_assert_int_eq(shoal_wait_test_all(&s, &next), want);
                ck_assert_uint_eq(next, want ? 1 : 0);
                ck_assert_uint_eq(shoal_wait_test_any(&s, &cursor), want ? 0 : SIZE_MAX);
                ck_assert_uint_eq(shoal_wait_test_some(&s, idx), want ? 1 : 0);
                if (want)
                    ck_assert_uint_eq(idx[0], 0);
                ck_assert(!shoal_wait_empty(&s));
            }
}
END_TEST

/* The cases that tell signed from unsigned, spelled out: -1 vs 1 and min vs max. */
START_TEST(test_signed_unsigned_spelled_out)
{
    const kind_t *k = &kinds[_i];
    uint64_t m = mask_of(k->size), sign = (m >> 1) + 1;
    /* expected results for EQ NE GT LE LT GE */
    static const int minus1_vs_1_signed[6] = {0, 1, 0, 1, 1, 0};
    static const int minus1_vs_1_unsigned[6] = {0, 1, 1, 0, 0, 1};
    elems_t iv, val;
    int c;

    for (c = 0; c < 6; c++) {
        shoal_wait_set_t s = make_set(k, &iv, 1, NULL, cmps[c], &val, 0);
        int want = k->is_signed ? minus1_vs_1_signed[c] : minus1_vs_1_unsigned[c];

        put_elem(&iv, 0, k, m); /* -1, or the maximum */
        put_elem(&val, 0, k, 1);
        ck_assert_msg(shoal_wait_test_entry(&s, 0) == want, "%s: all ones %s 1: expected %d",
                      k->name, cmp_names[cmps[c]], want);
        put_elem(&iv, 0, k, sign); /* the minimum, or 2^(bits-1) */
        put_elem(&val, 0, k, sign - 1);
        ck_assert_msg(shoal_wait_test_entry(&s, 0) ==
                          (k->is_signed ? minus1_vs_1_signed[c] : minus1_vs_1_unsigned[c]),
                      "%s: sign bit %s max signed", k->name, cmp_names[cmps[c]]);
    }
    /* An unknown operator is never satisfied. */
    put_elem(&iv, 0, k, 1);
    put_elem(&val, 0, k, 1);
    {
        shoal_wait_set_t s = make_set(k, &iv, 1, NULL, 99, &val, 0);
        size_t cursor = 0;

        ck_assert(!shoal_wait_test_entry(&s, 0));
        ck_assert_uint_eq(shoal_wait_test_any(&s, &cursor), SIZE_MAX);
    }
}
END_TEST

/* Masked entries (status != 0, whatever the non-zero value) are out of the set:
 * they neither satisfy test_any/test_some nor hold back test_all. */
START_TEST(test_status_masks)
{
    const kind_t *k = &kinds[_i];
    int none[8] = {0}, some[8] = {0, 1, 0, 2, 0, -1, 0, 1}, all[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    elems_t iv, val;
    size_t i, idx[8], next, cursor;
    shoal_wait_set_t s;

    /* Even entries equal 7, odd ones 3; the set waits for EQ 7. */
    for (i = 0; i < 8; i++)
        put_elem(&iv, i, k, i % 2 ? 3 : 7);
    put_elem(&val, 0, k, 7);

    s = make_set(k, &iv, 8, NULL, SHOAL_CMP_EQ, &val, 0);
    next = 0;
    ck_assert(!shoal_wait_test_all(&s, &next));
    ck_assert_uint_eq(next, 1);
    ck_assert_uint_eq(shoal_wait_test_some(&s, idx), 4);
    ck_assert(!shoal_wait_empty(&s));

    s.status = none; /* all zero: the same as NULL */
    next = 0;
    ck_assert(!shoal_wait_test_all(&s, &next));
    ck_assert_uint_eq(next, 1);
    ck_assert_uint_eq(shoal_wait_test_some(&s, idx), 4);

    s.status = some; /* the odd (unsatisfied) entries are out */
    next = 0;
    ck_assert(shoal_wait_test_all(&s, &next));
    ck_assert_uint_eq(next, 8);
    ck_assert_uint_eq(shoal_wait_test_some(&s, idx), 4);
    for (i = 0; i < 4; i++)
        ck_assert_uint_eq(idx[i], 2 * i);
    ck_assert(!shoal_wait_empty(&s));

    /* Now only the masked entries are satisfied: nothing may be reported. */
    s.cmp = SHOAL_CMP_NE;
    cursor = 0;
    ck_assert_uint_eq(shoal_wait_test_any(&s, &cursor), SIZE_MAX);
    ck_assert_uint_eq(shoal_wait_test_some(&s, idx), 0);
    next = 0;
    ck_assert(!shoal_wait_test_all(&s, &next));
    ck_assert_uint_eq(next, 0);
    s.status = none;
    cursor = 0;
    ck_assert_uint_eq(shoal_wait_test_any(&s, &cursor), 1);

    /* All masked: the empty set, satisfied or not. */
    s.status = all;
    ck_assert(shoal_wait_empty(&s));
    next = 0;
    ck_assert(shoal_wait_test_all(&s, &next));
    cursor = 0;
    ck_assert_uint_eq(shoal_wait_test_any(&s, &cursor), SIZE_MAX);
    ck_assert_uint_eq(shoal_wait_test_some(&s, idx), 0);
}
END_TEST

/* Vector values compare entry i with value i; scalar ones use the one value. */
START_TEST(test_vector_and_scalar_values)
{
    const kind_t *k = &kinds[_i];
    uint64_t m = mask_of(k->size);
    elems_t iv, val;
    size_t i, idx[8], n, next, cursor;
    shoal_wait_set_t s;

    for (i = 0; i < 4; i++)
        put_elem(&iv, i, k, 5);
    put_elem(&val, 0, k, 5);
    put_elem(&val, 1, k, 6);
    put_elem(&val, 2, k, 4);
    put_elem(&val, 3, k, 5);

    s = make_set(k, &iv, 4, NULL, SHOAL_CMP_EQ, &val, 1);
    n = shoal_wait_test_some(&s, idx);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(idx[0], 0);
    ck_assert_uint_eq(idx[1], 3);
    next = 0;
    ck_assert(!shoal_wait_test_all(&s, &next));
    ck_assert_uint_eq(next, 1);
    cursor = 1;
    ck_assert_uint_eq(shoal_wait_test_any(&s, &cursor), 3);

    s.vector = 0; /* the same values array, read as the one value 5 */
    ck_assert_uint_eq(shoal_wait_test_some(&s, idx), 4);
    next = 0;
    ck_assert(shoal_wait_test_all(&s, &next));

    s.vector = 1;
    s.cmp = SHOAL_CMP_GT; /* 5 > 5, 6, 4, 5: only entry 2 */
    ck_assert_uint_eq(shoal_wait_test_some(&s, idx), 1);
    ck_assert_uint_eq(idx[0], 2);
    s.cmp = SHOAL_CMP_LE; /* 5 <= 5, 6, 5: entries 0, 1, 3 */
    ck_assert_uint_eq(shoal_wait_test_some(&s, idx), 3);
    ck_assert_uint_eq(idx[0], 0);
    ck_assert_uint_eq(idx[1], 1);
    ck_assert_uint_eq(idx[2], 3);

    /* Per-entry values across the sign boundary: 0 > -1 only when signed, 0 < max
     * only when unsigned. */
    put_elem(&iv, 0, k, 0);
    put_elem(&iv, 1, k, 0);
    put_elem(&val, 0, k, m);
    put_elem(&val, 1, k, 1);
    s = make_set(k, &iv, 2, NULL, SHOAL_CMP_GT, &val, 1);
    n = shoal_wait_test_some(&s, idx);
    if (k->is_signed) {
        ck_assert_uint_eq(n, 1);
        ck_assert_uint_eq(idx[0], 0);
    } else {
        ck_assert_uint_eq(n, 0);
    }
    s.cmp = SHOAL_CMP_LT;
    n = shoal_wait_test_some(&s, idx);
    ck_assert_uint_eq(n, k->is_signed ? 1 : 2);
    ck_assert_uint_eq(idx[0], k->is_signed ? 1 : 0);
}
END_TEST

/* nelems 0 (with NULL arrays, as a caller may pass) and everything masked. */
START_TEST(test_empty_sets)
{
    const kind_t *k = &kinds[_i];
    shoal_wait_set_t s;
    size_t next = 0, cursor = 5, idx[1] = {77};
    elems_t iv, val;
    int status[3] = {1, 1, 1};
    int c;

    for (c = 0; c < 6; c++) {
        memset(&s, 0, sizeof(s));
        s.elem_size = k->size;
        s.is_signed = k->is_signed;
        s.cmp = cmps[c];
        s.vector = c % 2;
        next = 0;
        cursor = 5;
        ck_assert(shoal_wait_empty(&s));
        ck_assert(shoal_wait_test_all(&s, &next));
        ck_assert_uint_eq(next, 0);
        ck_assert_uint_eq(shoal_wait_test_any(&s, &cursor), SIZE_MAX);
        ck_assert_uint_eq(shoal_wait_test_some(&s, idx), 0);
        ck_assert_uint_eq(idx[0], 77);

        /* All masked, and every entry would satisfy EQ/LE/GE. */
        memset(&iv, 0, sizeof(iv));
        memset(&val, 0, sizeof(val));
        s = make_set(k, &iv, 3, status, cmps[c], &val, c % 2);
        next = 0;
        ck_assert(shoal_wait_empty(&s));
        ck_assert(shoal_wait_test_all(&s, &next));
        ck_assert_uint_eq(next, 3);
        ck_assert_uint_eq(shoal_wait_test_any(&s, &cursor), SIZE_MAX);
        ck_assert_uint_eq(shoal_wait_test_some(&s, idx), 0);
        ck_assert_uint_eq(idx[0], 77);
    }
}
END_TEST

/* test_all leaves satisfied entries behind: *next is the first entry not yet seen
 * satisfied, masked entries are skipped, and an entry behind *next is not looked at
 * again. */
START_TEST(test_all_progress)
{
    const kind_t *k = &kinds[_i];
    int status[8] = {0, 0, 0, 0, 0, 1, 0, 0};
    elems_t iv, val;
    size_t i, next = 0;
    shoal_wait_set_t s;

    for (i = 0; i < 8; i++)
        put_elem(&iv, i, k, i < 3 ? 1 : 0);
    put_elem(&val, 0, k, 1);
    s = make_set(k, &iv, 8, status, SHOAL_CMP_GE, &val, 0);

    ck_assert(!shoal_wait_test_all(&s, &next));
    ck_assert_uint_eq(next, 3);
    ck_assert(!shoal_wait_test_all(&s, &next)); /* nothing changed: no progress */
    ck_assert_uint_eq(next, 3);

    put_elem(&iv, 3, k, 1);
    put_elem(&iv, 4, k, 2);
    put_elem(&iv, 0, k, 0); /* behind *next: not looked at again */
    ck_assert(!shoal_wait_test_all(&s, &next));
    ck_assert_uint_eq(next, 6); /* 5 is masked */

    put_elem(&iv, 7, k, 1); /* out of order: 6 still holds it back */
    ck_assert(!shoal_wait_test_all(&s, &next));
    ck_assert_uint_eq(next, 6);

    put_elem(&iv, 6, k, 1);
    ck_assert(shoal_wait_test_all(&s, &next));
    ck_assert_uint_eq(next, 8);
    ck_assert(shoal_wait_test_all(&s, &next)); /* stays satisfied */

    next = 0; /* a fresh scan sees entry 0 again */
    ck_assert(!shoal_wait_test_all(&s, &next));
    ck_assert_uint_eq(next, 0);

    status[0] = 1; /* a masked first entry is skipped even from the start */
    next = 0;
    ck_assert(shoal_wait_test_all(&s, &next));
    ck_assert_uint_eq(next, 8);
}
END_TEST

/* test_some: every satisfied active entry exactly once, in increasing order, and
 * nothing written past the count. */
START_TEST(test_some_unique_in_order)
{
    const kind_t *k = &kinds[_i];
    int status[MAXN] = {0};
    elems_t iv, val;
    size_t i, n, idx[MAXN + 1], want[MAXN], nwant;
    unsigned pattern;
    shoal_wait_set_t s;

    put_elem(&val, 0, k, 0);
    /* Several patterns of satisfied (NE 0) and masked entries over 13 elements. */
    for (pattern = 0; pattern < 64; pattern++) {
        unsigned bits = pattern * 2654435761u;

        nwant = 0;
        for (i = 0; i < 13; i++) {
            int sat = (bits >> i) & 1, masked = (bits >> (i + 13)) % 4 == 0;

            put_elem(&iv, i, k, sat ? (uint64_t)(i + 1) * 0x101 : 0);
            status[i] = masked;
            if (sat && !masked)
                want[nwant++] = i;
        }
        for (i = 0; i <= MAXN; i++)
            idx[i] = SIZE_MAX - 1;
        s = make_set(k, &iv, 13, pattern % 2 ? status : NULL, SHOAL_CMP_NE, &val, 0);
        if (pattern % 2 == 0) {
            nwant = 0;
            for (i = 0; i < 13; i++)
                if ((bits >> i) & 1)
                    want[nwant++] = i;
        }
        n = shoal_wait_test_some(&s, idx);
        ck_assert_uint_eq(n, nwant);
        for (i = 0; i < n; i++) {
            ck_assert_uint_eq(idx[i], want[i]);
            if (i > 0)
                ck_assert_uint_gt(idx[i], idx[i - 1]);
        }
        ck_assert_uint_eq(idx[n], SIZE_MAX - 1);
    }
}
END_TEST

/* test_any keeps a cursor: with several entries satisfied, nelems calls report
 * every one of them, the highest index included, from any starting cursor. A
 * scan that restarted at 0 each time would starve all but the lowest. */
START_TEST(test_any_is_fair)
{
    const kind_t *k = &kinds[_i];
    static const size_t satisfied[] = {0, 2, 6}; /* 6 is the highest index */
    elems_t iv, val;
    size_t i, start, cursor, got, prev;
    int status[7] = {0};
    shoal_wait_set_t s;

    for (i = 0; i < 7; i++)
        put_elem(&iv, i, k, 0);
    for (i = 0; i < 3; i++)
        put_elem(&iv, satisfied[i], k, 9);
    put_elem(&val, 0, k, 9);
    s = make_set(k, &iv, 7, NULL, SHOAL_CMP_EQ, &val, 0);

    for (start = 0; start < 16; start++) {
        int seen[7] = {0}, calls, distinct = 0;

        cursor = start == 15 ? SIZE_MAX : start; /* any cursor value is taken modulo n */
        prev = SIZE_MAX;
        for (calls = 0; calls < 7; calls++) {
            got = shoal_wait_test_any(&s, &cursor);
            ck_assert_msg(got == 0 || got == 2 || got == 6, "%s: test_any returned %zu", k->name,
                          got);
            if (!seen[got]++)
                distinct++;
            /* Round robin: the next report is the next satisfied index after the
             * previous one, wrapping. */
            if (prev != SIZE_MAX)
                ck_assert_uint_eq(got, prev == 0 ? 2 : prev == 2 ? 6 : 0);
            prev = got;
            if (calls == 2)
                ck_assert_int_eq(distinct, 3); /* all three within three calls */
        }
        ck_assert_msg(seen[6] > 0, "%s: from cursor %zu the highest index was starved", k->name,
                      start);
    }

    /* Only the highest index satisfied, cursor past it: the scan wraps to it. */
    put_elem(&iv, 0, k, 0);
    put_elem(&iv, 2, k, 0);
    cursor = 7;
    ck_assert_uint_eq(shoal_wait_test_any(&s, &cursor), 6);
    ck_assert_uint_eq(shoal_wait_test_any(&s, &cursor), 6);

    /* The caller's pattern in wait_until_any: mask each entry reported. Every
     * satisfied entry comes out exactly once, then the set is empty. */
    for (i = 0; i < 7; i++)
        put_elem(&iv, i, k, i % 3 == 0 ? 9 : 1); /* 0, 3, 6 */
    s.status = status;
    cursor = 4;
    for (i = 0; i < 3; i++) {
        got = shoal_wait_test_any(&s, &cursor);
        ck_assert_msg(got < 7 && got % 3 == 0 && status[got] == 0,
                      "%s: test_any returned %zu (already reported or unsatisfied)", k->name, got);
        status[got] = 1;
    }
    ck_assert_uint_eq(shoal_wait_test_any(&s, &cursor), SIZE_MAX);
    ck_assert(!shoal_wait_empty(&s)); /* unsatisfied entries are still in it */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("wait");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_constants_match_the_api);
    tcase_add_loop_test(tc, test_every_operator_at_boundaries, 0, NKINDS);
    tcase_add_loop_test(tc, test_signed_unsigned_spelled_out, 0, NKINDS);
    tcase_add_loop_test(tc, test_status_masks, 0, NKINDS);
    tcase_add_loop_test(tc, test_vector_and_scalar_values, 0, NKINDS);
    tcase_add_loop_test(tc, test_empty_sets, 0, NKINDS);
    tcase_add_loop_test(tc, test_all_progress, 0, NKINDS);
    tcase_add_loop_test(tc, test_some_unique_in_order, 0, NKINDS);
    tcase_add_loop_test(tc, test_any_is_fair, 0, NKINDS);
    suite_add_tcase(s, tc);
    return check_main_run(s);
}
