/* gpu/host/gheap.cu, the GPU symmetric heap, built by g++ for the CPU engine. */
#include "gheap.cu"
