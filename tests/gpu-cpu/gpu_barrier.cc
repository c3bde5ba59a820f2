/* tests/gpu/gpu_barrier.cu on the CPU engine: the same source, built by g++. */
#include "gpu_barrier.cu"
