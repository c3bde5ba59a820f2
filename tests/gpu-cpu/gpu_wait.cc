/* tests/gpu/gpu_wait.cu on the CPU engine: the same source, built by g++. */
#include "gpu_wait.cu"
