/* Atomic memory operations: check, then the core. The typed wrappers in gen/ pass
 * the op, the operands by address and the element size (4 or 8 bytes). */
#include "shoal_api.h"
#include "shoal_check.h"

void shoal_api_amo_checked(shmem_ctx_t ctx, shoal_amo_op_t op, void *dest, const void *operand,
                           const void *compare, void *fetch, size_t elem_size, int pe, int nbi,
                           const char *routine)
{
    const char *arg = op == SHOAL_AMO_FETCH ? "source" : "dest";
    const shoal_gpu_hooks_t *g;
    shoal_ctx_t *c;
    size_t off;
    int seg;

    shoal_check_init(routine);
    c = shoal_check_ctx_pe(ctx, &pe, routine);
    g = shoal_api_gheap(dest);
    if (g != NULL) { /* a GPU-heap word: the GPU that owns it does the atomic */
        shoal_check_aligned(dest, elem_size, routine, arg);
        g->gheap_amo(op, dest, operand, compare, fetch, elem_size, pe, routine);
        return;
    }
    seg = shoal_check_symmetric(dest, elem_size, routine, arg, &off);
    shoal_check_aligned(dest, elem_size, routine, arg);
    shoal_core_amo_program(c, pe, seg, off, op, elem_size, operand, compare, fetch, nbi, routine);
}
