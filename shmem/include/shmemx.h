/* shmemx.h - Shoal's extensions: shmemx_wtime, and the shmemx_ names Shoal gave
 * the routines OpenSHMEM 1.6 added before 1.6 was its contract. Those are
 * aliases: the same code as the shmem_ routines of shmem.h (new programs use
 * the shmem_ names). The typed and sized aliases, with their C11 names, are
 * generated into shmemx_typed.h (included at the end). */
#ifndef SHMEMX_H
#define SHMEMX_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sessions: shmem_ctx_session_start's option, configuration and mask bit. */
#define SHMEMX_CTX_SESSION_BATCH SHMEM_CTX_SESSION_BATCH
typedef shmem_ctx_session_config_t shmemx_ctx_session_config_t;
#define SHMEMX_CTX_SESSION_TOTAL_OPS SHMEM_CTX_SESSION_TOTAL_OPS

/* Aliases of shmem_signal_add and shmem_signal_set (and their ctx forms) */
void shmemx_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmemx_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmemx_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
void shmemx_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);

/* Aliases of shmem_pe_quiet and shmem_ctx_pe_quiet */
void shmemx_pe_quiet(const int *target_pes, size_t npes);
void shmemx_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);

/* Aliases of shmem_ctx_session_start and shmem_ctx_session_stop */
void shmemx_ctx_session_start(shmem_ctx_t ctx, long options,
                              const shmemx_ctx_session_config_t *config, long config_mask);
void shmemx_ctx_session_stop(shmem_ctx_t ctx);

/* Seconds on a monotonic clock, as a double (shmemx_wtime(3)) */
double shmemx_wtime(void);

#ifdef __cplusplus
}
#endif

/* C11: the shmemx_ signal names take both arities, as the shmem_ ones do. */
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define shmemx_signal_add(...) shmem_signal_add(__VA_ARGS__)
#define shmemx_signal_set(...) shmem_signal_set(__VA_ARGS__)
#endif

/* C++: the context forms as overloads of the same names. */
#ifdef __cplusplus
extern "C++" {
inline void shmemx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    shmemx_ctx_signal_add(ctx, sig_addr, signal, pe);
}
inline void shmemx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    shmemx_ctx_signal_set(ctx, sig_addr, signal, pe);
}
} /* extern "C++" */
#endif

#include "shmemx_typed.h"

#endif /* SHMEMX_H */
