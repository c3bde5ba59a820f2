/* The symmetric segments (heap and the program's data+bss) and the peers that map
 * or register them. Wire-up publishes one blob per PE; a peer is connected from
 * that blob on first use, never all at start. */
#include "shoal_core.h"
#include "shoal_rt.h"
#include "shoal_shm.h"
#include "shoal_status.h"
#include "shoal_ucx.h"

#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define WIREUP_KEY "shoal.wireup"

typedef struct wireup {
    char node[80]; /* host name and pid namespace: same string = same node */
    int32_t pid;
    int32_t amo_ucx; /* shoal_g.amo_ucx: the PEs of a node must agree on it */
    int32_t fd[SHOAL_SEG_COUNT];
    uint64_t base[SHOAL_SEG_COUNT];
    uint64_t size[SHOAL_SEG_COUNT];
    uint32_t addr_len;
    uint32_t rkey_len[SHOAL_SEG_COUNT];
    /* then: worker address, then each rkey */
} wireup_t;

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

int shoal_segment_data_setup(shoal_seg_t *seg_out)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start;
    data_range_t r = {0};
    int status, fd;

    dl_iterate_phdr(find_main_data, &r);
    if (r.start == 0) {
        shoal_warn("the program has no writable data segment: only the heap is symmetric");
        *seg_out = (shoal_seg_t){.fd = -1};
        return SHOAL_OK;
    }
    /* Skip the part made read-only after relocation; the linker page-aligns its end. */
    start = r.relro_end > r.start && r.relro_end < r.end ? r.relro_end : r.start;
    start &= ~(page - 1);
    r.end = (r.end + page - 1) & ~(page - 1);
    status = shoal_shm_segment_remap("shoal-data", (void *)start, r.end - start, &fd);
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
 * its threads. shoal_segment_data_from_ucx undoes it at shmem_finalize, since
 * the program goes on using its data (and at shmem_init in a job of one PE). Only locals are used while the pages are
 * replaced: in a static link, shoal_g itself is among them. */
static int data_in_ucx;

/* Whether UCX allocates the segments: every peer through UCX, and no GPU library
 * (there, a UCX-allocated heap and the CUDA runtime crash UCX 1.13 now and then
 * when the job ends). */
static int ucx_allocates(void)
{
    return shoal_g.ucx != NULL && shoal_g.settings.transport == SHOAL_TRANSPORT_UCX &&
           shoal_gpu_hooks == NULL;
}

