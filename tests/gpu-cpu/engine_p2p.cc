/* gpu/device/gen/p2p.cu as host code: the CPU engine (shoal_dev_port.h). */
#include "gen/p2p.cu"
