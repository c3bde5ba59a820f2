/* Must fail: shmem_broadcast32 at the first use of a garbage pSync (err_psync.h). */
#define PSYNC_ROUTINE 2
#include "err_psync.h"
