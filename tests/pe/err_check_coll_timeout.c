/* Must fail in shmem_init: SHOAL_CHECK_COLL_TIMEOUT=0 is not a number of seconds from 1
 * (any program would do; this is err_pe's).
 *
 * err-env: SHOAL_CHECK_COLL=1 SHOAL_CHECK_COLL_TIMEOUT=0
 * err-from: any
 * err-line: shmem_init: environment variable SHOAL_CHECK_COLL_TIMEOUT is 0; expected a number of
 *   seconds from 1
 */
#include "err_pe.c"
