/* gpu/device/gen/coll.cu as host code: the CPU engine (shoal_dev_port.h). */
#include "gen/coll.cu"
