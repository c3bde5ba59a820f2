/* The _block and _warp forms of putmem and getmem (and their _nbi forms): a grid
 * of GRID blocks of BLOCK threads, so a block has one full warp and one partial
 * one; every thread of a block (or warp) calls each routine with the same
 * arguments, and each block (warp) moves its own region between this PE and its
 * right-hand neighbour (itself where that heap is out of reach: ucx). Twice: an
 * odd byte count (byte copies) and an aligned one (words). Then every typed and
 * sized form (the generated list) the same way, T_ELEMS elements each. The host
 * then checks every region byte for byte, and that the bytes after it (and the
 * regions a form must not touch) stayed zero. Exit 0 pass, 77 without a GPU, 99
 * fail. */
#include "gpu_test.h"

#include <string.h>

#include "../gpu-cpu/gen/dev_routines.h" /* SHOAL_DEV_GROUP_ROUTINES */

#define GRID 2
#define BLOCK 40 /* a warp of 32 and one of 8 */
#define WARPS ((BLOCK + 31) / 32)
#define MAX_BYTES 1024
#define GUARD 8
#define WARP_SHIFT 8 /* warp w's source starts 8 * w bytes in: alignment kept */
#define N_FORMS 8

/* One per PE, in the symmetric heap. */
typedef struct area {
    alignas(16) unsigned char src[GRID][MAX_BYTES + WARPS * WARP_SHIFT];
    /* per form: [0] block-wide, [1 + w] warp w's */
    alignas(16) unsigned char dst[N_FORMS][GRID][1 + WARPS][MAX_BYTES + GUARD];
} area_t;

enum { PUT_BLOCK, PUT_NBI_BLOCK, GET_BLOCK, GET_NBI_BLOCK, PUT_WARP, PUT_NBI_WARP, GET_WARP,
       GET_NBI_WARP };
static const char *const form_name[N_FORMS] = {
    "nvshmemx_putmem_block", "nvshmemx_putmem_nbi_block", "nvshmemx_getmem_block",
    "nvshmemx_getmem_nbi_block", "nvshmemx_putmem_warp", "nvshmemx_putmem_nbi_warp",
    "nvshmemx_getmem_warp", "nvshmemx_getmem_nbi_warp"};

static unsigned char pattern(int pe, int b, size_t j)
{
    return (unsigned char)(pe * 7 + b * 13 + j * 3 + 1);
}

__global__ void k_group(area_t *a, int target, size_t bytes)
{
    int b = blockIdx.x, w = threadIdx.x / 32;
    unsigned char *src = a->src[b], *wsrc = a->src[b] + w * WARP_SHIFT;

    nvshmemx_putmem_block(a->dst[PUT_BLOCK][b][0], src, bytes, target);
    nvshmemx_putmem_nbi_block(a->dst[PUT_NBI_BLOCK][b][0], src, bytes, target);
    nvshmemx_getmem_block(a->dst[GET_BLOCK][b][0], src, bytes, target);
    nvshmemx_getmem_nbi_block(a->dst[GET_NBI_BLOCK][b][0], src, bytes, target);
    nvshmemx_putmem_warp(a->dst[PUT_WARP][b][1 + w], wsrc, bytes, target);
    nvshmemx_putmem_nbi_warp(a->dst[PUT_NBI_WARP][b][1 + w], wsrc, bytes, target);
    nvshmemx_getmem_warp(a->dst[GET_WARP][b][1 + w], wsrc, bytes, target);
    nvshmemx_getmem_nbi_warp(a->dst[GET_NBI_WARP][b][1 + w], wsrc, bytes, target);
    nvshmem_quiet();
}

/* The typed and sized forms: T_ELEMS elements, an odd count, so that the engine
 * copies in words as wide as the element allows. Warp w's source starts
 * T_SHIFT * w bytes in, aligned for any element. */
#define T_ELEMS 19
#define T_MAX (T_ELEMS * 16) /* bytes, for the widest element (put128) */
#define T_GUARD 16
#define T_SHIFT 16
#define N_TYPED SHOAL_DEV_GROUP_ROUTINES_COUNT

typedef struct typed_area {
    alignas(16) unsigned char src[GRID][T_MAX + WARPS * T_SHIFT];
    /* per routine, as area_t's dst: [0] the block's, [1 + w] warp w's */
    alignas(16) unsigned char dst[N_TYPED][GRID][1 + WARPS][T_MAX + T_GUARD];
} typed_area_t;

__global__ void k_typed(typed_area_t *a, int target)
{
    int b = blockIdx.x, w = threadIdx.x / 32, i = 0;

    /* A put's dest and a get's source are on target; the other end is local. */
#define CALL(TYPE, SIZE, GET, WARP, ROUTINE)                                                \
    ROUTINE((TYPE *)a->dst[i][b][WARP ? 1 + w : 0],                                         \
            (const TYPE *)(a->src[b] + (WARP ? w * T_SHIFT : 0)), T_ELEMS, target);         \
    i++;
    SHOAL_DEV_GROUP_ROUTINES(CALL)
#undef CALL
    nvshmem_quiet();
}

/* The region at d against pe's pattern from offset shift: bytes of it, then
 * guard zero bytes (bytes 0: nothing may be written there); returns failures. */