static void data_map_file(char *base, size_t size, int fd)
{
    if (mmap(base, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
        shoal_fatal("cannot map the global/static data back at %p (%zu bytes): %m",
                    (void *)base, size);
}

void shoal_segment_data_to_ucx(void)
{
    char *base = shoal_g.seg[SHOAL_SEG_DATA].base;
    size_t size = shoal_g.seg[SHOAL_SEG_DATA].size;
    int fd = shoal_g.seg[SHOAL_SEG_DATA].fd;
    shoal_ucx_t *ucx = shoal_g.ucx;

    if (size == 0 || fd < 0 || !ucx_allocates())
        return;
    if (shoal_ucx_alloc(ucx, SHOAL_SEG_DATA, base, size) != SHOAL_OK) {
        data_map_file(base, size, fd);
        shoal_debug("UCX cannot allocate the global/static data; it stays in Shoal's mapping");
        return;
    }
    if (shoal_shm_file_copy(fd, base, size, 0) != SHOAL_OK)
        shoal_fatal("shmem_init: cannot copy the global/static data into UCX's memory: %m");
    data_in_ucx = 1;
    shoal_debug("global/static data (%zu bytes at %p) now in memory UCX allocated", size,
                (void *)base);
}

void shoal_segment_data_from_ucx(void)
{
    char *base = shoal_g.seg[SHOAL_SEG_DATA].base;
    size_t size = shoal_g.seg[SHOAL_SEG_DATA].size;
    int fd = shoal_g.seg[SHOAL_SEG_DATA].fd;

    if (!data_in_ucx)
        return;
    data_in_ucx = 0;
    if (shoal_shm_file_copy(fd, base, size, 1) != SHOAL_OK)
        shoal_fatal("shmem_finalize: cannot save the global/static data from UCX's memory: %m");
    shoal_ucx_unmap(shoal_g.ucx, SHOAL_SEG_DATA);
    data_map_file(base, size, fd);
}

/* An address where size bytes aligned to align are free now (a reservation given
 * back at once: the caller maps there before anything else runs), or NULL. */
static void *aligned_hole(size_t size, size_t align)
{
    char *span = mmap(NULL, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                      -1, 0);

    if (span == MAP_FAILED)
        return NULL;
    munmap(span, size + align);
    return (void *)(((uintptr_t)span + align - 1) & ~(uintptr_t)(align - 1));
}

int shoal_segment_heap_setup(size_t size, shoal_seg_t *seg_out)
{
    void *addr;
    int status, fd;

    if (ucx_allocates()) {
        /* Let UCX allocate the heap, so that its same-node transports can map it
         * into the peers (ucp_rkey_ptr) as ours do. */
        addr = aligned_hole(size, SHOAL_HEAP_BASE_ALIGN);
        if (addr == NULL)
            return SHOAL_ERR_NO_MEMORY;
        status = shoal_ucx_alloc(shoal_g.ucx, SHOAL_SEG_HEAP, addr, size);
        if (status != SHOAL_OK)
            return status;
        *seg_out = (shoal_seg_t){.base = addr, .size = size, .fd = -1};
        return SHOAL_OK;
    }
    status = shoal_shm_segment_create("shoal-heap", size, SHOAL_HEAP_BASE_ALIGN, &fd, &addr);
    if (status != SHOAL_OK)
        return status;
    *seg_out = (shoal_seg_t){.base = addr, .size = size, .fd = fd};
    return SHOAL_OK;
}

static void node_id(char *buf, size_t len)
{
    char host[64] = "?";
    struct stat st;

    gethostname(host, sizeof(host) - 1);
    if (stat("/proc/self/ns/pid", &st) != 0)
        st.st_ino = 0;
    snprintf(buf, len, "%s/%lu", host, (unsigned long)st.st_ino);
}

int shoal_wireup_publish(void)
{
    const void *addr = NULL, *rkey[SHOAL_SEG_COUNT] = {NULL};
    size_t addr_len = 0, rkey_len[SHOAL_SEG_COUNT] = {0}, total;
    wireup_t *w;
    char *p;
    int seg, status;

    if (shoal_g.ucx != NULL) {
        shoal_ucx_address(shoal_g.ucx, &addr, &addr_len);
        for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
            if (shoal_g.seg[seg].size == 0)
                continue;
            status = shoal_ucx_register(shoal_g.ucx, seg, shoal_g.seg[seg].base,
                                        shoal_g.seg[seg].size, &rkey[seg], &rkey_len[seg]);
            if (status != SHOAL_OK)
                return status;
        }
    }
    total = sizeof(*w) + addr_len + rkey_len[0] + rkey_len[1];
    w = calloc(1, total);
    if (w == NULL)
        return SHOAL_ERR_NO_MEMORY;
    node_id(w->node, sizeof(w->node));
    w->pid = (int32_t)getpid();
    w->amo_ucx = shoal_g.amo_ucx;
    w->addr_len = (uint32_t)addr_len;
    p = (char *)(w + 1);
    if (addr_len > 0) /* no UCX: nothing to copy (and addr is NULL) */
        memcpy(p, addr, addr_len);
    p += addr_len;
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        w->fd[seg] = shoal_g.seg[seg].fd;
        w->base[seg] = (uintptr_t)shoal_g.seg[seg].base;
        w->size[seg] = shoal_g.seg[seg].size;
        w->rkey_len[seg] = (uint32_t)rkey_len[seg];
        if (rkey_len[seg] > 0)
            memcpy(p, rkey[seg], rkey_len[seg]);
        p += rkey_len[seg];
    }
    status = shoal_rt_publish(WIREUP_KEY, w, total);
    free(w);
    return status;
}

static int connect_shm(const wireup_t *w, int pe, shoal_peer_t *peer)
{
    shoal_shm_peer_t *shm;
    int seg, status = SHOAL_OK;

    shm = calloc(1, sizeof(*shm));
    if (shm == NULL)
        return SHOAL_ERR_NO_MEMORY;
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        void *addr = shoal_g.seg[seg].base;

        shm->size[seg] = w->size[seg];
        if (pe != shoal_g.my_pe && w->size[seg] > 0) { /* this PE: its own mapping */
            status = shoal_shm_segment_attach(w->pid, w->fd[seg], w->size[seg], &addr);
            if (status != SHOAL_OK)
                goto err_detach;
        }
        shm->base[seg] = addr;
        /* The direct path assumes the peer's segment is as long as ours. */
        if (w->size[seg] == shoal_g.seg[seg].size)
            __atomic_store_n(&shoal_g.direct[seg][pe], (char *)addr, __ATOMIC_RELEASE);
    }
    peer->state = shm;
    if (peer->amo_ops == &shoal_shm_ops)
        peer->amo_state = shm;
    __atomic_store_n(&peer->ops, &shoal_shm_ops, __ATOMIC_RELEASE);
    return SHOAL_OK;

err_detach:
    while (seg-- > 0)
        shoal_shm_segment_detach(shm->base[seg], shm->size[seg]);
    free(shm);
    return status;
}

