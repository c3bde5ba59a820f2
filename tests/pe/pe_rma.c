/* RMA over every standard type (typed names and the C11 generic ones), the sized
 * forms and putmem/getmem: put, p, iput, put_nbi, get, g, iget, get_nbi to ring
 * neighbours and to all PEs, into the symmetric heap, data and bss. Every check
 * compares values, and gaps and guard elements must keep their sentinel. */
#include "pe_test.h"
#include "shoal_types.h"

#include <stdint.h>

#define RING_N 1000   /* the larger count */
#define STRIDED_N 50  /* elements of each iput/iget */
#define A2A_N 7       /* elements each PE sends every PE */
#define MAXPE 16      /* all-to-all slots in each array */
#define BIG (4 << 20) /* bytes of the large putmem/getmem */

/* The regions of each test array, in elements; each ends with a guard element. */
enum {
    R_PUT = 0,                                /* RING_N */
    R_ONE = R_PUT + RING_N + 1,               /* 1 */
    R_ZERO = R_ONE + 2,                       /* nelems 0: nothing may land */
    R_P = R_ZERO + 1,                         /* 3 elements by p / g */
    R_NBI = R_P + 4,                          /* RING_N by put_nbi / get_nbi */
    R_NBI1 = R_NBI + RING_N + 1,              /* 1 by put_nbi / get_nbi */
    R_STRIDED = R_NBI1 + 2,                   /* strides 1, 2, 3 */
    STRIDED_LEN = 3 * STRIDED_N + 1,          /* room for stride 3, and a guard */
    R_A2A = R_STRIDED + 3 * STRIDED_LEN,      /* MAXPE slots of A2A_N */
    R_END = R_A2A + MAXPE * (A2A_N + 1)
};

enum { SALT_PUT = 1, SALT_GET = 2 };

typedef struct type_info {
    const char *name;
    size_t size;
    long double (*load)(const void *arr, size_t i);
    long double sentinel; /* (T)-1, which no test value equals */
} type_info_t;

static int me, npes, left, right, a2a;

/* Distinct per PE and element, exact in every type (1..113 for 1-byte types). */
static long double val(int pe, size_t i, int salt, size_t size)
{
    return 1 + (pe * 13 + i * 7 + (size_t)salt * 3) % 113 + (size > 1 ? 256 * (pe % 64 + 1) : 0);
}

/* len elements at arr[at]: element j with j % stride == 0 and j / stride < n must be
 * val(pe, first + (j / stride) * sst), all others the sentinel. */
static void check_span(const type_info_t *t, const char *what, const char *where,
                       const void *arr, size_t at, size_t len, size_t n, size_t stride,
                       size_t sst, int pe, size_t first, int salt)
{
    size_t j, bad = 0, first_bad = 0;
    long double want_bad = 0, got_bad = 0;

    for (j = 0; j < len; j++) {
        int data = j % stride == 0 && j / stride < n;
        long double want = data ? val(pe, first + j / stride * sst, salt, t->size) : t->sentinel;
        long double got = t->load(arr, at + j);

        if (got != want && bad++ == 0) {
            first_bad = j;
            want_bad = want;
            got_bad = got;
        }
    }
    PE_CHECK(bad == 0,
             "%s %s in %s with PE %d: %zu of %zu elements wrong, first [%zu]: expected %Lg, "
             "found %Lg",
             t->name, what, where, pe, bad, len, first_bad, want_bad, got_bad);
}

/* What the put phase leaves in the symmetric array, and the get phase in the local
 * buffer: the same layout, from ring_pe and, in the all-to-all slots, from everyone. */
