/* gpu/device/device.cu as host code: the CPU engine (shoal_dev_port.h). */
#include "device.cu"
