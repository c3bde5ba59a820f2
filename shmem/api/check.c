/* The slow half of the argument checks: building the error line, and the per-
 * allocation bounds check that SHOAL_CHECK=1 turns on. */
#include "shoal_check.h"
#include "shoal_status.h"

void shoal_check_handle_fatal(uintptr_t handle, shoal_handle_state_t state, int is_team,
                              const char *routine, const char *arg)
{
    const char *kind = is_team ? "team" : "context";

    if (!is_team && handle == 0)
        shoal_log_fatal(
            "%s: argument ctx is SHMEM_CTX_INVALID; pass SHMEM_CTX_DEFAULT or a context "
            "that shmem_ctx_create or shmem_team_create_ctx made",
            routine);
    if (state == SHOAL_HANDLE_DESTROYED)
        shoal_log_fatal("%s: argument %s is %#lx, a %s that was destroyed (%s); a handle is "
                        "valid only until it is destroyed",
                        routine, arg, (unsigned long)handle, kind,
                        is_team ? "by shmem_team_destroy"
                                : "by shmem_ctx_destroy, or with its team by shmem_team_destroy");
    shoal_log_fatal("%s: argument %s is %#lx, which is not a %s that this PE made; expected %s",
                    routine, arg, (unsigned long)handle, kind,
                    is_team ? "SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED or a team from "
                              "shmem_team_split_strided or shmem_team_split_2d"
                            : "SHMEM_CTX_DEFAULT or a context from shmem_ctx_create or "
                              "shmem_team_create_ctx");
}

static void report_outside(const void *addr, const char *routine, const char *arg)
{
    const shoal_seg_t *h = shoal_core_seg(SHOAL_SEG_HEAP), *d = shoal_core_seg(SHOAL_SEG_DATA);

    shoal_log_fatal("%s: argument %s is %p, which is not symmetric memory (symmetric heap "
                    "%p..%p, global/static data %p..%p); allocate it with shmem_malloc or make "
                    "it a global or static variable",
                    routine, arg, addr, (void *)h->base, (void *)(h->base + h->size),
                    (void *)d->base, (void *)(d->base + d->size));
}

static void check_allocation(const void *addr, size_t off, size_t len, const char *routine,
                             const char *arg)
{
    size_t start, size;

    if (shoal_heap_lookup(shoal_core_heap(), off, &start, &size) != SHOAL_OK)
        shoal_log_fatal("%s: argument %s is %p, inside the symmetric heap but not inside any "
                        "live allocation (%s)",
                        routine, arg, addr,
                        shoal_heap_is_own(shoal_core_heap(), off)
                            ? "it is Shoal's own: the teams' counters, carved from the heap at "
                              "shmem_init"
                            : "freed, or never allocated");
    if (off + len > start + size)
        shoal_log_fatal("%s: argument %s is %p and %zu bytes long, which runs past the end of "
                        "its allocation (%zu bytes at %p) by %zu bytes",
                        routine, arg, addr, len, size,
                        (void *)(shoal_core_seg(SHOAL_SEG_HEAP)->base + start),
                        off + len - (start + size));
}

int shoal_check_symmetric(const void *addr, size_t len, const char *routine, const char *arg,
                          size_t *off_out)
{
    size_t off;
    int seg = shoal_segment_find(addr, &off);

    if (seg < 0)
        report_outside(addr, routine, arg);
    if (len > shoal_core_seg(seg)->size - off)
        shoal_log_fatal("%s: argument %s is %p and %zu bytes long, which runs past the end of the "
                        "%s (%zu bytes at %p) by %zu bytes",
                        routine, arg, addr, len, shoal_segment_names[seg],
                        shoal_core_seg(seg)->size, (void *)shoal_core_seg(seg)->base,
                        len - (shoal_core_seg(seg)->size - off));
    if (seg == SHOAL_SEG_HEAP && shoal_core_settings()->check)
        check_allocation(addr, off, len, routine, arg);
    *off_out = off;
    return seg;
}
