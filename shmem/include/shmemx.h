/* shmemx.h - Shoal's extensions beyond OpenSHMEM 1.5: the routines the newest
 * specification text adds, as shmemx_ names (they become shmem_ names when 1.6 is
 * Shoal's contract), and shmemx_wtime. The typed and sized ones, with their C11
 * macros, are generated into shmemx_typed.h (included at the end). */
#ifndef SHMEMX_H
#define SHMEMX_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Session options (shmemx_ctx_session_start): hints, which Shoal may ignore. */
#define SHMEMX_CTX_SESSION_BATCH (1L << 0)

/* Session configuration, and the config_mask bit that says total_ops is set. */
typedef struct {
    size_t total_ops; /* expected RMA calls in the session; default SIZE_MAX */
} shmemx_ctx_session_config_t;
#define SHMEMX_CTX_SESSION_TOTAL_OPS (1L << 0)

/* Signals: update a signal object without a put (shmemx_signal_add(3)) */
void shmemx_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmemx_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmemx_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
void shmemx_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);

/* Completion of the operations to some PEs only (shmemx_pe_quiet(3)) */
void shmemx_pe_quiet(const int *target_pes, size_t npes);
void shmemx_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);

/* Communication sessions (shmemx_ctx_session_start(3)) */
void shmemx_ctx_session_start(shmem_ctx_t ctx, long options,
                              const shmemx_ctx_session_config_t *config, long config_mask);
void shmemx_ctx_session_stop(shmem_ctx_t ctx);

/* Seconds on a monotonic clock, as a double (shmemx_wtime(3)) */
double shmemx_wtime(void);

#ifdef __cplusplus
}
#endif

/* C11: shmemx_signal_add(ctx, sig_addr, signal, pe) is the context form, as the
 * spec's C11 synopsis has it; with three arguments it is the default-context one. */
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SHOAL_SIGNAL_PICK(_1, _2, _3, _4, name, ...) name
#define shmemx_signal_add(...)                                                                     \
    SHOAL_SIGNAL_PICK(__VA_ARGS__, shmemx_ctx_signal_add, (shmemx_signal_add), _, _, _)            \
    (__VA_ARGS__)
#define shmemx_signal_set(...)                                                                     \
    SHOAL_SIGNAL_PICK(__VA_ARGS__, shmemx_ctx_signal_set, (shmemx_signal_set), _, _, _)            \
    (__VA_ARGS__)
#endif

#include "shmemx_typed.h"

#endif /* SHMEMX_H */
