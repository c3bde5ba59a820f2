/* gpu/host/stream_ops.cu, the put, quiet and barrier on a stream, built by g++ for
 * the CPU engine. */
#include "stream_ops.cu"
