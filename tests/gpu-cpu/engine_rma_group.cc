/* gpu/device/gen/rma_group.cu as host code: the CPU engine (shoal_dev_port.h). */
#include "gen/rma_group.cu"
