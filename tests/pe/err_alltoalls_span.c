/* Must fail: shmem_int_alltoalls whose dst stride makes the span overflow
 * (err_coll_overflow.h).
 *
 * err-from: any
 * err-line: shmem_int_alltoalls: arguments nelems (2) and dst (6148914691236517206) span more than
 *   size_t bytes: 4-byte elements from each of $ERR_PES PEs
 */
#define OVERFLOW_ROUTINE 3
#include "err_coll_overflow.h"
