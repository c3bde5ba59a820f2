/* gpu/host/stream.cu, the stream waits' engine, built by g++ for the CPU engine. */
#include "stream.cu"
