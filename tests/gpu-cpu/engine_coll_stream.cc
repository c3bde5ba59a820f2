/* gpu/host/coll_stream.cu, the team collectives on a stream, built by g++ for the
 * CPU engine. */
#include "coll_stream.cu"
