/* gpu/device/gen/amo.cu as host code: the CPU engine (shoal_dev_port.h). */
#include "gen/amo.cu"