/* A UCX endpoint on worker wk and remote keys for the peer that published w. */
static int attach_ucx(const wireup_t *w, shoal_ucx_worker_t *wk, void **state_out)
{
    const char *p = (const char *)(w + 1);
    const void *rkeys[SHOAL_SEG_COUNT];
    uint64_t bases[SHOAL_SEG_COUNT];
    int seg;

    if (shoal_g.ucx == NULL || w->addr_len == 0)
        return SHOAL_ERR_UNREACHABLE;
    rkeys[0] = p + w->addr_len;
    rkeys[1] = p + w->addr_len + w->rkey_len[0];
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++)
        bases[seg] = w->base[seg];
    return shoal_ucx_peer_create(wk, p, rkeys, bases, state_out);
}

static int connect_ucx(const wireup_t *w, int pe, shoal_peer_t *peer)
{
    int status = attach_ucx(w, shoal_g.ucx_main, &peer->state), seg;

    if (status != SHOAL_OK)
        return status;
    /* Where UCX maps the peer's segment here, the direct path takes it. */
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        char *base = shoal_ucx_ops.ptr(peer->state, seg, 0);

        if (base != NULL && w->size[seg] == shoal_g.seg[seg].size)
            __atomic_store_n(&shoal_g.direct[seg][pe], base, __ATOMIC_RELEASE);
    }
    peer->amo_ops = &shoal_ucx_ops;
    peer->amo_state = peer->state;
    __atomic_store_n(&peer->ops, &shoal_ucx_ops, __ATOMIC_RELEASE);
    return SHOAL_OK;
}

/* Whether the PE that published w runs on this node. */
static int same_node(const wireup_t *w)
{
    char here[sizeof(((wireup_t *)0)->node)];

    node_id(here, sizeof(here));
    return strcmp(here, w->node) == 0;
}

/* Whether pe, which published w, is reached by load/store: this PE, or one on
 * this node unless SHOAL_TRANSPORT=ucx. */
static int is_direct(int pe, const wireup_t *w)
{
    if (pe == shoal_g.my_pe)
        return 1;
    return same_node(w) && shoal_g.settings.transport != SHOAL_TRANSPORT_UCX;
}

/* Connects pe from the blob it published; the caller holds connect_lock. */
static int connect_wireup(int pe, const wireup_t *w, shoal_peer_t *peer)
{
    int status;

    /* Offsets are the same on every PE, so a heap of another size would let an
     * offset valid here land past the peer's heap (or in another mapping). */
    if (w->size[SHOAL_SEG_HEAP] != shoal_g.seg[SHOAL_SEG_HEAP].size)
        shoal_fatal("PE %d has a symmetric heap of %llu bytes, this PE %zu: every PE must be "
                    "given the same SHMEM_SYMMETRIC_SIZE",
                    pe, (unsigned long long)w->size[SHOAL_SEG_HEAP],
                    shoal_g.seg[SHOAL_SEG_HEAP].size);
    __atomic_store_n(&peer->where, same_node(w) ? SHOAL_PEER_THIS_NODE : SHOAL_PEER_OTHER_NODE,
                     __ATOMIC_RELAXED);
    if (peer->where == SHOAL_PEER_THIS_NODE && w->amo_ucx != shoal_g.amo_ucx)
        shoal_fatal("PE %d, on this node, sends its AMOs %s but this PE %s: one of them may "
                    "use a NIC's atomics, which CPU atomics on the same memory would break; "
                    "give every PE of a node the same UCX_TLS and UCX_ATOMIC_MODE",
                    pe, w->amo_ucx ? "through UCX" : "by CPU atomics within the node",
                    shoal_g.amo_ucx ? "through UCX" : "by CPU atomics within the node");
    if (!is_direct(pe, w))
        return connect_ucx(w, pe, peer);
    /* Same node (or this PE): load/store for RMA; AMOs by CPU atomics too, unless the
     * job spans nodes, where they must meet the NIC's atomics on one path. */
    peer->amo_ops = &shoal_shm_ops;
    if (shoal_g.amo_ucx) {
        status = attach_ucx(w, shoal_g.ucx_main, &peer->amo_state);
        if (status != SHOAL_OK)
            return status;
        peer->amo_ops = &shoal_ucx_ops;
    }
    return connect_shm(w, pe, peer);
}

/* Connects pe; the caller holds connect_lock. */
static int connect_peer(int pe, shoal_peer_t *peer)
{
    wireup_t *w = NULL;
    size_t len;
    int status;

    status = shoal_rt_lookup(pe, WIREUP_KEY, (void **)&w, &len);
    if (status != SHOAL_OK)
        return status;
    status = connect_wireup(pe, w, peer);
    free(w);
    return status;
}

