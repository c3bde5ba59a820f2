/* tests/gpu/gpu_group.cu on the CPU engine: the same source, built by g++. */
#include "gpu_group.cu"
