/* Status codes for every internal call: SHOAL_OK is 0, errors are negative.
 * The names and their strings come from one list, as libuv's UV_ERRNO_MAP. */
#ifndef SHOAL_STATUS_H
#define SHOAL_STATUS_H

#define SHOAL_STATUS_MAP(X)                                                                        \
    X(OK, 0, "success")                                                                            \
    X(ERR_NO_MEMORY, -1, "out of memory")                                                          \
    X(ERR_INVALID_ARG, -2, "invalid argument")                                                     \
    X(ERR_OUT_OF_RANGE, -3, "address or size out of range")                                        \
    X(ERR_SYSTEM, -4, "system call failed")                                                        \
    X(ERR_TRANSPORT, -5, "transport failure")                                                      \
    X(ERR_RUNTIME, -6, "launcher runtime (PMIx) failure")                                          \
    X(ERR_UNREACHABLE, -7, "peer not reachable")                                                   \
    X(ERR_NOT_FOUND, -8, "not found")                                                              \
    X(ERR_NO_RESOURCE, -9, "a limit on contexts or teams was reached")                             \
    X(ERR_TIMEOUT, -10, "the peer did not answer in time")

typedef enum {
#define SHOAL_STATUS_ENUM(name, value, text) SHOAL_##name = (value),
    SHOAL_STATUS_MAP(SHOAL_STATUS_ENUM)
#undef SHOAL_STATUS_ENUM
} shoal_status_t;

const char *shoal_status_string(shoal_status_t status);

#endif
