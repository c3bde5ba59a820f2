/* tests/gpu/err_gpu_launch_grid.cu on the CPU engine: the same source, built by g++. */
#include "err_gpu_launch_grid.cu"
