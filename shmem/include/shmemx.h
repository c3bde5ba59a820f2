/* shmemx.h - Shoal extensions beyond OpenSHMEM 1.5 (newer spec drafts and
 * Shoal-specific routines). Empty of routines for now; include it freely. */
#ifndef SHMEMX_H
#define SHMEMX_H

#include "shmem.h"

#endif /* SHMEMX_H */