static void check_layout(const type_info_t *t, const char *phase, const char *where,
                         const void *arr, int ring_pe, int salt)
{
    int s, p;

    check_span(t, phase, where, arr, R_PUT, RING_N + 1, RING_N, 1, 1, ring_pe, 0, salt);
    check_span(t, phase, where, arr, R_ONE, 2, 1, 1, 1, ring_pe, 1, salt);
    check_span(t, phase, where, arr, R_ZERO, 1, 0, 1, 1, ring_pe, 0, salt);
    check_span(t, "p/g", where, arr, R_P, 4, 3, 1, 1, ring_pe, 2, salt);
    check_span(t, "nbi", where, arr, R_NBI, RING_N + 1, RING_N, 1, 1, ring_pe, 0, salt);
    check_span(t, "nbi", where, arr, R_NBI1, 2, 1, 1, 1, ring_pe, 3, salt);
    for (s = 1; s <= 3; s++)
        check_span(t, "strided", where, arr, R_STRIDED + (s - 1) * STRIDED_LEN, STRIDED_LEN,
                   STRIDED_N, s, 4 - s, ring_pe, 0, salt);
    for (p = 0; a2a && p < MAXPE; p++)
        check_span(t, "all-to-all", where, arr, R_A2A + p * (A2A_N + 1), A2A_N + 1,
                   p < npes ? A2A_N : 0, 1, 1, p, me, salt);
}

/* One round trip of every routine on sym, a symmetric array of R_END elements.
 * Puts go right and land from the left; gets read from the right. A macro so that
 * the typed, generic and sized names share it. */
#define RMA_ROUND(T, t, where, sym, src, buf, PUT, P, IPUT, PUT_NBI, GET, G, IGET, GET_NBI) \
    do {                                                                                     \
        size_t i_;                                                                           \
        int s_, p_;                                                                          \
                                                                                             \
        for (i_ = 0; i_ < R_END; i_++) {                                                     \
            (sym)[i_] = (T)-1;                                                               \
            (src)[i_] = (T)val(me, i_, SALT_PUT, sizeof(T));                                 \
        }                                                                                    \
        shmem_barrier_all();                                                                 \
        PUT((sym) + R_PUT, (src), RING_N, right);                                            \
        PUT((sym) + R_ONE, (src) + 1, 1, right);                                             \
        PUT((sym) + R_ZERO, (src), 0, right);                                                \
        for (i_ = 0; i_ < 3; i_++)                                                           \
            P((sym) + R_P + i_, (src)[2 + i_], right);                                       \
        for (s_ = 1; s_ <= 3; s_++)                                                          \
            IPUT((sym) + R_STRIDED + (s_ - 1) * STRIDED_LEN, (src), s_, 4 - s_, STRIDED_N,   \
                 right);                                                                     \
        PUT_NBI((sym) + R_NBI, (src), RING_N, right);                                        \
        PUT_NBI((sym) + R_NBI1, (src) + 3, 1, right);                                        \
        shmem_quiet();                                                                       \
        for (p_ = 0; a2a && p_ < npes; p_++)                                                 \
            PUT((sym) + R_A2A + me * (A2A_N + 1), (src) + p_, A2A_N, p_);                    \
        shmem_barrier_all();                                                                 \
        check_layout((t), "put", (where), (sym), left, SALT_PUT);                            \
                                                                                             \
        for (i_ = 0; i_ < R_END; i_++) {                                                     \
            (sym)[i_] = (T)val(me, i_, SALT_GET, sizeof(T));                                 \
            (buf)[i_] = (T)-1;                                                               \
        }                                                                                    \
        shmem_barrier_all();                                                                 \
        GET((buf) + R_PUT, (sym), RING_N, right);                                            \
        GET((buf) + R_ONE, (sym) + 1, 1, right);                                             \
        GET((buf) + R_ZERO, (sym), 0, right);                                                \
        for (i_ = 0; i_ < 3; i_++)                                                           \
            (buf)[R_P + i_] = G((sym) + 2 + i_, right);                                      \
        for (s_ = 1; s_ <= 3; s_++)                                                          \
            IGET((buf) + R_STRIDED + (s_ - 1) * STRIDED_LEN, (sym), s_, 4 - s_, STRIDED_N,   \
                 right);                                                                     \
        GET_NBI((buf) + R_NBI, (sym), RING_N, right);                                        \
        GET_NBI((buf) + R_NBI1, (sym) + 3, 1, right);                                        \
        shmem_quiet();                                                                       \
        for (p_ = 0; a2a && p_ < npes; p_++)                                                 \
            GET((buf) + R_A2A + p_ * (A2A_N + 1), (sym) + me, A2A_N, p_);                    \
        check_layout((t), "get", (where), (buf), right, SALT_GET);                           \
        shmem_barrier_all(); /* nobody refills sym while others read it */                   \
    } while (0)

