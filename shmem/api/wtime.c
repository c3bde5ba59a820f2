/* shmemx_wtime: seconds on the monotonic clock, as Sandia OpenSHMEM's. Needs no
 * initialized library, so it must never touch the library's state. */
#include "shmemx.h"
#include "shoal_profile.h"

#include <time.h>

double pshmemx_wtime(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
SHOAL_PROFILED(shmemx_wtime);
