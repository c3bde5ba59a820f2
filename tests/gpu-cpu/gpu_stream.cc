/* tests/gpu/gpu_stream.cu on the CPU engine: the same source, built by g++. */
#include "gpu_stream.cu"
