/* shmem_pcontrol: the profiling interface's control hook. Shoal keeps no profile
 * yet, so the call only records its level; it must stay callable at any time
 * (before shmem_init too) and never block, allocate or read its variadic part. */
#include "shmem.h"
#include "shoal_pcontrol.h"
#include "shoal_profile.h"

/* The spec recommends profiling on at the default detail (1) from the start. */
static int pcontrol_level = 1;

void pshmem_pcontrol(const int level, ...)
{
    /* Levels past 2 may come with arguments whose types only a profiling library
     * knows: none is read. Atomic, as threads may call it at any time. */
    __atomic_store_n(&pcontrol_level, level, __ATOMIC_RELAXED);
}
SHOAL_PROFILED(shmem_pcontrol);

int shoal_pcontrol_level(void)
{
    return __atomic_load_n(&pcontrol_level, __ATOMIC_RELAXED);
}
