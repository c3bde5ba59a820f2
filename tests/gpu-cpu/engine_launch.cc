/* gpu/host/launch.cu, the collective launch's sizing, checks and launch, built by
 * g++ for the CPU engine. */
#include "launch.cu"
