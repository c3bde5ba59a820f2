/* Must fail: shmem_barrier on a pSync made garbage after its first use
 * (err_psync.h).
 *
 * err-from: any
 * err-line: shmem_barrier: argument pSync\[[0-9]*\] is 0x5a5a5a5a5a5a5a5[0-9a-f] on PE [0-9]*,
 *   which no run of this collective leaves there; every element of pSync must be SHMEM_SYNC_VALUE
 *   before its first use, and only the collectives that use it may write it afterwards
 */
#define PSYNC_ROUTINE 4
#include "err_psync.h"
