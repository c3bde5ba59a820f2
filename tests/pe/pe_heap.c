/* Symmetric heap: malloc/calloc/align/realloc/free/malloc_with_hints, that the
 * same calls give the same offsets on every PE, and that freeing gives the space
 * back. Every PE makes the same allocation calls in the same order. */
#include "pe_test.h"

#include <stdint.h>

#define MAX_OFFS 64

static long offs[MAX_OFFS]; /* this PE's offsets from the reference block */
static int noffs;
static char *ref;

static void record(const void *p)
{
    if (noffs < MAX_OFFS)
        offs[noffs++] = p == NULL ? -1 : (long)((const char *)p - ref);
}

/* Fill with this PE's pattern, have the right neighbour's pattern put over it, check. */
static void check_remote_writes(unsigned char *p, size_t len, const char *what)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), left = (me + npes - 1) % npes;
    unsigned char *src = malloc(len);
    size_t i, bad = 0, first = 0;

    for (i = 0; i < len; i++)
        src[i] = (unsigned char)(me * 31 + i * 7 + 1);
    memset(p, 0, len);
    shmem_barrier_all();
    shmem_putmem(p, src, len, (me + 1) % npes);
    shmem_barrier_all();
    for (i = 0; i < len; i++) {
        if (p[i] != (unsigned char)(left * 31 + i * 7 + 1) && bad++ == 0)
            first = i;
    }
    PE_CHECK(bad == 0, "%s: %zu of %zu bytes put by PE %d are wrong, first at %zu (%u)", what,
             bad, len, left, first, bad ? p[first] : 0);
    free(src);
}

static void check_malloc_calloc(void)
{
    size_t i;
    long *m, *c;
    unsigned char *dirty;

    PE_CHECK(shmem_malloc(0) == NULL, "%s", "shmem_malloc(0) is not NULL");
    PE_CHECK(shmem_calloc(0, 8) == NULL, "%s", "shmem_calloc(0, 8) is not NULL");
    PE_CHECK(shmem_calloc(8, 0) == NULL, "%s", "shmem_calloc(8, 0) is not NULL");
    shmem_free(NULL); /* no action */

    m = shmem_malloc(100 * sizeof(long));
    PE_CHECK(m != NULL && (uintptr_t)m % sizeof(long) == 0, "shmem_malloc(800) is %p",
             (void *)m);
    record(m);
    for (i = 0; m != NULL && i < 100; i++)
        m[i] = (long)i;
    if (m != NULL)
        check_remote_writes((unsigned char *)m, 100 * sizeof(long), "shmem_malloc block");

    /* Dirty a block, free it, and calloc the same size: it must come back zeroed. */
    dirty = shmem_malloc(4096);
    record(dirty);
    if (dirty != NULL)
        memset(dirty, 0xa5, 4096);
    shmem_free(dirty);
    c = shmem_calloc(512, sizeof(long));
    record(c);
    PE_CHECK(c != NULL, "shmem_calloc(512, 8) is %p", (void *)c);
    if (c != NULL && (unsigned char *)c != dirty && shmem_my_pe() == 0)
        printf("note: shmem_calloc did not reuse the dirtied block: zeroing is weakly tested\n");
    for (i = 0; c != NULL && i < 512; i++) {
        if (c[i] != 0) {
            PE_CHECK_EQ("shmem_calloc element", 0, c[i]);
            break;
        }
    }
    shmem_free(c);
    shmem_free(m);
}

/* OpenSHMEM 1.6: a zero size, or shmem_free of NULL, performs no action, so one
 * PE may make these calls alone. The others wait for PE 0's word meanwhile: were
 * any of the calls a barrier, PE 0 would wait for them and the watchdog would end
 * the test. */
static void check_no_action(void)
{
    static long done;
    int pe, npes = shmem_n_pes();

    if (shmem_my_pe() == 0) {
        PE_CHECK(shmem_malloc(0) == NULL, "%s", "shmem_malloc(0) alone is not NULL");
        PE_CHECK(shmem_align(64, 0) == NULL, "%s", "shmem_align(64, 0) alone is not NULL");
        PE_CHECK(shmem_calloc(0, 4) == NULL, "%s", "shmem_calloc(0, 4) alone is not NULL");
        PE_CHECK(shmem_calloc(4, 0) == NULL, "%s", "shmem_calloc(4, 0) alone is not NULL");
        PE_CHECK(shmem_malloc_with_hints(0, SHMEM_MALLOC_ATOMICS_REMOTE) == NULL, "%s",
                 "shmem_malloc_with_hints(0) alone is not NULL");
        PE_CHECK(shmem_realloc(NULL, 0) == NULL, "%s", "shmem_realloc(NULL, 0) alone is not NULL");
        shmem_free(NULL);
        for (pe = 1; pe < npes; pe++)
            shmem_long_atomic_set(&done, 1, pe);
    } else {
        shmem_long_wait_until(&done, SHMEM_CMP_EQ, 1);
    }
    shmem_barrier_all();
}

