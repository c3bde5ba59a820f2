/* The symmetric segments: the program's global/static data (made shared in place)
 * and the heap, each in a file that same-node peers map; with SHOAL_TRANSPORT=ucx,
 * in memory UCX allocates instead. Peers: peer.c; what each PE publishes: wireup.c. */
#include "shoal_core.h"
#include "shoal_status.h"

#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct data_range {
    uintptr_t start, end, relro_end;
} data_range_t;

static int find_main_data(struct dl_phdr_info *info, size_t size, void *arg)
{
    data_range_t *r = arg;
    int i;

    (void)size;
    for (i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;

        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && r->start == 0) {
            r->start = start;
            r->end = start + ph->p_memsz;
        } else if (ph->p_type == PT_GNU_RELRO) {
            r->relro_end = start + ph->p_memsz;
        }
    }
    return 1; /* the first object is the program itself */
}

shoal_status_t shoal_segment_data_setup(shoal_seg_t *seg_out)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start;
    data_range_t r = {0};
    int status, fd;

    /* Initialised again after shmem_finalize: the segment is shared already
     * (it stays so, with its file, for the program's variables). */
    if (seg_out->base != NULL && seg_out->fd >= 0)
        return SHOAL_OK;
    dl_iterate_phdr(find_main_data, &r);
    if (r.start == 0) {
        shoal_log_warn("the program has no writable data segment: only the heap is symmetric");
        *seg_out = (shoal_seg_t){.fd = -1};
        return SHOAL_OK;
    }
    /* Skip the part made read-only after relocation; the linker page-aligns its end. */
    start = r.relro_end > r.start && r.relro_end < r.end ? r.relro_end : r.start;
    start &= ~(page - 1);
    r.end = (r.end + page - 1) & ~(page - 1);
    status = shoal_core_local->seg_share("shoal-data", (void *)start, r.end - start, &fd);
    if (status != SHOAL_OK)
        return status;
    *seg_out = (shoal_seg_t){.base = (char *)start, .size = r.end - start, .fd = fd};
    return SHOAL_OK;
}

/* With SHOAL_TRANSPORT=ucx: moves the global/static data into memory that UCX
 * allocates at the same address, as it does the heap, so that same-node peers
 * map it through ucp_rkey_ptr and the direct path reaches it (else every access
 * to it is a UCX message the target must progress). The allocation replaces the
 * pages; the data comes back from the shared-memory file that held them, which
 * also puts the old mapping back where UCX fails. It runs before PMIx starts
 * its threads. shoal_segment_data_from_net undoes it at shmem_finalize, since
 * the program goes on using its data (and at shmem_init in a job of one PE). Only locals are used
 * while the pages are replaced: in a static link, shoal_core_state itself is among them. */
static int data_in_net;

/* Whether the network component allocates the segments: it is up, and init let
 * it (net_may_allocate). */
static int net_allocates(void)
{
    return shoal_core_state.net != NULL && shoal_core_state.net_may_allocate;
}

static void data_map_file(char *base, size_t size, int fd)
{
    if (mmap(base, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
        shoal_log_fatal("cannot map the global/static data back at %p (%zu bytes): %m",
                        (void *)base, size);
}

void shoal_segment_data_to_net(void)
{
    char *base = shoal_core_state.seg[SHOAL_SEG_DATA].base;
    size_t size = shoal_core_state.seg[SHOAL_SEG_DATA].size;
    int fd = shoal_core_state.seg[SHOAL_SEG_DATA].fd;
    shoal_transport_t *net = shoal_core_state.net;

    if (size == 0 || fd < 0 || !net_allocates())
        return;
    if (shoal_core_net->mem_alloc(net, SHOAL_SEG_DATA, base, size) != SHOAL_OK) {
        data_map_file(base, size, fd);
        shoal_log_debug("UCX cannot allocate the global/static data; it stays in Shoal's mapping");
        return;
    }
    if (shoal_core_local->seg_copy(fd, base, size, 0) != SHOAL_OK)
        shoal_log_fatal("shmem_init: cannot copy the global/static data into UCX's memory: %m");
    data_in_net = 1;
    shoal_log_debug("global/static data (%zu bytes at %p) now in memory UCX allocated", size,
                    (void *)base);
}

void shoal_segment_data_from_net(void)
{
    char *base = shoal_core_state.seg[SHOAL_SEG_DATA].base;
    size_t size = shoal_core_state.seg[SHOAL_SEG_DATA].size;
    int fd = shoal_core_state.seg[SHOAL_SEG_DATA].fd;

    if (!data_in_net)
        return;
    data_in_net = 0;
    if (shoal_core_local->seg_copy(fd, base, size, 1) != SHOAL_OK)
        shoal_log_fatal("shmem_finalize: cannot save the global/static data from UCX's memory: %m");
    shoal_core_net->mem_unmap(shoal_core_state.net, SHOAL_SEG_DATA);
    data_map_file(base, size, fd);
}

/* An address where size bytes aligned to align are free now (a reservation given
 * back at once: the caller maps there before anything else runs), or NULL. */
static void *aligned_hole(size_t size, size_t align)
{
    char *span =
        mmap(NULL, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

    if (span == MAP_FAILED)
        return NULL;
    munmap(span, size + align);
    return (void *)(((uintptr_t)span + align - 1) & ~(uintptr_t)(align - 1));
}

shoal_status_t shoal_segment_heap_setup(size_t size, shoal_seg_t *seg_out)
{
    void *addr;
    int status, fd;

    if (net_allocates()) {
        /* Let UCX allocate the heap, so that its same-node transports can map it
         * into the peers (ucp_rkey_ptr) as ours do. */
        addr = aligned_hole(size, SHOAL_HEAP_BASE_ALIGN);
        if (addr == NULL)
            return SHOAL_ERR_NO_MEMORY;
        status = shoal_core_net->mem_alloc(shoal_core_state.net, SHOAL_SEG_HEAP, addr, size);
        if (status != SHOAL_OK)
            return status;
        *seg_out = (shoal_seg_t){.base = addr, .size = size, .fd = -1};
        return SHOAL_OK;
    }
    status = shoal_core_local->seg_create("shoal-heap", size, SHOAL_HEAP_BASE_ALIGN, &fd, &addr);
    if (status != SHOAL_OK)
        return status;
    *seg_out = (shoal_seg_t){.base = addr, .size = size, .fd = fd};
    return SHOAL_OK;
}

void shoal_segment_heap_cleanup(shoal_seg_t *seg)
{
    if (seg->fd >= 0) { /* else UCX allocated it, and freed it when destroyed */
        shoal_core_local->seg_detach(seg->base, seg->size);
        close(seg->fd); /* the peers, which took copies of it, have closed theirs */
    }
    *seg = (shoal_seg_t){.fd = -1};
}
