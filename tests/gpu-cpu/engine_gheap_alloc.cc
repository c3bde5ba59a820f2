/* gpu/host/gheap_alloc.cu, the GPU heap's allocator, built by g++ for the CPU engine. */
#include "gheap_alloc.cu"
