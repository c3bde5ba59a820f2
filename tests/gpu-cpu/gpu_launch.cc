/* tests/gpu/gpu_launch.cu on the CPU engine: the same source, built by g++. */
#include "gpu_launch.cu"
