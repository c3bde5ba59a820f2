/* Must fail: shmem_int_alltoalls whose dst stride makes the span overflow
 * (err_coll_overflow.h). */
#define OVERFLOW_ROUTINE 3
#include "err_coll_overflow.h"
