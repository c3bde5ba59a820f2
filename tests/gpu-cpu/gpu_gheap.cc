/* tests/gpu/gpu_gheap.cu on the CPU engine: the same source, built by g++. */
#include "gpu_gheap.cu"