static void check_align(void)
{
    void *blocks[11];
    size_t align;
    int k = 0;

    for (align = 64; align <= 65536; align <<= 1, k++) {
        /* an odd-sized block between them so that alignment has work to do */
        void *pad = shmem_malloc(align / 2 + 8);

        blocks[k] = shmem_align(align, 3 * sizeof(int));
        record(blocks[k]);
        PE_CHECK(blocks[k] != NULL && (uintptr_t)blocks[k] % align == 0,
                 "shmem_align(%zu) is %p", align, blocks[k]);
        shmem_free(pad);
        if (blocks[k] != NULL)
            check_remote_writes(blocks[k], 3 * sizeof(int), "shmem_align block");
    }
    while (k-- > 0)
        shmem_free(blocks[k]);
    PE_CHECK(shmem_align(4096, 0) == NULL, "%s", "shmem_align(4096, 0) is not NULL");
}

/* Requests no heap could hold return NULL on every PE (the job goes on), and a failed
 * realloc leaves the old block as it was. */
static void check_impossible(void)
{
    size_t heap = pe_test_heap_size(), sizes[] = {(size_t)1 << 63, SIZE_MAX, (size_t)-8, heap + 1};
    int n = -8, i;
    long *keep;

    for (i = 0; i < 4; i++) {
        void *p = shmem_malloc(sizes[i]);

        PE_CHECK(p == NULL, "shmem_malloc(%zu) is %p", sizes[i], p);
        p = shmem_align(4096, sizes[i]);
        PE_CHECK(p == NULL, "shmem_align(4096, %zu) is %p", sizes[i], p);
    }
    PE_CHECK(shmem_malloc((size_t)n) == NULL, "%s", "shmem_malloc((size_t)-8) is not NULL");
    PE_CHECK(shmem_calloc(SIZE_MAX / 2, 4) == NULL, "%s",
             "shmem_calloc(SIZE_MAX / 2, 4), an overflowing product, is not NULL");
    PE_CHECK(shmem_calloc(heap, 2) == NULL, "shmem_calloc(%zu, 2) is not NULL", heap);
    /* ref holds offset 0, the heap's only 1 GiB-aligned offset; 2 GiB is beyond the base. */
    PE_CHECK(shmem_align((size_t)1 << 30, 64) == NULL, "%s", "shmem_align(1 GiB, 64) is not NULL");
    PE_CHECK(shmem_align((size_t)1 << 31, 64) == NULL, "%s", "shmem_align(2 GiB, 64) is not NULL");
    keep = shmem_malloc(4 * sizeof(long));
    PE_CHECK(keep != NULL, "%s", "shmem_malloc(32) is NULL");
    if (keep == NULL)
        return;
    for (i = 0; i < 4; i++)
        keep[i] = 40 + i;
    PE_CHECK(shmem_realloc(keep, SIZE_MAX) == NULL, "%s", "shmem_realloc(p, SIZE_MAX) is not NULL");
    PE_CHECK(shmem_realloc(keep, heap * 2) == NULL, "shmem_realloc(p, %zu) is not NULL", heap * 2);
    for (i = 0; i < 4; i++)
        PE_CHECK_EQ("element of the block a failed realloc kept", 40 + i, keep[i]);
    shmem_free(keep);
}

static void check_contents(const int *p, size_t n, int base, const char *what)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (p[i] != base + (int)i) {
            PE_CHECK(0, "%s: element %zu is %d, expected %d", what, i, p[i], base + (int)i);
            return;
        }
    }
}

/* Grows in place (free space after it), grows by moving (a block after it), shrinks. */
static void check_realloc(void)
{
    int me = shmem_my_pe(), i, *p, *q, *blocker;

    p = shmem_realloc(NULL, 16 * sizeof(int)); /* realloc(NULL) is malloc */
    record(p);
    PE_CHECK(p != NULL, "shmem_realloc(NULL, 64) is %p", (void *)p);
    if (p == NULL)
        return;
    for (i = 0; i < 16; i++)
        p[i] = me * 1000 + i;
    q = shmem_realloc(p, 1024 * sizeof(int));
    record(q);
    PE_CHECK(q != NULL, "%s", "shmem_realloc grow in place returned NULL");
    if (q == NULL)
        return;
    check_contents(q, 16, me * 1000, "realloc grown in place");
    blocker = shmem_malloc(64);
    record(blocker);
    for (i = 16; i < 1024; i++)
        q[i] = me * 1000 + i;
    p = shmem_realloc(q, 100000 * sizeof(int)); /* must move past the blocker */
    record(p);
    PE_CHECK(p != NULL, "%s", "shmem_realloc grow by moving returned NULL");
    if (p == NULL)
        return;
    check_contents(p, 1024, me * 1000, "realloc grown by moving");
    check_remote_writes((unsigned char *)p, 100000 * sizeof(int), "realloc'ed block");
    for (i = 0; i < 100; i++)
        p[i] = me * 1000 + i;
    q = shmem_realloc(p, 10 * sizeof(int));
    record(q);
    PE_CHECK(q != NULL, "%s", "shmem_realloc shrink returned NULL");
    if (q == NULL)
        return;
    check_contents(q, 10, me * 1000, "realloc shrunk");
    check_remote_writes((unsigned char *)q, 10 * sizeof(int), "shrunk block");
    PE_CHECK(shmem_realloc(q, 0) == NULL, "%s", "shmem_realloc(p, 0) is not NULL");
    shmem_free(blocker);
}

