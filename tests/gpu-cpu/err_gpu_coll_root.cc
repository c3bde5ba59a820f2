/* tests/gpu/err_gpu_coll_root.cu on the CPU engine: the same source, built by g++. */
#include "err_gpu_coll_root.cu"
