/* mpp/shmem.h - the header path of SGI SHMEM, which OpenSHMEM 1.1 deprecated and
 * 1.5 still requires (spec annex, "Header Directory: mpp"). It only includes
 * <shmem.h>, relative to itself so that it works from any include path. */
#ifndef SHOAL_MPP_SHMEM_H
#define SHOAL_MPP_SHMEM_H

#include "../shmem.h"

#endif /* SHOAL_MPP_SHMEM_H */
