/* gpu/device/gen/rma.cu as host code: the CPU engine (shoal_dev_port.h). */
#include "gen/rma.cu"
