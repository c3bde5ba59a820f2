/* tests/gpu/gpu_gheap_coll.cu on the CPU engine: the same source, built by g++. */
#include "gpu_gheap_coll.cu"
