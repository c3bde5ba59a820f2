/* gpu/host/gen/stream.cu, the typed stream waits, built by g++ for the CPU engine. */
#include "gen/stream.cu"
