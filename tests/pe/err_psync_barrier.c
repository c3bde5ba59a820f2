/* Must fail: shmem_barrier at the first use of a garbage pSync (err_psync.h). */
#define PSYNC_ROUTINE 1
#include "err_psync.h"
