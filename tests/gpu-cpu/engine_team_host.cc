/* gpu/host/team_api.cu, the nvshmem_team_ host routines, built by g++ for the CPU
 * engine. */
#include "team_api.cu"
