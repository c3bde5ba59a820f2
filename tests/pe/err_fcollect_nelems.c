/* Must fail: shmem_int_fcollect with nelems 2^61 (err_coll_overflow.h). */
#define OVERFLOW_ROUTINE 1
#include "err_coll_overflow.h"
