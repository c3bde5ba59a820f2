/* Must fail: shmem_alltoallmem with nelems 2^63 (err_coll_overflow.h). */
#define OVERFLOW_ROUTINE 2
#include "err_coll_overflow.h"
