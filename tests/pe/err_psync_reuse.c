/* Must fail: shmem_barrier on a pSync made garbage after its first use
 * (err_psync.h). */
#define PSYNC_ROUTINE 4
#include "err_psync.h"
