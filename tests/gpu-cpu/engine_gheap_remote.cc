/* gpu/host/gheap_remote.cu, the requests on GPU heaps not mapped here, built by
 * g++ for the CPU engine. */
#include "gheap_remote.cu"
