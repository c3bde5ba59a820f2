/* The same-node component: each PE's segments live in memfd files that peers on
 * the node map, so remote access is a load or store. A peer's segment is opened
 * through /proc/<pid>/fd/<fd>, so nothing is left behind in /dev/shm when a job
 * dies. Holds no global state (the core decides where it may be used:
 * shoal_core_direct); must never block or take a lock on the put/get path. */
#include "shoal_atomic.h"
#include "shoal_transport.h"
#include "shoal_log.h"
#include "shoal_status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A peer's segments as mapped here; own: this PE's (not unmapped at destroy). */
typedef struct shm_peer {
    char *base[SHOAL_SEG_COUNT];
    size_t size[SHOAL_SEG_COUNT];
    int own;
} shm_peer_t;

static shoal_status_t memfd_sized(const char *name, size_t size, int *fd_out)
{
    int fd = memfd_create(name, 0);

    if (fd < 0) {
        shoal_log_error("memfd_create(%s) failed: %m", name);
        return SHOAL_ERR_SYSTEM;
    }
    if (ftruncate(fd, (off_t)size) != 0) {
        shoal_log_error("cannot size shared segment %s to %zu bytes: %m", name, size);
        close(fd);
        return SHOAL_ERR_SYSTEM;
    }
    *fd_out = fd;
    return SHOAL_OK;
}

