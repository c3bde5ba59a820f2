/* gpu/device/gen/coll.cu as host code: the CPU engine (shoal_dev_port.h). The
 * host halves of its collectives call shoal_gpu_coll_host, which is in the host
 * routines' library (libshoal_devcpu_host): a weak reference here, so that a
 * program of the engine alone links (and never reaches a host half). */
#pragma weak shoal_gpu_coll_host
#include "gen/coll.cu"
