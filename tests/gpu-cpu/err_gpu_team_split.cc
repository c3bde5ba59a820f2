/* tests/gpu/err_gpu_team_split.cu on the CPU engine: the same source, built by g++. */
#include "err_gpu_team_split.cu"