static shoal_status_t segment_create(const char *name, size_t size, size_t align, int *fd_out,
                                     void **addr_out)
{
    char *span, *addr;
    size_t head;
    int fd, status, saved;

    status = memfd_sized(name, size, &fd);
    if (status != SHOAL_OK)
        return status;
    /* Reserve size + align of address space, map the segment at the aligned spot
     * inside it, and give back the rest. */
    span = mmap(NULL, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (span == MAP_FAILED)
        goto err_close;
    addr = (char *)(((uintptr_t)span + align - 1) & ~(uintptr_t)(align - 1));
    if (mmap(addr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd, 0) ==
        MAP_FAILED) {
        saved = errno;
        munmap(span, size + align);
        errno = saved;
        goto err_close;
    }
    head = (size_t)(addr - span);
    if (head > 0)
        munmap(span, head);
    if (align - head > 0)
        munmap(addr + size, align - head);
    *fd_out = fd;
    *addr_out = addr;
    return SHOAL_OK;

err_close:
    saved = errno; /* the caller reports it, with what the user can change */
    close(fd);
    errno = saved;
    return SHOAL_ERR_NO_MEMORY;
}

/* The raw system calls, not libc's pread/pwrite: the data segment is copied whole,
 * the padding between variables included, and AddressSanitizer's interceptors
 * would report that padding (its redzones) as an overflow. The kernel reads and
 * writes the bytes as they are; nothing is checked or lost. */
static shoal_status_t file_copy(int fd, char *base, size_t size, int to_file)
{
    size_t done = 0;
    long n = 1;

    while (done < size && n > 0) {
        n = syscall(to_file ? SYS_pwrite64 : SYS_pread64, fd, base + done, size - done,
                    (off_t)done);
        done += n > 0 ? (size_t)n : 0;
    }
    return done == size ? SHOAL_OK : SHOAL_ERR_SYSTEM;
}

static shoal_status_t segment_remap(const char *name, void *addr, size_t size, int *fd_out)
{
    int fd, status;

    status = memfd_sized(name, size, &fd);
    if (status != SHOAL_OK)
        return status;
    if (file_copy(fd, addr, size, 1) != SHOAL_OK) {
        shoal_log_error("cannot copy %s into shared memory: %m", name);
        goto err_close;
    }
    /* MAP_FIXED replaces the private pages in one step: no other thread of this
     * library runs yet, so nothing writes the segment in between. */
    if (mmap(addr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        shoal_log_error("cannot remap %s at %p (%zu bytes) as shared: %m", name, addr, size);
        goto err_close;
    }
    *fd_out = fd;
    return SHOAL_OK;

err_close:
    close(fd);
    return SHOAL_ERR_SYSTEM;
}

static shoal_status_t segment_attach(pid_t pid, int fd, size_t size, void **addr_out)
{
    char path[64];
    void *addr;
    int peer_fd;

    snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
    peer_fd = open(path, O_RDWR | O_CLOEXEC);
    if (peer_fd < 0) {
        shoal_log_error("cannot open peer segment %s: %m", path);
        return SHOAL_ERR_UNREACHABLE;
    }
    addr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, peer_fd, 0);
    close(peer_fd);
    if (addr == MAP_FAILED) {
        shoal_log_error("cannot map peer segment %s (%zu bytes): %m", path, size);
        return SHOAL_ERR_NO_MEMORY;
    }
    *addr_out = addr;
    return SHOAL_OK;
}

static void segment_detach(void *addr, size_t size)
{
    if (addr != NULL)
        munmap(addr, size);
}

/* A peer's state for shm_ops: its segments (info's fd and size, in process pid)
 * mapped here; info->own: this PE's own segments, used as they are. No worker. */
static shoal_status_t peer_create(shoal_transport_worker_t *w,
                                  const shoal_transport_peer_info_t *info, void **state_out)
{
    char *const *own = info->own;
    const size_t *size = info->size;
    shm_peer_t *peer = calloc(1, sizeof(*peer));
    int seg, status = SHOAL_OK;

    if (peer == NULL)
        return SHOAL_ERR_NO_MEMORY;
    peer->own = own != NULL;
    for (seg = 0; seg < SHOAL_SEG_COUNT; seg++) {
        void *addr = own != NULL ? own[seg] : NULL;

        if (own == NULL && size[seg] > 0) {
            status = segment_attach(info->pid, info->fd[seg], size[seg], &addr);
            if (status != SHOAL_OK)
                goto err_detach;
        }
        peer->base[seg] = addr;
        peer->size[seg] = size[seg];
    }
    *state_out = peer;
    return SHOAL_OK;

err_detach:
    while (seg-- > 0)
        segment_detach(peer->base[seg], peer->size[seg]);
    free(peer);
    return status;
}

static void shm_destroy(void *state)
{
    shm_peer_t *peer = state;
    int seg;

    for (seg = 0; !peer->own && seg < SHOAL_SEG_COUNT; seg++)
        segment_detach(peer->base[seg], peer->size[seg]);
    free(peer);
}

/* The ops: a copy (cost: the memcpy itself) or one CPU atomic. */
static shoal_status_t shm_put(void *state, int seg, size_t off, const void *src, size_t len)
{
    shm_peer_t *peer = state;

    memcpy(peer->base[seg] + off, src, len);
    return SHOAL_OK;
}

static shoal_status_t shm_get(void *state, int seg, size_t off, void *dst, size_t len)
{
    shm_peer_t *peer = state;

    memcpy(dst, peer->base[seg] + off, len);
    return SHOAL_OK;
}

/* A mapped peer always answers at once. */
static shoal_status_t shm_get_within(void *state, int seg, size_t off, void *dst, size_t len,
                                     unsigned limit_ms)
{
    (void)limit_ms;
    return shm_get(state, seg, off, dst, len);
}

static shoal_status_t shm_amo(void *state, int seg, size_t off, shoal_amo_op_t op, size_t size,
                              const void *operand, const void *compare, void *fetch, int nbi)
{
    shm_peer_t *peer = state;

    shoal_atomic_at(peer->base[seg] + off, op, size, operand, compare, fetch);
    return SHOAL_OK;
}

static shoal_status_t shm_iget(void *state, int seg, size_t off, ptrdiff_t sst, char *dst,
                               ptrdiff_t dst_stride, size_t nelems, size_t size)
{
    shm_peer_t *peer = state;
    const char *src = peer->base[seg] + off;
    size_t i;

    for (i = 0; i < nelems; i++)
        memcpy(dst + (ptrdiff_t)i * dst_stride, src + (ptrdiff_t)i * sst, size);
    return SHOAL_OK;
}

static void *shm_ptr(void *state, int seg, size_t off)
{
    shm_peer_t *peer = state;

    return peer->base[seg] + off;
}

static const shoal_transport_ops_t shm_ops = {
    .name = "shm",
    .put = shm_put,
    .get = shm_get,
    .put_nbi = shm_put,
    .get_nbi = shm_get,
    .get_within = shm_get_within,
    .amo = shm_amo,
    .iget = shm_iget,
    .ptr = shm_ptr,
    .destroy = shm_destroy,
};

const shoal_component_t shoal_shm_component = {
    .name = "shm",
    .ops = &shm_ops,
    .seg_create = segment_create,
    .seg_share = segment_remap,
    .seg_copy = file_copy,
    .seg_detach = segment_detach,
    .peer_create = peer_create,
};
