/* Sessions (session.c): a SHMEM_CTX_SESSION_BATCH session holds its context's
 * non-fetching AMOs to peers reached through a transport of one message per
 * operation, one combined value per target word, and sends them at the
 * context's fence and quiet, at the session's or context's end, and when its
 * thread waits. */
#ifndef SHOAL_SESSION_H
#define SHOAL_SESSION_H

#include "shoal_core.h"

/* Starts (or widens: total_ops words expected, 0 for a default) a batch session
 * on ctx, owned by the calling thread. */
shoal_status_t shoal_session_start(shoal_ctx_t *ctx, long total_ops);
/* Sends what ctx's session holds and ends it (nothing where none runs).
 * routine: the user's call that sends, named if a held AMO fails to go. */
void shoal_session_stop(shoal_ctx_t *ctx, const char *routine);
/* Sends what ctx's session holds, where the calling thread owns it. */
void shoal_session_send(shoal_ctx_t *ctx, const char *routine);
/* Sends what every session of the calling thread holds (before a wait: a
 * failure names the routine that started the session). */
void shoal_session_send_mine(void);
/* Holds a non-fetching AMO to world PE pe of ctx's session: 1 where it did (the
 * operator, the size and the thread allow), 0 where the caller must send it. */
int shoal_session_hold(shoal_ctx_t *ctx, int pe, int seg, size_t off, shoal_amo_op_t op,
                       size_t size, const void *operand, const char *routine);

#endif
