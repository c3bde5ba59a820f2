/* gpu/host/team_table.cu, the device team table the host keeps, built by g++ for
 * the CPU engine. */
#include "team_table.cu"
