/* mpp/shmemx.h - the deprecated SGI SHMEM path of <shmemx.h> (spec annex, "Header
 * Directory: mpp"). It only includes <shmemx.h>, relative to itself. */
#ifndef SHOAL_MPP_SHMEMX_H
#define SHOAL_MPP_SHMEMX_H

#include "../shmemx.h"

#endif /* SHOAL_MPP_SHMEMX_H */
