/* Sessions (shmem_ctx_session_start with SHMEM_CTX_SESSION_BATCH): the
 * non-fetching AMOs a context sends through a transport of one message per
 * operation are combined per target word and sent later, one AMO per word.
 * The specification lets a batch "buffer, combine and/or coalesce" what it
 * issues, and changes no completion or ordering rule: what is held goes out at
 * the context's fence and quiet, at the end of the session or the context, and
 * whenever the thread that holds it waits (shoal_core_progress), so that a PE
 * never waits on an answer to an AMO it still holds.
 *
 * A session belongs to the thread that started it: only that thread combines
 * into it and sends from it, so it needs no lock; another thread's AMOs on the
 * same context go out at once. */
#include "shoal_core.h"
#include "shoal_atomic.h"
#include "shoal_session.h"

#include <stdlib.h>
#include <string.h>

#define SESSION_SLOTS_MIN 4096   /* 96 KiB: 2048 words before a table sends all */
#define SESSION_SLOTS_MAX 131072 /* 3 MiB */

typedef struct held {
    size_t off;
    uint64_t value;
    int pe; /* -1: free */
    uint8_t seg;
    uint8_t size;
    uint8_t op;
} held_t;

struct shoal_session {
    shoal_ctx_t *ctx;
    held_t *slot;               /* open addressing, slots a power of two */
    size_t slots;               /* capacity */
    size_t used;                /* words held */
    struct shoal_session *next; /* this thread's other sessions that hold words */
    int listed;
    const char *owner; /* the thread_tag of the thread that started it */
};

/* This thread's sessions that hold words (shoal_core_progress sends them). */
static __thread shoal_session_t *held_list;
/* Whose session it is: the address of a thread's own variable. */
static __thread char thread_tag;

static size_t slots_for(long total_ops)
{
    size_t want = total_ops > 0 ? (size_t)total_ops * 2 : SESSION_SLOTS_MIN, n = SESSION_SLOTS_MIN;

    while (n < want && n < SESSION_SLOTS_MAX)
        n <<= 1;
    return n;
}

shoal_status_t shoal_session_start(shoal_ctx_t *ctx, long total_ops)
{
    shoal_session_t *s = ctx->session;
    size_t i, slots = slots_for(total_ops);

    if (s != NULL && s->owner == &thread_tag && s->slots >= slots)
        return SHOAL_OK;
    if (s != NULL)
        shoal_session_stop(ctx, "shmem_ctx_session_start");
    s = calloc(1, sizeof(*s));
    if (s == NULL || (s->slot = malloc(slots * sizeof(held_t))) == NULL) {
        free(s);
        return SHOAL_ERR_NO_MEMORY;
    }
    for (i = 0; i < slots; i++)
        s->slot[i].pe = -1;
    s->slots = slots;
    s->ctx = ctx;
    s->owner = &thread_tag;
    ctx->session = s;
    return SHOAL_OK;
}

static void unlist(shoal_session_t *s)
{
    shoal_session_t **p;

    for (p = &held_list; *p != NULL; p = &(*p)->next) {
        if (*p == s) {
            *p = s->next;
            break;
        }
    }
    s->listed = 0;
    s->next = NULL;
}

/* Sends every word held, as one non-blocking AMO each; the context's quiet
 * completes them. */
static void send_held(shoal_session_t *s, const char *routine)
{
    size_t i;

    for (i = 0; i < s->slots && s->used > 0; i++) {
        held_t *h = &s->slot[i];
        const shoal_transport_ops_t *ops;
        void *st;
        int status;
        uint32_t v32;

        if (h->pe < 0)
            continue;
        v32 = (uint32_t)h->value;
        ops = shoal_core_path(s->ctx, h->pe, 1, &st);
        status =
            ops->amo(st, h->seg, h->off, (shoal_amo_op_t)h->op, (size_t)h->size,
                     h->size == 4 ? (const void *)&v32 : (const void *)&h->value, NULL, NULL, 1);
        if (status != SHOAL_OK)
            shoal_peer_fail(routine, h->pe, "an atomic operation its session held", status);
        h->pe = -1;
        s->used--;
    }
    if (s->listed)
        unlist(s);
}

void shoal_session_send(shoal_ctx_t *ctx, const char *routine)
{
    shoal_session_t *s = ctx->session;

    if (s != NULL && s->used > 0 && s->owner == &thread_tag)
        send_held(s, routine);
}

void shoal_session_send_mine(void)
{
    while (held_list != NULL)
        send_held(held_list, "shmem_ctx_session_start");
}

void shoal_session_stop(shoal_ctx_t *ctx, const char *routine)
{
    shoal_session_t *s = ctx->session;

    if (s == NULL)
        return;
    if (s->used > 0)
        send_held(s, routine); /* the context's own thread, or one ending the context */
    if (s->listed)
        unlist(s);
    ctx->session = NULL;
    free(s->slot);
    free(s);
}

static size_t hash(int pe, int seg, size_t off)
{
    uint64_t k = ((uint64_t)off << 1 | (uint64_t)seg) * 0x9e3779b97f4a7c15ULL ^ (uint64_t)pe;

    return (size_t)(k ^ (k >> 29));
}

int shoal_session_hold(shoal_ctx_t *ctx, int pe, int seg, size_t off, shoal_amo_op_t op,
                       size_t size, const void *operand, const char *routine)
{
    shoal_session_t *s = ctx->session;
    uint64_t x = 0;
    size_t i, mask;

    if (s->owner != &thread_tag || (size != 4 && size != 8) ||
        (op != SHOAL_AMO_ADD && op != SHOAL_AMO_AND && op != SHOAL_AMO_OR && op != SHOAL_AMO_XOR &&
         op != SHOAL_AMO_SET))
        return 0;
    if (size == 4) {
        uint32_t v32;

        memcpy(&v32, operand, 4);
        x = v32;
    } else {
        memcpy(&x, operand, 8);
    }
    if (s->used >= s->slots / 2)
        send_held(s, routine);
    mask = s->slots - 1;
    for (i = hash(pe, seg, off) & mask;; i = (i + 1) & mask) {
        held_t *h = &s->slot[i];

        if (h->pe < 0) {
            *h = (held_t){.off = off,
                          .value = x,
                          .pe = pe,
                          .seg = (uint8_t)seg,
                          .size = (uint8_t)size,
                          .op = (uint8_t)op};
            s->used++;
            break;
        }
        if (h->pe == pe && h->seg == seg && h->off == off) {
            if (h->op != op || h->size != size) {
                /* Another kind of update of that word: what was held goes first. */
                send_held(s, routine);
                return shoal_session_hold(ctx, pe, seg, off, op, size, operand, routine);
            }
            h->value = shoal_amo_value((shoal_amo_op_t)h->op, h->size, h->value, x, 0);
            break;
        }
    }
    if (!s->listed) {
        s->listed = 1;
        s->next = held_list;
        held_list = s;
    }
    return 1;
}
