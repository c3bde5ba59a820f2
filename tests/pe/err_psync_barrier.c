/* Must fail: shmem_barrier at the first use of a garbage pSync (err_psync.h).
 *
 * err-from: any
 * err-line: shmem_barrier: argument pSync\[0\] is 0x5a5a5a5a5a5a5a5a on entry, expected
 *   SHMEM_SYNC_VALUE (0); set every element of pSync to SHMEM_SYNC_VALUE on every PE of the active
 *   set, then synchronize (shmem_barrier_all), before its first use
 */
#define PSYNC_ROUTINE 1
#include "err_psync.h"
