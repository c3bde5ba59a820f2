/* The one table of environment variables: it drives the settings struct, the
 * parser, the info output and the documentation. Only shoal_env.c reads the
 * environment, once, from shmem_init. */
#ifndef SHOAL_ENV_H
#define SHOAL_ENV_H

#include <stddef.h>
#include <stdio.h>

enum { SHOAL_TRANSPORT_AUTO = 0, SHOAL_TRANSPORT_UCX = 1 };

/* X(NAME, kind, field, default, help) - kind is size, count, bool or transport. */
#define SHOAL_ENV_TABLE(X)                                                                        \
    X(SHMEM_SYMMETRIC_SIZE, size, symmetric_size, "256M",                                        \
      "Bytes of symmetric heap per PE; K, M, G or T suffixes multiply by 1024 each step")        \
    X(SHMEM_DEBUG, bool, debug, "0", "Print debugging messages from the library")               \
    X(SHMEM_INFO, bool, info, "0", "Print the library version and every setting at start-up")   \
    X(SHMEM_VERSION, bool, version, "0", "Print the library version at start-up")               \
    X(SHOAL_TRANSPORT, transport, transport, "auto",                                             \
      "auto: same-node peers by load/store, others by UCX; ucx: UCX for every peer")             \
    X(SHOAL_CHECK, bool, check, "0",                                                             \
      "Check every remote range against its allocation (costly; the segment check is always on)") \
    X(SHOAL_PROGRESS_US, count, progress_us, "1000",                                              \
      "Microseconds between UCX progress-thread passes, so a busy PE still serves its peers; 0: no thread")

typedef struct shoal_settings {
    size_t symmetric_size;
    int debug;
    int info;
    int version;
    int transport;
    int check;
    size_t progress_us;
} shoal_settings_t;

typedef const char *(*shoal_env_get_cb_t)(const char *name);

/* Fills out from get (getenv when NULL). On a bad value returns SHOAL_ERR_INVALID_ARG
 * and writes one line naming the variable, its value and the accepted forms to err. */
int shoal_env_parse(shoal_env_get_cb_t get, char *err, size_t errlen, shoal_settings_t *out);
void shoal_env_print(FILE *stream, const shoal_settings_t *settings);

/* Whether a PMIx server started this process (it leaves its namespace behind). */
int shoal_env_launched_by_pmix(void);

/* Parsers, exposed for the unit tests. Return 0 on success, -1 on a bad form. */
int shoal_env_parse_size(const char *text, size_t *out);
int shoal_env_parse_count(const char *text, size_t *out);
int shoal_env_parse_bool(const char *text, int *out);
int shoal_env_parse_transport(const char *text, int *out);

#endif
