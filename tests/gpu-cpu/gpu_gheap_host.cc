/* tests/gpu/gpu_gheap_host.cu on the CPU engine: the same source, built by g++. */
#include "gpu_gheap_host.cu"
