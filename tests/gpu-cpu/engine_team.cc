/* gpu/device/team.cu as host code: the CPU engine (shoal_dev_port.h). */
#include "team.cu"
