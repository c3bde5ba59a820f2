/* gpu/host/status.cu as host code: the CPU engine (shoal_dev_port.h). */
#include "status.cu"
