/* tests/gpu/err_gpu_gheap_coll_team.cu on the CPU engine: the same source, built by g++. */
#include "err_gpu_gheap_coll_team.cu"
