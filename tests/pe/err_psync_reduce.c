/* Must fail: shmem_int_sum_to_all at the first use of a garbage pSync
 * (err_psync.h). */
#define PSYNC_ROUTINE 3
#include "err_psync.h"
