/* tests/gpu/gpu_proxy.cu on the CPU engine: the same source, built by g++. */
#include "gpu_proxy.cu"
