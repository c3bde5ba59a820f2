/* The engine's state (shoal_core.h): one per process, set up by shoal_core_init
 * and read by every room above the engine through shoal_core.h, the API through
 * its accessors. Holds no code. */
#include "shoal_core.h"

shoal_state_t shoal_core_state = {
    .connect_lock = PTHREAD_MUTEX_INITIALIZER,
    .seg = {{.fd = -1}, {.fd = -1}},
};
