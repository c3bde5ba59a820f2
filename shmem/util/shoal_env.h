/* The one table of environment variables: it drives the settings struct, the
 * parser, the info output and the documentation. Only shoal_env.c reads the
 * environment, once, from shmem_init. */
#ifndef SHOAL_ENV_H
#define SHOAL_ENV_H

#include <stddef.h>
#include <stdio.h>

enum { SHOAL_TRANSPORT_AUTO = 0, SHOAL_TRANSPORT_UCX = 1 };
/* Collective algorithms: auto picks by size and PE count. */
enum { SHOAL_ALGO_AUTO = 0, SHOAL_ALGO_DIRECT, SHOAL_ALGO_TREE, SHOAL_ALGO_RING, SHOAL_ALGO_DOUBLING,
       SHOAL_ALGO_FLAT };

/* X(NAME, kind, field, default, help) - kind is size, count, bool, transport,
 * bcast or reduce. */
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
      "Microseconds between UCX progress-thread passes, so a busy PE still serves its peers; 0: no thread") \
    X(SHOAL_CHECK_COLL, bool, check_coll, "0",                                                   \
      "Compare collective arguments across the team, and name a PE that never joins a collective") \
    X(SHOAL_CHECK_COLL_TIMEOUT, count, check_coll_s, "10",                                       \
      "Seconds a collective waits for a PE, with SHOAL_CHECK_COLL, before it names that PE")     \
    X(SHOAL_TEAMS_MAX, count, teams_max, "64",                                                   \
      "Teams that may exist at once, SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED included (2 to 64)") \
    X(SHOAL_CTX_MAX, count, ctx_max, "256", "Contexts a PE may have at once, the default one aside") \
    X(SHOAL_BCAST_ALGO, bcast, bcast_algo, "auto",                                               \
      "Broadcast: flat (the root writes each PE), direct (every PE reads the root), binomial, auto")   \
    X(SHOAL_REDUCE_ALGO, reduce, reduce_algo, "auto",                                            \
      "Reductions: flat (one PE combines), doubling, ring (reduce-scatter, all-gather), direct, auto")      \
    X(SHOAL_COLL_SMALL, size, coll_small, "8K",                                                  \
      "Bytes up to which auto picks the small-array collectives (flat on one node)")              \
    X(SHOAL_SLEEP, bool, sleep_waits, "1",                                                       \
      "When a node runs more PEs than cores, collectives wait asleep (futex) instead of yielding")

typedef struct shoal_settings {
    size_t symmetric_size;
    int debug;
    int info;
    int version;
    int transport;
    int check;
    size_t progress_us;
    int check_coll;
    size_t check_coll_s;
    size_t teams_max;
    size_t ctx_max;
    int bcast_algo;
    int reduce_algo;
    size_t coll_small;
    int sleep_waits;
} shoal_settings_t;

typedef const char *(*shoal_env_get_cb_t)(const char *name);

/* Fills out from get (getenv when NULL). On a bad value returns SHOAL_ERR_INVALID_ARG
 * and writes one line naming the variable, its value and the accepted forms to err. */
int shoal_env_parse(shoal_env_get_cb_t get, char *err, size_t errlen, shoal_settings_t *out);
void shoal_env_print(FILE *stream, const shoal_settings_t *settings);

/* A variable of env (NAME=VALUE strings, NULL-terminated; environ when NULL)
 * named SHMEM_*, SHOAL_* or SMA_* that Shoal does not read (the first that is
 * within 3 edits of a known name, else the first), copied to name, with that
 * known name (or "") in near.
 * Returns how many such variables there are. A typo is otherwise silently ignored. */
int shoal_env_unknown(char *const *env, char *name, size_t namelen, char *near,
                      size_t nearlen);

/* Whether a PMIx server started this process (it leaves its namespace behind). */
int shoal_env_launched_by_pmix(void);

/* Parsers, exposed for the unit tests. Return 0 on success, -1 on a bad form. */
int shoal_env_parse_size(const char *text, size_t *out);
int shoal_env_parse_count(const char *text, size_t *out);
int shoal_env_parse_bool(const char *text, int *out);
int shoal_env_parse_transport(const char *text, int *out);
int shoal_env_parse_bcast(const char *text, int *out);
int shoal_env_parse_reduce(const char *text, int *out);

#endif
