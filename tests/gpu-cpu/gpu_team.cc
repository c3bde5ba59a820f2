/* tests/gpu/gpu_team.cu on the CPU engine: the same source, built by g++. */
#include "gpu_team.cu"
