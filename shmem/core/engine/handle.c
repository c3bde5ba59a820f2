/* Handle tables (see shoal_handle.h). Entries live in fixed chunks that are never
 * moved or freed before cleanup, so a look-up needs no lock; a look-up racing with
 * the destroy of the same handle is the program's own bug and sees either state. */
#include "shoal_handle.h"
#include "shoal_status.h"

#include <stdlib.h>

static shoal_handle_entry_t *entry(const shoal_handles_t *t, uint32_t index)
{
    shoal_handle_entry_t *chunk;

    if (index >= SHOAL_HANDLE_CHUNK * SHOAL_HANDLE_CHUNKS)
        return NULL;
    chunk = __atomic_load_n(&t->chunk[index / SHOAL_HANDLE_CHUNK], __ATOMIC_ACQUIRE);
    return chunk == NULL ? NULL : &chunk[index % SHOAL_HANDLE_CHUNK];
}

static shoal_status_t take_entry(shoal_handles_t *t, uint32_t *index_out)
{
    uint32_t index = t->used;
    shoal_handle_entry_t *chunk;

    if (t->free_head != 0) {
        index = t->free_head - 1;
        t->free_head = entry(t, index)->next;
        *index_out = index;
        return SHOAL_OK;
    }
    if (index >= SHOAL_HANDLE_CHUNK * SHOAL_HANDLE_CHUNKS)
        return SHOAL_ERR_NO_RESOURCE;
    if (index % SHOAL_HANDLE_CHUNK == 0) {
        chunk = calloc(SHOAL_HANDLE_CHUNK, sizeof(*chunk));
        if (chunk == NULL)
            return SHOAL_ERR_NO_MEMORY;
        __atomic_store_n(&t->chunk[index / SHOAL_HANDLE_CHUNK], chunk, __ATOMIC_RELEASE);
    }
    entry(t, index)->gen = 1;
    t->used = index + 1;
    *index_out = index;
    return SHOAL_OK;
}

shoal_status_t shoal_handle_add(shoal_handles_t *t, void *obj, uintptr_t *h_out)
{
    shoal_handle_entry_t *e;
    uint32_t index;
    int status;

    pthread_mutex_lock(&t->lock);
    status = take_entry(t, &index);
    if (status == SHOAL_OK) {
        e = entry(t, index);
        __atomic_store_n(&e->obj, obj, __ATOMIC_RELEASE);
        *h_out = SHOAL_HANDLE_MAKE(t->tag, e->gen, index);
    }
    pthread_mutex_unlock(&t->lock);
    return status;
}

void shoal_handle_remove(shoal_handles_t *t, uintptr_t h)
{
    uint32_t index = (uint32_t)(h & 0xfffff);
    shoal_handle_entry_t *e;

    pthread_mutex_lock(&t->lock);
    e = entry(t, index);
    if (e != NULL && e->obj != NULL && SHOAL_HANDLE_MAKE(t->tag, e->gen, index) == h) {
        __atomic_store_n(&e->obj, NULL, __ATOMIC_RELEASE);
        /* generation 0 never occurs, so a wrapped counter cannot revive handle 0 */
        __atomic_store_n(&e->gen, (e->gen + 1) & 0xfffffff ? e->gen + 1 : 1, __ATOMIC_RELEASE);
        e->next = t->free_head;
        t->free_head = index + 1;
    }
    pthread_mutex_unlock(&t->lock);
}

void *shoal_handle_find(const shoal_handles_t *t, uintptr_t h, shoal_handle_state_t *state_out)
{
    uint32_t index = (uint32_t)(h & 0xfffff);
    const shoal_handle_entry_t *e;
    uint32_t gen;
    void *obj;

    *state_out = SHOAL_HANDLE_FOREIGN;
    if ((h >> 48) != t->tag || index >= __atomic_load_n(&t->used, __ATOMIC_ACQUIRE))
        return NULL;
    e = entry(t, index);
    obj = __atomic_load_n(&e->obj, __ATOMIC_ACQUIRE);
    if (obj != NULL &&
        SHOAL_HANDLE_MAKE(t->tag, __atomic_load_n(&e->gen, __ATOMIC_ACQUIRE), index) == h) {
        *state_out = SHOAL_HANDLE_LIVE;
        return obj;
    }
    /* an earlier generation of an entry that exists: this handle was destroyed */
    gen = (uint32_t)((h >> 20) & 0xfffffff);
    if (gen != 0 && gen < __atomic_load_n(&e->gen, __ATOMIC_ACQUIRE))
        *state_out = SHOAL_HANDLE_DESTROYED;
    return NULL;
}

void shoal_handle_each(shoal_handles_t *t, uint32_t first, void (*fn)(void *obj))
{
    uint32_t i;

    for (i = first; i < t->used; i++) {
        void *obj = entry(t, i)->obj;

        if (obj != NULL)
            fn(obj);
    }
}

void shoal_handle_cleanup(shoal_handles_t *t)
{
    int i;

    pthread_mutex_lock(&t->lock);
    for (i = 0; i < SHOAL_HANDLE_CHUNKS; i++) {
        free(t->chunk[i]);
        t->chunk[i] = NULL;
    }
    t->used = t->free_head = 0;
    pthread_mutex_unlock(&t->lock);
}