static void check_hints(void)
{
    /* unknown bits too: the spec has a hint that is of no use ignored */
    long hints[] = {0, SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE,
                    SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE, 1L << 20, -1L};
    size_t h;

    for (h = 0; h < sizeof(hints) / sizeof(hints[0]); h++) {
        long *p = shmem_malloc_with_hints(32 * sizeof(long), hints[h]);

        record(p);
        PE_CHECK(p != NULL, "shmem_malloc_with_hints(256, %ld) is NULL", hints[h]);
        if (p != NULL)
            check_remote_writes((unsigned char *)p, 32 * sizeof(long), "hinted block");
        shmem_free(p);
    }
    PE_CHECK(shmem_malloc_with_hints(0, SHMEM_MALLOC_ATOMICS_REMOTE) == NULL, "%s",
             "shmem_malloc_with_hints(0, ...) is not NULL");
}

/* Every PE sends its offsets to every PE; all rows must be equal. */
static void check_symmetric(void)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), pe, i;
    long *table = shmem_calloc((size_t)npes * MAX_OFFS, sizeof(long));

    PE_CHECK(table != NULL, "shmem_calloc of the offset table is %p", (void *)table);
    if (table == NULL)
        return;
    PE_CHECK(noffs > 20 && noffs < MAX_OFFS, "recorded %d offsets", noffs);
    for (pe = 0; pe < npes; pe++)
        shmem_long_put(&table[me * MAX_OFFS], offs, MAX_OFFS, pe);
    shmem_barrier_all();
    for (pe = 0; pe < npes; pe++) {
        for (i = 0; i < noffs; i++) {
            if (table[pe * MAX_OFFS + i] != offs[i]) {
                PE_CHECK(0, "allocation %d is at offset %ld here, %ld on PE %d", i, offs[i],
                         table[pe * MAX_OFFS + i], pe);
                break;
            }
        }
    }
    shmem_free(table);
}

/* 1000 alloc/free cycles of mixed kinds and sizes, a few blocks live at a time so
 * that the heap fragments and coalesces, then half the heap in one block. */
static void check_no_leak(void)
{
    size_t heap = pe_test_heap_size(), half = heap / 2, sizes[] = {8, 100, 4096, 70000, 1};
    int me = shmem_my_pe(), npes = shmem_n_pes(), i;
    void *pool[3] = {NULL, NULL, NULL};
    char *big, *big2;

    PE_CHECK(heap > 0, "cannot read SHMEM_SYMMETRIC_SIZE=%s", getenv("SHMEM_SYMMETRIC_SIZE"));
    for (i = 0; i < 1000; i++) {
        size_t size = sizes[i % 5];
        void **slot = &pool[(i * 7) % 3];

        shmem_free(*slot);
        switch (i % 3) {
        case 0: *slot = shmem_malloc(size); break;
        case 1: *slot = shmem_align((size_t)128 << (i % 7), size); break;
        default: *slot = shmem_calloc(size, 3); break;
        }
        if (*slot == NULL) {
            PE_CHECK(0, "cycle %d: allocating %zu bytes failed", i, size);
            break;
        }
    }
    for (i = 0; i < 3; i++)
        shmem_free(pool[i]);
    big = shmem_malloc(half);
    PE_CHECK(big != NULL, "shmem_malloc(%zu), half the heap, after 1000 cycles is NULL", half);
    if (big == NULL)
        return;
    /* Far-apart bytes of it are remotely writable. */
    big[0] = big[half - 1] = 0;
    shmem_barrier_all();
    shmem_char_p(&big[half - 1], (char)(me + 1), (me + 1) % npes);
    shmem_char_p(&big[0], (char)(me + 2), (me + 1) % npes);
    shmem_barrier_all();
    PE_CHECK_EQ("last byte of the big block", (me + npes - 1) % npes + 1, big[half - 1]);
    PE_CHECK_EQ("first byte of the big block", (me + npes - 1) % npes + 2, big[0]);
    /* A second such block cannot fit: NULL, not the end of the job. */
    big2 = shmem_malloc(half + half / 2);
    PE_CHECK(big2 == NULL, "a second block of %zu bytes fits beside %zu in a %zu heap",
             half + half / 2, half, heap);
    shmem_free(big2);
    shmem_free(big);
    /* And once freed, it fits again. */
    big = shmem_malloc(half + half / 2);
    PE_CHECK(big != NULL, "shmem_malloc(%zu) after freeing is NULL", half + half / 2);
    shmem_free(big);
}

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    ref = shmem_malloc(1);
    PE_CHECK(ref != NULL, "shmem_malloc(1) is %p", (void *)ref);
    if (ref == NULL)
        return pe_test_finish("pe_heap");
    check_malloc_calloc();
    check_no_action();
    check_align();
    check_impossible();
    check_realloc();
    check_hints();
    check_symmetric();
    check_no_leak();
    shmem_free(ref);
    return pe_test_finish("pe_heap");
}
