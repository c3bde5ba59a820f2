/* gpu/host/gheap_ops.cu, the host routines on the GPU heap, built by g++ for the
 * CPU engine. */
#include "gheap_ops.cu"
