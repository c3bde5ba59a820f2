/* gpu/host/api.cu, the nvshmem_ host names, built by g++ for the CPU engine. */
#include "api.cu"
