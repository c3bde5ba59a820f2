/* Distributed locks: argument checks; the queue lock itself is the core's
 * (shmem/core/engine/lock.c). The lock word belongs to the library: nothing here reads or
 * writes it. */
#include "shmem.h"
#include "shoal_check.h"
#include "shoal_lock.h"
#include "shoal_profile.h"
#include "shoal_status.h"

static int check_lock(long *lock, const char *routine, size_t *off_out)
{
    int seg;

    shoal_check_init(routine);
    seg = shoal_check_symmetric(lock, sizeof(*lock), routine, "lock", off_out);
    shoal_check_aligned(lock, sizeof(*lock), routine, "lock");
    return seg;
}

void pshmem_set_lock(long *lock)
{
    size_t off;
    int seg = check_lock(lock, "shmem_set_lock", &off);
    /* Below SHMEM_THREAD_MULTIPLE no other thread could clear a lock this PE holds
     * while this one waits for it. */
    int may_wait = shoal_core_thread_level() == SHMEM_THREAD_MULTIPLE;

    if (shoal_lock_set(seg, off, may_wait, "shmem_set_lock") != SHOAL_OK)
        shoal_log_fatal("shmem_set_lock: argument lock is %p, which this PE holds already; it "
                        "would wait for itself forever: clear it first",
                        (void *)lock);
}
SHOAL_PROFILED(shmem_set_lock);

void pshmem_clear_lock(long *lock)
{
    size_t off;
    int seg = check_lock(lock, "shmem_clear_lock", &off);

    /* Clearing a lock this PE does not hold would free it under its holder, or wait
     * forever for a PE to queue behind this one; end the job with one line instead. */
    if (shoal_lock_clear(seg, off, "shmem_clear_lock") != SHOAL_OK)
        shoal_log_fatal("shmem_clear_lock: argument lock is %p, which this PE does not hold; clear "
                        "a lock only after shmem_set_lock, or a shmem_test_lock that returned 0, "
                        "took it",
                        (void *)lock);
}
SHOAL_PROFILED(shmem_clear_lock);

int pshmem_test_lock(long *lock)
{
    size_t off;
    int seg = check_lock(lock, "shmem_test_lock", &off);

    return shoal_lock_test(seg, off, "shmem_test_lock");
}
SHOAL_PROFILED(shmem_test_lock);