static int check_region(const unsigned char *d, const char *name, int b, int slot, int pe,
                        size_t shift, size_t bytes, size_t guard)
{
    size_t j;

    for (j = 0; j < bytes + guard; j++) {
        int want = j < bytes ? pattern(pe, b, shift + j) : 0;

        if (d[j] != want) {
            fprintf(stderr, "FAIL PE %d %s: block %d, slot %d (0: the block's, 1 + w: warp w's), "
                    "%zu bytes: byte %zu is %d, expected %d\n",
                    shmem_my_pe(), name, b, slot, bytes, j, d[j], want);
            return 1;
        }
    }
    return 0;
}

/* Routine i of the generated list: for every block, its slots hold pe's data
 * (a warp form's slot 1 + w warp w's share of the source) and the others none. */
static int check_typed(const typed_area_t *a, int i, const char *name, size_t size, int warp,
                       int pe)
{
    int b, slot, failures = 0;

    for (b = 0; b < GRID; b++) {
        for (slot = 0; slot < 1 + WARPS; slot++) {
            int used = warp ? slot > 0 : slot == 0;
            size_t bytes = used ? T_ELEMS * size : 0;

            failures += check_region(a->dst[i][b][slot], name, b, slot, pe,
                                     warp && used ? (slot - 1) * T_SHIFT : 0, bytes,
                                     sizeof(a->dst[i][b][slot]) - bytes);
        }
    }
    return failures;
}

/* Every typed and sized form once: puts land on target (written by writer),
 * gets read target's source. */
static void test_typed(int me, int target, int writer)
{
    typed_area_t *a = (typed_area_t *)shmem_calloc(1, sizeof(typed_area_t));
    int b, i = 0;
    size_t j;

    for (b = 0; b < GRID; b++)
        for (j = 0; j < sizeof(a->src[b]); j++)
            a->src[b][j] = pattern(me, b, j);
    shmem_barrier_all(); /* every PE's source is written */
    GPU_LAUNCH(k_typed, GRID, BLOCK, a, target);
    GPU_CUDA(cudaGetLastError());
    GPU_CUDA(cudaDeviceSynchronize());
    shmem_barrier_all(); /* every PE's puts have landed */
#define CHECK(TYPE, SIZE, GET, WARP, ROUTINE)                                               \
    gpu_test_failures += check_typed(a, i++, #ROUTINE, SIZE, WARP, GET ? target : writer);
    SHOAL_DEV_GROUP_ROUTINES(CHECK)
#undef CHECK
    shmem_barrier_all(); /* no PE still reads this one's area */
    shmem_free(a);
}

int main(void)
{
    static const size_t sizes[] = {203, MAX_BYTES};
    int me, n_pes, right, target, writer, b, f, w, k;
    area_t *a;
    size_t j;

    shmem_init();
    gpu_test_start("gpu_group", 0);
    me = shmem_my_pe();
    n_pes = shmem_n_pes();
    right = (me + 1) % n_pes;
    a = (area_t *)shmem_calloc(1, sizeof(area_t));
    /* nvshmem_ptr is NULL for a heap out of the engine's reach (UCX only): then
     * each PE moves its own data, and its regions are written by itself. */
    target = nvshmem_ptr(a, right) != NULL ? right : me;
    writer = target == me ? me : (me + n_pes - 1) % n_pes;
    for (b = 0; b < GRID; b++)
        for (j = 0; j < sizeof(a->src[b]); j++)
            a->src[b][j] = pattern(me, b, j);
    for (k = 0; k < 2; k++) {
        memset(a->dst, 0, sizeof(a->dst));
        shmem_barrier_all(); /* every PE's regions are clear */
        GPU_LAUNCH(k_group, GRID, BLOCK, a, target, sizes[k]);
        GPU_CUDA(cudaGetLastError());
        GPU_CUDA(cudaDeviceSynchronize());
        shmem_barrier_all(); /* every PE's puts have landed */
        for (b = 0; b < GRID; b++) {
            for (f = 0; f < N_FORMS; f++) {
                int put = f == PUT_BLOCK || f == PUT_NBI_BLOCK || f == PUT_WARP ||
                          f == PUT_NBI_WARP;
                int pe = put ? writer : target;

                if (f < PUT_WARP) {
                    gpu_test_failures += check_region(a->dst[f][b][0], form_name[f], b, 0, pe, 0,
                                                      sizes[k], GUARD);
                    continue;
                }
                for (w = 0; w < WARPS; w++)
                    gpu_test_failures += check_region(a->dst[f][b][1 + w], form_name[f], b, 1 + w,
                                                      pe, w * WARP_SHIFT, sizes[k], GUARD);
            }
        }
    }
    test_typed(me, target, writer);
    if (me == 0)
        printf("gpu_group: %d routines, %d blocks of %d threads (%d warps), %zu and %zu bytes, on "
               "PE %d's heap; %d typed and sized forms, %d elements each\n",
               N_FORMS, GRID, BLOCK, WARPS, sizes[0], sizes[1], target, N_TYPED, T_ELEMS);
    return gpu_test_finish("gpu_group");
}
