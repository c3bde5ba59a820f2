/* Point-to-point synchronisation: wait_until and test in all their forms, and the
 * signal routines. The checks here, the loops in core/engine/wait.c, the tests
 * themselves in util/shoal_wait.h (shared with the GPU). */
#include "shoal_api.h"
#include "shoal_check.h"
#include "shoal_profile.h"

#include <stdint.h>
#include <stdlib.h>

_Static_assert(SHMEM_CMP_EQ == SHOAL_CMP_EQ && SHMEM_CMP_NE == SHOAL_CMP_NE &&
                   SHMEM_CMP_GT == SHOAL_CMP_GT && SHMEM_CMP_LE == SHOAL_CMP_LE &&
                   SHMEM_CMP_LT == SHOAL_CMP_LT && SHMEM_CMP_GE == SHOAL_CMP_GE,
               "the wait core's operators must be the API's");

static void check_cmp(int cmp, const char *routine)
{
    if (!shoal_wait_cmp_valid(cmp))
        shoal_log_fatal("%s: argument cmp is %d, expected one of SHMEM_CMP_EQ, SHMEM_CMP_NE, "
                        "SHMEM_CMP_GT, SHMEM_CMP_LE, SHMEM_CMP_LT, SHMEM_CMP_GE",
                        routine, cmp);
}

/* The arrays a multi-element wait or test reads beside its ivars (nelems > 0). */
static void check_sync_arrays(shoal_sel_t sel, const size_t *indices, int vector,
                              const void *values, size_t nelems, const char *routine)
{
    if (sel == SHOAL_SEL_SOME && indices == NULL)
        shoal_log_fatal("%s: argument indices is NULL, expected an array of nelems (%zu) size_t",
                        routine, nelems);
    if (vector && values == NULL)
        shoal_log_fatal("%s: argument cmp_values is NULL, expected nelems (%zu) values", routine,
                        nelems);
}

size_t shoal_api_sync(void *ivars, size_t nelems, const int *status, size_t *indices, int cmp,
                      const void *values, int vector, size_t elem_size, int is_signed,
                      shoal_sel_t sel, int block, const char *routine)
{
    shoal_wait_set_t set = {
        .ivars = ivars,
        .nelems = nelems,
        .elem_size = elem_size,
        .is_signed = is_signed,
        .status = status,
        .cmp = cmp,
        .values = values,
        .vector = vector,
    };
    size_t off;

    const shoal_gpu_hooks_t *g = nelems > 0 ? shoal_api_gheap(ivars) : NULL;

    shoal_check_init(routine);
    check_cmp(cmp, routine);
    if (g != NULL) { /* this PE's GPU heap: the GPU library polls it with copies */
        (void)shoal_check_bytes(nelems, elem_size, routine);
        shoal_check_aligned(ivars, elem_size, routine, sel == SHOAL_SEL_ONE ? "ivar" : "ivars");
        check_sync_arrays(sel, indices, vector, values, nelems, routine);
        return g->gheap_sync(&set, sel, block, indices, routine);
    }
    if (nelems > 0) {
        /* Others update the ivars remotely: they must be symmetric, and aligned, as
         * the atomic loads of the wait need. */
        shoal_check_symmetric(ivars, shoal_check_bytes(nelems, elem_size, routine), routine,
                              sel == SHOAL_SEL_ONE ? "ivar" : "ivars", &off);
        shoal_check_aligned(ivars, elem_size, routine, sel == SHOAL_SEL_ONE ? "ivar" : "ivars");
        check_sync_arrays(sel, indices, vector, values, nelems, routine);
    }
    return shoal_core_sync(&set, sel, block, indices, routine);
}

static int check_sig_addr(const uint64_t *sig_addr, const char *routine, size_t *off)
{
    int seg = shoal_check_symmetric(sig_addr, sizeof(*sig_addr), routine, "sig_addr", off);

    shoal_check_aligned(sig_addr, sizeof(*sig_addr), routine, "sig_addr");
    return seg;
}

