/* gpu/device/coll.cu as host code: the CPU engine (shoal_dev_port.h). */
#include "coll.cu"