int shoal_peer_ucx_attach(int pe, shoal_ucx_worker_t *wk, void **state_out)
{
    wireup_t *w = NULL;
    size_t len;
    int status = shoal_rt_lookup(pe, WIREUP_KEY, (void **)&w, &len);

    if (status != SHOAL_OK)
        return status;
    status = attach_ucx(w, wk, state_out);
    free(w);
    return status;
}

void shoal_peer_connect(int pe)
{
    shoal_peer_t *peer = &shoal_g.peers[pe];
    int status = SHOAL_OK;

    pthread_mutex_lock(&shoal_g.connect_lock);
    if (peer->ops == NULL) {
        if (pe == shoal_g.my_pe && shoal_rt_is_singleton()) {
            wireup_t self = {.pid = (int32_t)getpid()};

            self.size[0] = shoal_g.seg[0].size;
            self.size[1] = shoal_g.seg[1].size;
            peer->amo_ops = &shoal_shm_ops;
            status = connect_shm(&self, pe, peer);
        } else {
            status = connect_peer(pe, peer);
        }
        shoal_debug("connected to PE %d: RMA through %s, AMOs through %s", pe,
                    peer->ops ? peer->ops->name : "nothing",
                    peer->amo_ops ? peer->amo_ops->name : "nothing");
    }
    pthread_mutex_unlock(&shoal_g.connect_lock);
    if (status != SHOAL_OK)
        shoal_fatal("cannot reach PE %d: %s", pe, shoal_status_string(status));
}

int shoal_segment_peer_local(int pe)
{
    shoal_peer_t *peer = &shoal_g.peers[pe];
    int where = __atomic_load_n(&peer->where, __ATOMIC_RELAXED);
    wireup_t *w = NULL;
    size_t len;

    if (where != SHOAL_PEER_UNKNOWN)
        return where == SHOAL_PEER_THIS_NODE;
    if (pe == shoal_g.my_pe || shoal_g.one_node)
        where = SHOAL_PEER_THIS_NODE;
    else if (shoal_rt_lookup(pe, WIREUP_KEY, (void **)&w, &len) == SHOAL_OK)
        where = same_node(w) ? SHOAL_PEER_THIS_NODE : SHOAL_PEER_OTHER_NODE;
    else
        return 1; /* let connecting report it */
    free(w);
    __atomic_store_n(&peer->where, where, __ATOMIC_RELAXED);
    return where == SHOAL_PEER_THIS_NODE;
}

void *shoal_segment_peer_heap(int pe, size_t *size_out)
{
    shoal_peer_t *peer = &shoal_g.peers[pe];
    shoal_shm_peer_t *shm;
    wireup_t *w = NULL;
    size_t len;
    int status = SHOAL_OK;

    if (pe == shoal_g.my_pe) {
        *size_out = shoal_g.seg[SHOAL_SEG_HEAP].size;
        return shoal_g.seg[SHOAL_SEG_HEAP].base;
    }
    pthread_mutex_lock(&shoal_g.connect_lock);
    if (peer->ops == NULL) {
        /* Connect a direct peer now; leave any other alone: its UCX endpoint is
         * made on first use, as ever. */
        status = shoal_rt_lookup(pe, WIREUP_KEY, (void **)&w, &len);
        if (status == SHOAL_OK && is_direct(pe, w))
            status = connect_wireup(pe, w, peer);
        free(w);
    }
    pthread_mutex_unlock(&shoal_g.connect_lock);
    if (status != SHOAL_OK)
        shoal_fatal("cannot reach PE %d: %s", pe, shoal_status_string(status));
    if (__atomic_load_n(&peer->ops, __ATOMIC_ACQUIRE) != &shoal_shm_ops)
        return NULL;
    shm = peer->state;
    *size_out = shm->size[SHOAL_SEG_HEAP];
    return shm->base[SHOAL_SEG_HEAP];
}

void shoal_peers_cleanup(void)
{
    int pe, seg;

    for (pe = 0; shoal_g.peers != NULL && pe < shoal_g.n_pes; pe++) {
        shoal_peer_t *peer = &shoal_g.peers[pe];

        if (peer->ops == &shoal_shm_ops) {
            shoal_shm_peer_t *shm = peer->state;

            for (seg = 0; pe != shoal_g.my_pe && seg < SHOAL_SEG_COUNT; seg++)
                shoal_shm_segment_detach(shm->base[seg], shm->size[seg]);
            free(shm);
        } else if (peer->ops == &shoal_ucx_ops) {
            shoal_ucx_peer_destroy(peer->state);
        }
        if (peer->amo_ops == &shoal_ucx_ops && peer->amo_state != peer->state)
            shoal_ucx_peer_destroy(peer->amo_state);
        *peer = (shoal_peer_t){0};
    }
}
