/* gpu/host/gen/coll_stream.cu, the typed collectives on a stream, built by g++
 * for the CPU engine. */
#include "gen/coll_stream.cu"
