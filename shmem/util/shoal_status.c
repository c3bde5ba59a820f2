/* Strings for shoal_status_t, made from the same list as the enum. */
#include "shoal_status.h"

const char *shoal_status_string(shoal_status_t status)
{
    switch (status) {
#define SHOAL_STATUS_CASE(name, value, text)                                                       \
    case SHOAL_##name:                                                                             \
        return text;
        SHOAL_STATUS_MAP(SHOAL_STATUS_CASE)
#undef SHOAL_STATUS_CASE
    }
    return "unknown status";
}
