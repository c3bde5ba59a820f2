/* gpu/device/proxy.cu as host code: the CPU engine (shoal_dev_port.h). */
#include "proxy.cu"
