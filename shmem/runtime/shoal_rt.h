/* The launcher runtime: who we are, the key/value exchange, abort. PMIx when a
 * server started us, a single PE otherwise. The only part of libshoal that
 * includes pmix.h (oshrun, shoal_info and tests/launcher do too). */
#ifndef SHOAL_RT_H
#define SHOAL_RT_H

#include <stddef.h>
#include "shoal_status.h"

/* local_size_out: how many of the PEs share this node. A call after the first
 * (the library initialised again after shmem_finalize) reuses the connection. */
shoal_status_t shoal_rt_init(int *rank_out, int *size_out, int *local_size_out);
/* Closes the connection to the launcher (PMIx_Finalize): at the end of the
 * process, not at shmem_finalize (see shoal_rt.c). */
void shoal_rt_close(void);
/* The ranks on this node (a malloc'ed array the caller frees), or an error when
 * the launcher does not say. */
shoal_status_t shoal_rt_local_peers(int **ranks_out, int *n_out);
int shoal_rt_is_singleton(void);

/* Publishes a blob under key; shoal_rt_exchange makes every PE's blob readable. */
shoal_status_t shoal_rt_publish(const char *key, const void *data, size_t len);
shoal_status_t shoal_rt_exchange(void);
/* Hands what this PE published since to the launcher, without a fence: a later
 * look-up by another PE then fetches it (a PE that published nothing is not
 * waited for, as a collecting fence would be; see shoal_stats_publish). */
shoal_status_t shoal_rt_commit(void);
/* The blob rank published under key: a malloc'ed copy the caller frees. */
shoal_status_t shoal_rt_lookup(int rank, const char *key, void **data_out, size_t *len_out);
/* A barrier of every PE through the launcher (slow; for start-up and finalize). It
 * collects data, so it is global under any PMIx server (see fence in shoal_rt.c). */
shoal_status_t shoal_rt_barrier(void);

/* Ends the whole job with status, telling the launcher message. Does not return. */
void shoal_rt_abort(int status, const char *message) __attribute__((noreturn));

#endif
