/* nvshmemx.h - NVSHMEM's extensions as Shoal has them: the nvshmemx_*_on_stream
 * host routines, which make a CUDA stream wait on a symmetric variable. They are
 * declared with the typed routines (nvshmem_typed.h); this header is here so that
 * NVSHMEM programs that include it build unchanged. Compiles as C and C++. */
#ifndef SHOAL_NVSHMEMX_H
#define SHOAL_NVSHMEMX_H

#include <cuda_runtime_api.h> /* cudaStream_t */

#include "nvshmem.h"

#endif