/* A put-with-signal with its data, its source or its signal in the GPU heap:
 * the data first, complete at pe (the GPU library's copies complete before they
 * return; a host-heap put, its source staged through host memory where it is
 * GPU memory, is quieted), then the signal, one atomic (on a GPU-heap word, by
 * the GPU that owns it). */
static void put_signal_gheap(shmem_ctx_t ctx, shoal_ctx_t *c, void *dest, const void *source,
                             size_t bytes, uint64_t *sig_addr, uint64_t signal, int add, int pe,
                             const char *routine)
{
    const shoal_gpu_hooks_t *gd = bytes > 0 ? shoal_api_gheap(dest) : NULL,
                            *gs = shoal_api_gheap(sig_addr);
    shoal_amo_op_t op = add ? SHOAL_AMO_ADD : SHOAL_AMO_SET;
    size_t off;
    int seg;

    shoal_check_local(source, bytes, routine, "source");
    if (gd != NULL) {
        gd->gheap_rma(1, dest, source, bytes, pe, routine);
    } else if (bytes > 0) {
        const shoal_gpu_hooks_t *gl = shoal_api_gheap(source);
        void *tmp = NULL;

        seg = shoal_check_symmetric(dest, bytes, routine, "dest", &off);
        if (gl != NULL) { /* a GPU-heap source: staged through host memory */
            tmp = malloc(bytes);
            if (tmp == NULL)
                shoal_log_fatal("%s: out of memory for a host copy of %zu bytes of GPU-heap "
                                "source",
                                routine, bytes);
            gl->gheap_rma(0, tmp, source, bytes, shoal_core_my_pe(), routine);
        }
        shoal_core_put(c, pe, seg, off, tmp != NULL ? tmp : source, bytes, 0, routine);
        free(tmp);
        shmem_ctx_quiet(ctx);
    }
    if (gs != NULL) {
        shoal_check_aligned(sig_addr, sizeof(*sig_addr), routine, "sig_addr");
        gs->gheap_amo(op, sig_addr, &signal, NULL, NULL, sizeof(*sig_addr), pe, routine);
    } else {
        seg = check_sig_addr(sig_addr, routine, &off);
        shoal_core_amo(c, pe, seg, off, op, sizeof(*sig_addr), &signal, NULL, NULL, 0, routine);
    }
}

void shoal_api_put_signal_checked(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                  size_t elem_size, uint64_t *sig_addr, uint64_t signal, int sig_op,
                                  int pe, int nbi, const char *routine)
{
    size_t bytes = shoal_check_bytes(nelems, elem_size, routine), off = 0, sig_off;
    int seg = 0, sig_seg;
    shoal_ctx_t *c;

    shoal_check_init(routine);
    c = shoal_check_ctx_pe(ctx, &pe, routine);
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        shoal_log_fatal("%s: argument sig_op is %d, expected SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD",
                        routine, sig_op);
    if ((bytes > 0 && (shoal_api_gheap(dest) != NULL || shoal_api_gheap(source) != NULL)) ||
        shoal_api_gheap(sig_addr) != NULL) {
        put_signal_gheap(ctx, c, dest, source, bytes, sig_addr, signal, sig_op == SHMEM_SIGNAL_ADD,
                         pe, routine);
        return;
    }
    if (bytes > 0)
        seg = shoal_check_symmetric(dest, bytes, routine, "dest", &off);
    shoal_check_local(source, bytes, routine, "source");
    sig_seg = check_sig_addr(sig_addr, routine, &sig_off);
    shoal_core_put_signal(c, pe, seg, off, source, bytes, sig_seg, sig_off, signal,
                          sig_op == SHMEM_SIGNAL_ADD, nbi, routine);
}

