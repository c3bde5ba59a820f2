/* Handle tables: what a shmem_team_t or shmem_ctx_t value is. A handle names a
 * table entry and the entry's generation, so a destroyed, never-made or foreign
 * handle is recognised instead of dereferenced. Never hands out the value 0
 * (SHMEM_TEAM_INVALID, SHMEM_CTX_INVALID) nor anything that is a user address. */
#ifndef SHOAL_HANDLE_H
#define SHOAL_HANDLE_H

#include <pthread.h>
#include <stdint.h>
#include "shoal_status.h"

#define SHOAL_HANDLE_CHUNK 256   /* entries per chunk: chunks never move */
#define SHOAL_HANDLE_CHUNKS 4096 /* so at most 2^20 live handles of a kind */

/* A handle: tag in bits 48-63 (never a canonical user address), generation in
 * bits 20-47, entry index in bits 0-19. Every entry's first generation is 1. */
#define SHOAL_HANDLE_MAKE(tag, gen, index)                                                         \
    (((uintptr_t)(tag) << 48) | (((uintptr_t)(gen)&0xfffffff) << 20) | (uintptr_t)(index))

enum { SHOAL_HANDLE_TEAM_TAG = 0x7ea3, SHOAL_HANDLE_CTX_TAG = 0xc7c5 };

/* The predefined handles: the first entries of their tables, made at shmem_init. */
#define SHOAL_TEAM_WORLD_HANDLE SHOAL_HANDLE_MAKE(SHOAL_HANDLE_TEAM_TAG, 1, 0)
#define SHOAL_TEAM_SHARED_HANDLE SHOAL_HANDLE_MAKE(SHOAL_HANDLE_TEAM_TAG, 1, 1)
#define SHOAL_CTX_DEFAULT_HANDLE SHOAL_HANDLE_MAKE(SHOAL_HANDLE_CTX_TAG, 1, 0)

typedef struct shoal_handle_entry {
    void *obj;     /* NULL while free */
    uint32_t gen;  /* bumped when the entry is freed */
    uint32_t next; /* the next free entry + 1, while free */
} shoal_handle_entry_t;

typedef struct shoal_handles {
    uint16_t tag;
    pthread_mutex_t lock; /* for add and remove; look-ups take none */
    shoal_handle_entry_t *chunk[SHOAL_HANDLE_CHUNKS];
    uint32_t used;      /* entries handed out at least once */
    uint32_t free_head; /* a free entry + 1, or 0 */
} shoal_handles_t;

#define SHOAL_HANDLES_INIT(tag_)                                                                   \
    {                                                                                              \
        .tag = (tag_), .lock = PTHREAD_MUTEX_INITIALIZER                                           \
    }

/* What a look-up found: the object, or why there is none. */
typedef enum {
    SHOAL_HANDLE_LIVE,
    SHOAL_HANDLE_DESTROYED,
    SHOAL_HANDLE_FOREIGN
} shoal_handle_state_t;

/* A handle for obj in *h_out; SHOAL_ERR_NO_RESOURCE when the table is full. */
shoal_status_t shoal_handle_add(shoal_handles_t *t, void *obj, uintptr_t *h_out);
/* h stops being valid; its entry may be reused under a later generation. */
void shoal_handle_remove(shoal_handles_t *t, uintptr_t h);
/* The object h names, or NULL and the reason in *state_out. Cost: a few loads. */
void *shoal_handle_find(const shoal_handles_t *t, uintptr_t h, shoal_handle_state_t *state_out);
/* Calls fn on the object of every live entry from index first on; fn may remove
 * its handle. Not while other threads add or remove (shmem_finalize). */
void shoal_handle_each(shoal_handles_t *t, uint32_t first, void (*fn)(void *obj));
/* Frees the chunks; every handle of t is then foreign. */
void shoal_handle_cleanup(shoal_handles_t *t);

#endif
