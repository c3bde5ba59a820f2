/* Must fail: shmem_int_fcollect with nelems 2^61 (err_coll_overflow.h).
 *
 * err-from: any
 * err-line: shmem_int_fcollect: argument nelems is 2305843009213693952, too large: 4-byte elements
 *   from each of $ERR_PES PEs overflow size_t
 */
#define OVERFLOW_ROUTINE 1
#include "err_coll_overflow.h"
