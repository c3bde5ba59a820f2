/* tests/gpu/gpu_latency.cu on the CPU engine: the same source, built by g++. */
#include "gpu_latency.cu"