uint64_t pshmem_signal_fetch(const uint64_t *sig_addr)
{
    size_t off;

    const shoal_gpu_hooks_t *g = shoal_api_gheap(sig_addr);
    uint64_t v;

    shoal_check_init("shmem_signal_fetch");
    if (g != NULL) { /* this PE's GPU-heap word, read by its GPU */
        shoal_check_aligned(sig_addr, sizeof(*sig_addr), "shmem_signal_fetch", "sig_addr");
        g->gheap_amo(SHOAL_AMO_FETCH, (uint64_t *)sig_addr, NULL, NULL, &v, sizeof(v),
                     shoal_core_my_pe(), "shmem_signal_fetch");
        return v;
    }
    check_sig_addr(sig_addr, "shmem_signal_fetch", &off);
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}
SHOAL_PROFILED(shmem_signal_fetch);

uint64_t pshmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    size_t off;

    if (shoal_api_gheap(sig_addr) != NULL) { /* the wait, then the value: both the GPU's */
        shoal_api_sync(sig_addr, 1, NULL, NULL, cmp, &cmp_value, 0, sizeof(*sig_addr), 0,
                       SHOAL_SEL_ONE, 1, "shmem_signal_wait_until");
        return pshmem_signal_fetch(sig_addr);
    }
    shoal_check_init("shmem_signal_wait_until");
    check_sig_addr(sig_addr, "shmem_signal_wait_until", &off);
    shoal_api_sync(sig_addr, 1, NULL, NULL, cmp, &cmp_value, 0, sizeof(*sig_addr), 0, SHOAL_SEL_ONE,
                   1, "shmem_signal_wait_until");
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}
SHOAL_PROFILED(shmem_signal_wait_until);

/* shmem_signal_add and _set: the signal update of a put-with-signal, alone. On
 * the direct path one CPU atomic (the AMO fast path), else checked and through the
 * core's AMO path, so that the update is atomic with every other signal update
 * and wait of the job. */
static void signal_update(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int add, int pe,
                          const char *routine)
{
    shoal_amo_op_t op = add ? SHOAL_AMO_ADD : SHOAL_AMO_SET;
    const shoal_gpu_hooks_t *g;
    shoal_ctx_t *c;
    size_t off;
    int seg;

    if (__builtin_expect(shoal_core_try_amo((uintptr_t)ctx, op, sig_addr, &signal, NULL, NULL,
                                            sizeof(*sig_addr), pe),
                         1))
        return;
    shoal_check_init(routine);
    c = shoal_check_ctx_pe(ctx, &pe, routine);
    g = shoal_api_gheap(sig_addr);
    if (g != NULL) { /* a GPU-heap word: the GPU that owns it does the atomic */
        shoal_check_aligned(sig_addr, sizeof(*sig_addr), routine, "sig_addr");
        g->gheap_amo(op, sig_addr, &signal, NULL, NULL, sizeof(*sig_addr), pe, routine);
        return;
    }
    seg = check_sig_addr(sig_addr, routine, &off);
    shoal_core_amo(c, pe, seg, off, op, sizeof(*sig_addr), &signal, NULL, NULL, 0, routine);
}

void pshmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_update(SHMEM_CTX_DEFAULT, sig_addr, signal, 1, pe, "shmem_signal_add");
}
SHOAL_PROFILED(shmem_signal_add);
SHOAL_PROFILED_ALIAS(shmemx_signal_add, shmem_signal_add);

void pshmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_update(ctx, sig_addr, signal, 1, pe, "shmem_ctx_signal_add");
}
SHOAL_PROFILED(shmem_ctx_signal_add);
SHOAL_PROFILED_ALIAS(shmemx_ctx_signal_add, shmem_ctx_signal_add);

void pshmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_update(SHMEM_CTX_DEFAULT, sig_addr, signal, 0, pe, "shmem_signal_set");
}
SHOAL_PROFILED(shmem_signal_set);
SHOAL_PROFILED_ALIAS(shmemx_signal_set, shmem_signal_set);

void pshmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_update(ctx, sig_addr, signal, 0, pe, "shmem_ctx_signal_set");
}
SHOAL_PROFILED(shmem_ctx_signal_set);
SHOAL_PROFILED_ALIAS(shmemx_ctx_signal_set, shmem_ctx_signal_set);
