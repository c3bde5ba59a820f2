/* Slots: the regions of the staging area and the slots of the exchange area
 * (shoal_coll_impl.h). In an exchange every member of a group pushes into its
 * slot of every other member and takes every other's from its own area, and
 * slots alternate so that no push needs an answer; a region push is
 * acknowledged (coll_bcast.c). A push is one put: the data, then a trailer of its number
 * and a hash of both, so the receiver needs no token. Where the receiver is
 * mapped, the pusher copies the data and the hash, then stores the number with
 * release order, and the receiver's acquire load of the number sees the data.
 * Through UCX the put lands in whatever order the transport writes it (TCP
 * copies it in the receiver's progress, perhaps in its progress thread; a NIC
 * writes it by DMA), so the receiver waits until the number is the one it
 * expects and the hash matches what it reads: a read torn between an older
 * push and this one fails the hash (1 in 2^64 per torn read to be fooled),
 * and it reads again. Over TCP between simulated nodes each UCX operation
 * costs its sender a sendto of about 7 us: a push with a token took two. */
#include "shoal_coll_impl.h"

typedef struct xchg_trailer {
    uint64_t number; /* the exchange's number + 1 (0: never written) */
    uint64_t hash;
} xchg_trailer_t;
_Static_assert(sizeof(xchg_trailer_t) == SHOAL_SLOT_TRAILER,
               "the trailer shoal_coll_impl.h counts");
_Static_assert(SHOAL_XCHG_BYTES == SHOAL_STAGE_AREA,
               "an exchange slot is at least a region slot's size: the small reductions, which "
               "regions_fit admits, always fit an exchange");

static size_t data_room(size_t bytes)
{
    return (bytes + 7) & ~(size_t)7;
}

static uint64_t mix(uint64_t h, uint64_t w)
{
    h ^= w * 0x9e3779b97f4a7c15ull;
    h = (h << 31) | (h >> 33);
    return h * 0xc2b2ae3d27d4eb4full;
}

/* Over the data's 8-byte words (the room past bytes is zero) and the number. */
static uint64_t xchg_hash(const char *data, size_t room, uint64_t number)
{
    uint64_t h = mix(0x27d4eb2f165667c5ull, number), w;
    size_t i;

    for (i = 0; i < room; i += 8) {
        memcpy(&w, data + i, 8);
        h = mix(h, w);
    }
    return h ^ (h >> 29);
}

void shoal_coll_slot_put(const shoal_pset_t *ps, int t, size_t off, const void *src, size_t bytes,
                         uint64_t number, const char *routine)
{
    _Alignas(64) char msg[SHOAL_SLOT_MAX];
    size_t room = data_room(bytes);
    xchg_trailer_t tr = {number, 0};
    int pe = shoal_pset_pe(ps, t);
    char *mapped = shoal_core_direct(shoal_coll_local(ps->sync_seg, off), room + sizeof(tr), pe);
    char *at = mapped != NULL ? mapped : msg;

    memcpy(at, src, bytes);
    memset(at + bytes, 0, room - bytes);
    tr.hash = xchg_hash(at, room, number);
    if (mapped != NULL) {
        xchg_trailer_t *m = (xchg_trailer_t *)(mapped + room);

        __atomic_store_n(&m->hash, tr.hash, __ATOMIC_RELAXED);
        __atomic_store_n(&m->number, number, __ATOMIC_RELEASE);
        return;
    }
    memcpy(msg + room, &tr, sizeof(tr));
    /* Blocking, of at most SHOAL_SLOT_MAX: UCX sends it from a copy, so it
     * does not wait for the other node. Untracked: the receiver's wait completes
     * it, so the program's next quiet need not. */
    shoal_core_untracked(1);
    shoal_core_put(&shoal_ctx_default, pe, ps->sync_seg, off, msg, room + sizeof(tr), 0, routine);
    shoal_core_untracked(0);
}

unsigned shoal_coll_xchg_push(const shoal_pset_t *ps, const void *src, size_t stride, size_t bytes,
                              const int *to, int nto, const char *routine)
{
    unsigned turn = (*ps->exchanges)++;
    size_t slot = shoal_coll_xchg_off(ps, ps->me, turn);
    int n = to != NULL ? nto : ps->size - 1, k;

    for (k = 0; k < n; k++) {
        int t = to != NULL ? to[k] : k < ps->me ? k : k + 1;

        shoal_coll_slot_put(ps, t, slot, (const char *)src + (size_t)t * stride, bytes,
                            (uint64_t)turn + 1, routine);
    }
    return turn;
}

typedef struct xchg_wait {
    const char *slot;
    size_t room;
    uint64_t number;
} xchg_wait_t;

static uint64_t xchg_ready(void *arg)
{
    const xchg_wait_t *w = arg;
    const xchg_trailer_t *tr = (const xchg_trailer_t *)(w->slot + w->room);

    if (__atomic_load_n(&tr->number, __ATOMIC_ACQUIRE) != w->number)
        return 0;
    return __atomic_load_n(&tr->hash, __ATOMIC_RELAXED) == xchg_hash(w->slot, w->room, w->number);
}

void shoal_coll_slot_take(const shoal_pset_t *ps, int from, size_t off, void *dst, size_t bytes,
                          uint64_t number, const char *routine)
{
    xchg_wait_t w = {shoal_coll_local(ps->sync_seg, off), data_room(bytes), number};
    shoal_coll_ready_t ready = {xchg_ready, &w};

    shoal_coll_wait(ps, from, &ready, NULL, routine);
    memcpy(dst, w.slot, bytes);
}

void shoal_coll_xchg_take(const shoal_pset_t *ps, int from, unsigned turn, void *dst, size_t bytes,
                          const char *routine)
{
    shoal_coll_slot_take(ps, from, shoal_coll_xchg_off(ps, from, turn), dst, bytes,
                         (uint64_t)turn + 1, routine);
}

void shoal_coll_slots_clear(const shoal_pset_t *ps)
{
    if (shoal_core_state.one_node)
        return; /* no regions, no exchanges; the slot has no room for them (team.c) */
    memset(shoal_coll_local(ps->sync_seg, shoal_coll_region_off(ps, 0)), 0,
           SHOAL_STAGE_AREA + SHOAL_XCHG_BYTES);
}
