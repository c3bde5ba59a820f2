/* tests/gpu/gpu_figures.cu on the CPU engine: the same source, built by g++. */
#include "gpu_figures.cu"
