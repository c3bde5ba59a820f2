/* Must fail: shmem_alltoallmem with nelems 2^63 (err_coll_overflow.h).
 *
 * err-from: any
 * err-line: shmem_alltoallmem: argument nelems is 9223372036854775808, too large: 1-byte elements
 *   from each of $ERR_PES PEs overflow size_t
 */
#define OVERFLOW_ROUTINE 2
#include "err_coll_overflow.h"
