/* gpu/device/gen/coll_group.cu as host code: the CPU engine (shoal_dev_port.h). */
#include "gen/coll_group.cu"
