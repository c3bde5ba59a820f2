/* tests/gpu/err_gpu_stream_pe.cu on the CPU engine: the same source, built by g++. */
#include "err_gpu_stream_pe.cu"
