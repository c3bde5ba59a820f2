/* tests/gpu/gpu_coll.cu on the CPU engine: the same source, built by g++. */
#include "gpu_coll.cu"
