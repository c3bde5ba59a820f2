/* Device errors, seen from the host: the record a kernel left in the status block
 * (shoal_dev_fail) becomes the user's one line, in the same form as the host's
 * argument errors, and the job ends. A monitor thread looks every few ms, so the
 * error is reported even while the host is blocked. */
#include "shoal_gpu.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MONITOR_PERIOD_NS (10 * 1000 * 1000)

/* The argument an address error is about. */
static const char *arg_name(int code)
{
    switch (code) {
    case SHOAL_DEV_ERR_DEST:
    case SHOAL_DEV_ERR_ALIGN_DEST: return "dest";
    case SHOAL_DEV_ERR_SOURCE: return "source";
    case SHOAL_DEV_ERR_IVAR:
    case SHOAL_DEV_ERR_ALIGN_IVAR: return "ivar";
    case SHOAL_DEV_ERR_IVARS:
    case SHOAL_DEV_ERR_ALIGN_IVARS: return "ivars";
    default: return "sig_addr";
    }
}

size_t shoal_gpu_status_format(const shoal_dev_status_t *st, uintptr_t heap_base,
                               size_t heap_size, int n_pes, char *buf, size_t len)
{
    char routine[sizeof(st->routine) + 1];
    long long v = st->value;
    uintptr_t addr = (uintptr_t)v;
    void *lo = (void *)heap_base, *hi = (void *)(heap_base + heap_size);
    int code = st->code, n;

    /* The routine name came from the device: bound it. */
    memcpy(routine, st->routine, sizeof(st->routine));
    routine[sizeof(st->routine)] = '\0';
    switch (code) {
    case SHOAL_DEV_ERR_PE_RANGE:
        n = snprintf(buf, len, "%s (device): argument pe is %lld, valid range 0..%d", routine, v,
                     n_pes - 1);
        break;
    case SHOAL_DEV_ERR_PE_UNREACHABLE:
        n = snprintf(buf, len,
                     "%s (device): argument pe is %lld, which this GPU cannot reach (its heap is "
                     "not mapped on this node, and SHOAL_GPU_PROXY=none turned off the host "
                     "proxy that reaches such PEs)",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_DEST:
    case SHOAL_DEV_ERR_SOURCE:
    case SHOAL_DEV_ERR_IVAR:
    case SHOAL_DEV_ERR_IVARS:
    case SHOAL_DEV_ERR_SIG_ADDR:
        if (addr - heap_base < heap_size)
            n = snprintf(buf, len,
                         "%s (device): argument %s is %p, and the access runs past the end of "
                         "the symmetric heap (%p..%p)",
                         routine, arg_name(code), (void *)addr, lo, hi);
        else
            n = snprintf(buf, len,
                         "%s (device): argument %s is %p, which is not in the symmetric heap "
                         "(%p..%p) nor in the GPU symmetric heap, the only symmetric memory "
                         "kernels can reach; allocate it with nvshmem_malloc or shmem_malloc",
                         routine, arg_name(code), (void *)addr, lo, hi);
        break;
    case SHOAL_DEV_ERR_ALIGN_DEST:
    case SHOAL_DEV_ERR_ALIGN_IVAR:
    case SHOAL_DEV_ERR_ALIGN_IVARS:
    case SHOAL_DEV_ERR_ALIGN_SIG_ADDR:
        n = snprintf(buf, len, "%s (device): argument %s is %p, not aligned to the size of its type",
                     routine, arg_name(code), (void *)addr);
        break;
    case SHOAL_DEV_ERR_CMP:
        n = snprintf(buf, len,
                     "%s (device): argument cmp is %lld, expected one of NVSHMEM_CMP_EQ, "
                     "NVSHMEM_CMP_NE, NVSHMEM_CMP_GT, NVSHMEM_CMP_LE, NVSHMEM_CMP_LT, "
                     "NVSHMEM_CMP_GE",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_INDICES:
        n = snprintf(buf, len,
                     "%s (device): argument indices is NULL, expected an array of nelems (%lld) "
                     "size_t",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_CMP_VALUES:
        n = snprintf(buf, len,
                     "%s (device): argument cmp_values is NULL, expected nelems (%lld) values",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_NELEMS:
        n = snprintf(buf, len,
                     "%s (device): argument nelems is %lld, too large: its size in bytes "
                     "overflows size_t",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_SIZE:
        n = snprintf(buf, len,
                     "%s (device): element size %lld has no case in the device engine (a bug "
                     "in Shoal: please report it)",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_OP:
        n = snprintf(buf, len,
                     "%s (device): atomic operation %lld has no case in the device engine (a "
                     "bug in Shoal: please report it)",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_SIG_OP:
        n = snprintf(buf, len,
                     "%s (device): argument sig_op is %lld, expected NVSHMEM_SIGNAL_SET or "
                     "NVSHMEM_SIGNAL_ADD",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_PE_UNMAPPED:
        n = snprintf(buf, len,
                     "%s (device): PE %lld is out of this GPU's reach (its heap is not mapped on "
                     "this node, and SHOAL_GPU_PROXY=none turned off the host proxy), and the "
                     "routine involves every PE",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_GHEAP_UNREACHABLE:
        n = snprintf(buf, len,
                     "%s (device): argument pe is %lld, whose GPU symmetric heap this GPU cannot "
                     "reach (not mapped here: another node, or a GPU without peer access; and "
                     "SHOAL_GPU_PROXY=none turned off the host proxy that reaches it)",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_TEAM:
        n = snprintf(buf, len,
                     "%s (device): argument team is %lld, which names no team here (expected a "
                     "predefined team, or one that nvshmem_team_split_strided or "
                     "nvshmem_team_split_2d made on this PE and nvshmem_team_destroy has not "
                     "ended)",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_TEAM_IRREGULAR:
        n = snprintf(buf, len,
                     "%s (device): argument team is %lld, whose PEs are not evenly spaced in "
                     "NVSHMEM_TEAM_WORLD; the device collectives and translation need a team "
                     "that a split made",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_ROOT:
        n = snprintf(buf, len, "%s (device): argument PE_root is %d, valid range 0..%d", routine,
                     (int)(int32_t)(v & 0xffffffff), (int)(v >> 32) - 1);
        break;
    case SHOAL_DEV_ERR_NREDUCE:
        n = snprintf(buf, len,
                     "%s (device): argument nreduce is %lld, too large: its size in bytes "
                     "overflows size_t",
                     routine, v);
        break;
    case SHOAL_DEV_ERR_RED_OP:
        n = snprintf(buf, len,
                     "%s (device): reduction %lld has no case for this type in the device "
                     "engine (a bug in Shoal)",
                     routine, v);
        break;
    default:
        n = snprintf(buf, len, "%s (device): unknown device error %d (value %lld)", routine, code,
                     v);
        break;
    }
    return n < 0 ? 0 : (size_t)n;
}

void shoal_gpu_check(void)
{
    static int reported;
    const shoal_dev_status_t *st = shoal_gpu.status;
    char line[512];

    if (st == NULL || st->code == SHOAL_DEV_OK)
        return;
    /* One line per error: a second thread that sees it (the monitor and a host
     * call at once) waits for the first to end the job. */
    if (__atomic_exchange_n(&reported, 1, __ATOMIC_ACQ_REL))
        for (;;)
            pause();
    __atomic_thread_fence(__ATOMIC_ACQUIRE); /* the record was written before its code */
    shoal_gpu_status_format(st, shoal_gpu.state.heap_base, shoal_gpu.state.heap_size,
                            shoal_gpu.state.n_pes, line, sizeof(line));
    shoal_gpu.env->fatal("%s", line);
}

static pthread_t monitor;
static int monitor_on;
static volatile int monitor_stop;

static void *monitor_main(void *arg)
{
    struct timespec period = {0, MONITOR_PERIOD_NS};

    (void)arg;
    while (!monitor_stop) {
        shoal_gpu_check();
        while (nanosleep(&period, &period) != 0 && errno == EINTR) {
        }
        period.tv_nsec = MONITOR_PERIOD_NS;
    }
    return NULL;
}

void shoal_gpu_monitor_start(void)
{
    int rc;

    monitor_stop = 0;
    rc = pthread_create(&monitor, NULL, monitor_main, NULL);
    if (rc != 0)
        shoal_gpu.env->fatal("shmem_init: cannot start the GPU error monitor thread (%s)",
                             strerror(rc));
    monitor_on = 1;
}

void shoal_gpu_monitor_stop(void)
{
    if (!monitor_on)
        return;
    monitor_stop = 1;
    pthread_join(monitor, NULL);
    monitor_on = 0;
}