static void *heap_sym, *src_buf, *get_buf;

/* Per type: its loader, and one function running the round on the heap, a global
 * (data) array and a zero-initialised static (bss) array. */
#define DEFINE_TYPED(T, NAME)                                                                \
    static long double load_##NAME(const void *arr, size_t i)                               \
    {                                                                                        \
        return ((const T *)arr)[i];                                                          \
    }                                                                                        \
    static const type_info_t info_##NAME = {#NAME, sizeof(T), load_##NAME, (T)-1};           \
    static void rma_##NAME(void)                                                             \
    {                                                                                        \
        static T data_##NAME[R_END] = {(T)1}; /* initialised: in the data segment */       \
        static T bss_##NAME[R_END];                                                          \
                                                                                             \
        PE_CHECK(data_##NAME[0] == (T)1 && bss_##NAME[0] == (T)0,                           \
                 "%s: initial data/bss values %Lg %Lg", #NAME,                               \
                 (long double)data_##NAME[0], (long double)bss_##NAME[0]);                   \
        RMA_ROUND(T, &info_##NAME, "heap", (T *)heap_sym, (T *)src_buf, (T *)get_buf,        \
                  shmem_##NAME##_put, shmem_##NAME##_p, shmem_##NAME##_iput,                 \
                  shmem_##NAME##_put_nbi, shmem_##NAME##_get, shmem_##NAME##_g,              \
                  shmem_##NAME##_iget, shmem_##NAME##_get_nbi);                              \
        RMA_ROUND(T, &info_##NAME, "data", data_##NAME, (T *)src_buf, (T *)get_buf,          \
                  shmem_##NAME##_put, shmem_##NAME##_p, shmem_##NAME##_iput,                 \
                  shmem_##NAME##_put_nbi, shmem_##NAME##_get, shmem_##NAME##_g,              \
                  shmem_##NAME##_iget, shmem_##NAME##_get_nbi);                              \
        RMA_ROUND(T, &info_##NAME, "bss", bss_##NAME, (T *)src_buf, (T *)get_buf,            \
                  shmem_##NAME##_put, shmem_##NAME##_p, shmem_##NAME##_iput,                 \
                  shmem_##NAME##_put_nbi, shmem_##NAME##_get, shmem_##NAME##_g,              \
                  shmem_##NAME##_iget, shmem_##NAME##_get_nbi);                              \
    }
SHOAL_RMA_TYPES(DEFINE_TYPED)

/* The C11 generic names, for the types a _Generic list names: heap and data. */
#define DEFINE_GENERIC(T, NAME)                                                              \
    static void generic_##NAME(void)                                                         \
    {                                                                                        \
        static T gdata_##NAME[R_END] = {(T)1};                                               \
                                                                                             \
        RMA_ROUND(T, &info_##NAME, "heap via generic", (T *)heap_sym, (T *)src_buf,          \
                  (T *)get_buf, shmem_put, shmem_p, shmem_iput, shmem_put_nbi, shmem_get,    \
                  shmem_g, shmem_iget, shmem_get_nbi);                                       \
        RMA_ROUND(T, &info_##NAME, "data via generic", gdata_##NAME, (T *)src_buf,           \
                  (T *)get_buf, shmem_put, shmem_p, shmem_iput, shmem_put_nbi, shmem_get,    \
                  shmem_g, shmem_iget, shmem_get_nbi);                                       \
    }
SHOAL_RMA_C11_TYPES(DEFINE_GENERIC)

/* Sized forms: an unsigned type of each width, and p/g made of 1-element put/get
 * (the sized families have none). */
typedef uint8_t sized8_t;
typedef uint16_t sized16_t;
typedef uint32_t sized32_t;
typedef uint64_t sized64_t;
__extension__ typedef unsigned __int128 sized128_t;

#define DEFINE_SIZED(SIZE, BYTES)                                                            \
    static long double load_sized##SIZE(const void *arr, size_t i)                          \
    {                                                                                        \
        return ((const sized##SIZE##_t *)arr)[i];                                            \
    }                                                                                        \
    static const type_info_t info_sized##SIZE = {"sized" #SIZE, BYTES, load_sized##SIZE,      \
                                                 (sized##SIZE##_t)-1};                       \
    static void p_sized##SIZE(sized##SIZE##_t *dest, sized##SIZE##_t value, int pe)          \
    {                                                                                        \
        shmem_put##SIZE(dest, &value, 1, pe);                                                \
    }                                                                                        \
    static sized##SIZE##_t g_sized##SIZE(const sized##SIZE##_t *source, int pe)              \
    {                                                                                        \
        sized##SIZE##_t value;                                                               \
                                                                                             \
        shmem_get##SIZE(&value, source, 1, pe);                                              \
        return value;                                                                        \
    }                                                                                        \
    static void rma_sized##SIZE(void)                                                        \
    {                                                                                        \
        static sized##SIZE##_t sdata_##SIZE[R_END] = {1};                                    \
                                                                                             \
        PE_CHECK_EQ("sizeof sized" #SIZE, BYTES, sizeof(sized##SIZE##_t));                    \
        RMA_ROUND(sized##SIZE##_t, &info_sized##SIZE, "heap", (sized##SIZE##_t *)heap_sym,   \
                  (sized##SIZE##_t *)src_buf, (sized##SIZE##_t *)get_buf, shmem_put##SIZE,   \
                  p_sized##SIZE, shmem_iput##SIZE, shmem_put##SIZE##_nbi, shmem_get##SIZE,   \
                  g_sized##SIZE, shmem_iget##SIZE, shmem_get##SIZE##_nbi);                   \
        RMA_ROUND(sized##SIZE##_t, &info_sized##SIZE, "data", sdata_##SIZE,                  \
                  (sized##SIZE##_t *)src_buf, (sized##SIZE##_t *)get_buf, shmem_put##SIZE,   \
                  p_sized##SIZE, shmem_iput##SIZE, shmem_put##SIZE##_nbi, shmem_get##SIZE,   \
                  g_sized##SIZE, shmem_iget##SIZE, shmem_get##SIZE##_nbi);                   \
    }
SHOAL_RMA_SIZES(DEFINE_SIZED)

static unsigned char mem_pattern(int pe, size_t i, int salt)
{
    return (unsigned char)(pe * 59 + i * 7 + (i >> 12) + (size_t)salt * 3 + 1);
}

static void check_bytes(const char *what, const unsigned char *p, size_t len, int pe,
                        size_t first, int salt)
{
    size_t i, bad = 0, first_bad = 0;

    for (i = 0; i < len; i++)
        if (p[i] != mem_pattern(pe, first + i, salt) && bad++ == 0)
            first_bad = i;
    PE_CHECK(bad == 0, "%s with PE %d: %zu of %zu bytes wrong, first [%zu]: expected %u, found %u",
             what, pe, bad, len, first_bad, mem_pattern(pe, first + first_bad, salt),
             bad ? p[first_bad] : 0);
}

/* putmem/getmem and their nbi forms, small and 4 MiB, at odd offsets and lengths. */
static void rma_mem(void)
{
    static unsigned char mdata[256];
    unsigned char *sym = shmem_malloc(BIG + 256), *src = malloc(BIG + 256),
                  *buf = malloc(BIG + 256);
    size_t i;
    int pass;

    PE_CHECK(sym != NULL && src != NULL && buf != NULL, "buffers %p %p %p", (void *)sym,
             (void *)src, (void *)buf);
    if (sym == NULL || src == NULL || buf == NULL)
        return;
    for (pass = 0; pass < 2; pass++) { /* blocking, then nbi */
        const char *put = pass ? "putmem_nbi" : "putmem", *get = pass ? "getmem_nbi" : "getmem";

        for (i = 0; i < BIG + 256; i++)
            src[i] = mem_pattern(me, i, SALT_PUT);
        memset(sym, 0, BIG + 256);
        memset(mdata, 0, sizeof(mdata));
        shmem_barrier_all();
        if (pass) {
            shmem_putmem_nbi(sym, src, BIG, right);
            shmem_putmem_nbi(sym + BIG + 1, src + 5, 13, right);
            shmem_putmem_nbi(mdata + 3, src + 7, 200, right);
            shmem_quiet();
        } else {
            shmem_putmem(sym, src, BIG, right);
            shmem_putmem(sym + BIG + 1, src + 5, 13, right);
            shmem_putmem(mdata + 3, src + 7, 200, right);
        }
        shmem_barrier_all();
        check_bytes(put, sym, BIG, left, 0, SALT_PUT);
        check_bytes(put, sym + BIG + 1, 13, left, 5, SALT_PUT);
        check_bytes(put, mdata + 3, 200, left, 7, SALT_PUT);
        PE_CHECK(sym[BIG] == 0 && sym[BIG + 14] == 0 && mdata[2] == 0 && mdata[203] == 0,
                 "%s wrote outside its range: %u %u %u %u", put, sym[BIG], sym[BIG + 14],
                 mdata[2], mdata[203]);

        for (i = 0; i < BIG + 256; i++)
            sym[i] = mem_pattern(me, i, SALT_GET);
        for (i = 0; i < sizeof(mdata); i++)
            mdata[i] = mem_pattern(me, i, SALT_GET);
        memset(buf, 0, BIG + 256);
        shmem_barrier_all();
        if (pass) {
            shmem_getmem_nbi(buf + 1, sym + 1, BIG - 1, right);
            shmem_getmem_nbi(buf + BIG + 2, mdata + 9, 100, right);
            shmem_quiet();
        } else {
            shmem_getmem(buf + 1, sym + 1, BIG - 1, right);
            shmem_getmem(buf + BIG + 2, mdata + 9, 100, right);
        }
        check_bytes(get, buf + 1, BIG - 1, right, 1, SALT_GET);
        check_bytes(get, buf + BIG + 2, 100, right, 9, SALT_GET);
        PE_CHECK(buf[0] == 0 && buf[BIG + 1] == 0 && buf[BIG + 102] == 0,
                 "%s wrote outside its range: %u %u %u", get, buf[0], buf[BIG + 1],
                 buf[BIG + 102]);
        shmem_barrier_all();
    }
    free(buf);
    free(src);
    shmem_free(sym);
}

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    a2a = npes <= MAXPE;
    if (!a2a && me == 0)
        printf("note: more than %d PEs: no all-to-all rounds\n", MAXPE);
    heap_sym = shmem_malloc(R_END * 16);
    src_buf = malloc(R_END * 16);
    get_buf = malloc(R_END * 16);
    PE_CHECK(heap_sym != NULL && src_buf != NULL && get_buf != NULL, "buffers %p %p %p",
             heap_sym, src_buf, get_buf);
    if (heap_sym == NULL || src_buf == NULL || get_buf == NULL)
        return pe_test_finish("pe_rma");

#define CALL(T, NAME) rma_##NAME();
    SHOAL_RMA_TYPES(CALL)
#undef CALL
#define CALL(T, NAME) generic_##NAME();
    SHOAL_RMA_C11_TYPES(CALL)
#undef CALL
#define CALL(SIZE, BYTES) rma_sized##SIZE();
    SHOAL_RMA_SIZES(CALL)
#undef CALL
    rma_mem();

    free(get_buf);
    free(src_buf);
    shmem_free(heap_sym);
    return pe_test_finish("pe_rma");
}
