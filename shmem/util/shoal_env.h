/* The one table of environment variables: it drives the settings struct, the
 * parser, the info output, shoal_info and the documentation. Only shoal_env.c
 * reads the environment in libshoal; the settings are parsed once, from
 * shmem_init. */
#ifndef SHOAL_ENV_H
#define SHOAL_ENV_H

#include <stddef.h>
#include <stdio.h>

#include "shoal_status.h"

enum { SHOAL_TRANSPORT_AUTO = 0, SHOAL_TRANSPORT_UCX = 1 };
/* Collective algorithms: auto picks by size and PE count. */
enum {
    SHOAL_ALGO_AUTO = 0,
    SHOAL_ALGO_DIRECT,
    SHOAL_ALGO_TREE,
    SHOAL_ALGO_RING,
    SHOAL_ALGO_DOUBLING,
    SHOAL_ALGO_FLAT
};
/* How kernels reach what load/store cannot (gpu/host/proxy_thread.cu). */
enum { SHOAL_GPU_PROXY_AUTO = 0, SHOAL_GPU_PROXY_ALL = 1, SHOAL_GPU_PROXY_NONE = 2 };

/* K(kind, field type, parser, ranged, what a value is, its form, an example) - the
 * kinds a setting may have. A ranged kind is a size_t number that a row may bound;
 * the error for a bad value reads "expected <what><form>, e.g. <example>", or
 * "expected <what><form> from <min> to <max>" when the row has a range. */
#define SHOAL_ENV_KINDS(K)                                                                         \
    K(size, size_t, size, 1, "a number of bytes", " with an optional K, M, G or T suffix", "512M") \
    K(count, size_t, count, 1, "a whole number", "", "1000")                                       \
    K(seconds, size_t, count, 1, "a number of seconds", "", "10")                                  \
    K(usec, size_t, count, 1, "a number of microseconds", "", "1000")                              \
    K(bool, int, bool, 0, "one of 0, 1, yes, no, true, false, on, off", "", "")                    \
    K(transport, int, transport, 0, "one of auto, ucx", "", "")                                    \
    K(bcast, int, bcast, 0, "one of auto, flat, direct, binomial", "", "")                         \
    K(reduce, int, reduce, 0, "one of auto, flat, doubling, ring, direct", "", "")                 \
    K(gpu_proxy, int, gpu_proxy, 0, "one of auto, all, none", "", "")

/* C(category, title) - the groups the settings are listed in (SHMEM_INFO, README,
 * shmem_intro(3)), in this order. */
#define SHOAL_ENV_CATEGORIES(C)                                                                    \
    C(resources, "Resources")                                                                      \
    C(transport, "Transport")                                                                      \
    C(collectives, "Collectives")                                                                  \
    C(checks, "Checks")                                                                            \
    C(gpu, "GPU")                                                                                  \
    C(output, "Output")

/* X(NAME, kind, field, default, range, category, help). range bounds a ranged
 * kind: FROM_TO(min, max), FROM(min), UP_TO(max) (integer literals), or NONE.
 * shoal_env.c enforces it; tools/gen/shoal_gen_env.py reads these rows to write
 * the settings of README.md and shmem_intro(3), so keep one row per X(...) and
 * each argument a literal. */
#define SHOAL_ENV_TABLE(X)                                                                         \
    X(SHMEM_SYMMETRIC_SIZE, size, symmetric_size, "256M", NONE, resources,                         \
      "Bytes of symmetric heap per PE; K, M, G or T suffixes multiply by 1024 each step")          \
    X(SHMEM_DEBUG, bool, debug, "0", NONE, output, "Print debugging messages from the library")    \
    X(SHMEM_INFO, bool, info, "0", NONE, output,                                                   \
      "Print at start-up (PE 0) the library version, every setting, the transports and timings")   \
    X(SHMEM_VERSION, bool, version, "0", NONE, output,                                             \
      "Print the library version at start-up (PE 0)")                                              \
    X(SHOAL_STATS, count, stats, "0", FROM_TO(0, 2), output,                                       \
      "At shmem_finalize, PE 0 prints run statistics to stderr: 1 the job's, 2 each PE's too "     \
      "(the program's RMA and AMOs then take the checked path, where they are counted)")           \
    X(SHOAL_TRANSPORT, transport, transport, "auto", NONE, transport,                              \
      "auto: same-node peers by load/store, others by UCX; ucx: UCX for every peer")               \
    X(SHOAL_CHECK, bool, check, "0", NONE, checks,                                                 \
      "Check every remote range against its allocation (costly; the segment check is "             \
      "always on)")                                                                                \
    X(SHOAL_PROGRESS_US, usec, progress_us, "1000", UP_TO(4294967295), transport,                  \
      "Microseconds between UCX progress-thread passes, so a busy PE still serves its "            \
      "peers; 0: no thread")                                                                       \
    X(SHOAL_PEER_TIMEOUT, seconds, peer_timeout_s, "30", NONE, transport,                          \
      "Seconds a PE waits for another node's PE to answer (a get, an atomic, a quiet, a "          \
      "collective's look at a PE it waits for) before it ends the job naming that PE and its "     \
      "node; 0: wait for ever")                                                                    \
    X(SHOAL_CHECK_COLL, bool, check_coll, "0", NONE, checks,                                       \
      "Compare collective arguments across the team, and name a PE that never joins a "            \
      "collective")                                                                                \
    X(SHOAL_CHECK_COLL_TIMEOUT, seconds, check_coll_s, "10", FROM(1), checks,                      \
      "Seconds a collective waits for a PE, with SHOAL_CHECK_COLL, before it names that PE")       \
    X(SHOAL_HANG_REPORT, seconds, hang_report_s, "0", NONE, checks,                                \
      "Seconds a wait may last before its PE prints what it waits for (the value, the PEs a "      \
      "collective lacks, a lock's holder), again at each doubling; 0: only on SIGUSR2")            \
    X(SHOAL_TEAMS_MAX, count, teams_max, "64", FROM_TO(2, 64), resources,                          \
      "Teams that may exist at once, SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED included")             \
    X(SHOAL_CTX_MAX, count, ctx_max, "256", NONE, resources,                                       \
      "Contexts a PE may have at once, the default one aside")                                     \
    X(SHOAL_BCAST_ALGO, bcast, bcast_algo, "auto", NONE, collectives,                              \
      "Broadcast: flat (the root writes each PE), direct (every PE reads the root), "              \
      "binomial, auto")                                                                            \
    X(SHOAL_REDUCE_ALGO, reduce, reduce_algo, "auto", NONE, collectives,                           \
      "Reductions: flat (one PE combines), doubling, ring (reduce-scatter, all-gather), "          \
      "direct, auto")                                                                              \
    X(SHOAL_COLL_SMALL, size, coll_small, "8K", NONE, collectives,                                 \
      "Bytes up to which auto picks the small-array collectives (flat on one node, else "          \
      "direct broadcasts and doubling reductions)")                                                \
    X(SHOAL_COLL_STREAM, size, coll_stream, "32M", NONE, collectives,                              \
      "Bytes a collective writes in all (on every PE) from which its copies between PEs of a "     \
      "node bypass the caches (streaming stores); 0: never")                                       \
    X(SHOAL_SLEEP, bool, sleep_waits, "1", NONE, collectives,                                      \
      "When a node runs more PEs than cores, collectives wait asleep (futex) instead of "          \
      "yielding")                                                                                  \
    X(SHOAL_GPU_PROXY, gpu_proxy, gpu_proxy, "auto", NONE, gpu,                                    \
      "How kernels reach what load/store cannot: auto, a host thread of the PE carries their "     \
      "operations on PEs not mapped here and their atomics where the GPU's are not atomic with "   \
      "the CPU's; all, it carries every put, get and atomic of a kernel; none, no host thread")    \
    X(SHOAL_GPU_SYMMETRIC_SIZE, size, gpu_symmetric_size, "256M", NONE, gpu,                       \
      "Bytes of GPU symmetric heap per PE (nvshmem_malloc), in the memory of the PE's GPU; "       \
      "NVSHMEM_SYMMETRIC_SIZE is read when this is unset; 0: none")

/* Each kind's field type: shoal_env_size_t, shoal_env_bool_t, ... */
#define SHOAL_ENV_KIND_TYPE(kind, type, parser, ranged, what, form, example)                       \
    typedef type shoal_env_##kind##_t;
SHOAL_ENV_KINDS(SHOAL_ENV_KIND_TYPE)
#undef SHOAL_ENV_KIND_TYPE

enum {
#define SHOAL_ENV_CATEGORY(category, title) SHOAL_ENV_CAT_##category,
    SHOAL_ENV_CATEGORIES(SHOAL_ENV_CATEGORY)
#undef SHOAL_ENV_CATEGORY
        SHOAL_ENV_CAT_COUNT
};

/* The settings: one field per row, of its kind's type. */
typedef struct shoal_settings {
#define SHOAL_ENV_FIELD(name, kind, field, dflt, range, category, help) shoal_env_##kind##_t field;
    SHOAL_ENV_TABLE(SHOAL_ENV_FIELD)
#undef SHOAL_ENV_FIELD
} shoal_settings_t;

typedef const char *(*shoal_env_get_cb_t)(const char *name);

/* How many rows SHOAL_ENV_TABLE has. */
#define SHOAL_ENV_ONE_ROW(name, kind, field, dflt, range, category, help) +1
enum { SHOAL_ENV_ROWS = 0 SHOAL_ENV_TABLE(SHOAL_ENV_ONE_ROW) };
#undef SHOAL_ENV_ONE_ROW

/* One row of SHOAL_ENV_TABLE as text, for the tools that list the settings
 * (shoal_info): shoal_env.c expands the table once, for the parser and for them. */
typedef struct shoal_env_row {
    const char *name, *kind, *dflt, *help;
    const char *min, *max; /* the row's bounds as the table writes them, "" for none */
    int ranged;            /* its kind is a number a row may bound */
    int category;          /* SHOAL_ENV_CAT_* */
} shoal_env_row_t;

/* Row i of the table (0 <= i < SHOAL_ENV_ROWS), else NULL. */
const shoal_env_row_t *shoal_env_row_at(size_t i);

/* Fills out from get (getenv when NULL). On a bad value, or a number outside its
 * row's range, returns SHOAL_ERR_INVALID_ARG and writes one line naming the
 * variable, its value and the accepted forms (with the range) to err. */
shoal_status_t shoal_env_parse(shoal_env_get_cb_t get, char *err, size_t errlen,
                               shoal_settings_t *out);
void shoal_env_print(FILE *stream, const shoal_settings_t *settings);
/* What setting name accepts, in the words of its error line ("a whole number from
 * 2 to 64"), into buf; 0 when name is not a setting. */
int shoal_env_expected(const char *name, char *buf, size_t len);

/* A variable of env (NAME=VALUE strings, NULL-terminated; environ when NULL)
 * named SHMEM_*, SHOAL_* or SMA_* that Shoal does not read (the first that is
 * within 3 edits of a known name, else the first), copied to name, with that
 * known name (or "") in near.
 * Returns how many such variables there are. A typo is otherwise silently ignored. */
int shoal_env_unknown(char *const *env, char *name, size_t namelen, char *near, size_t nearlen);

/* Whether the environment sets name (for settings of other libraries that Shoal
 * gives a default of its own only where the user did not choose). */
int shoal_env_has(const char *name);

/* What oshrun chose for this PE's binding, and why (its OSHRUN_BINDING), or NULL
 * where oshrun did not start it. */
const char *shoal_env_oshrun_binding(void);

/* Whether a PMIx server started this process (it leaves its namespace behind). */
int shoal_env_launched_by_pmix(void);

/* Parsers, exposed for the unit tests. Return 0 on success, -1 on a bad form. */
int shoal_env_parse_size(const char *text, size_t *out);
int shoal_env_parse_count(const char *text, size_t *out);
int shoal_env_parse_bool(const char *text, int *out);
int shoal_env_parse_transport(const char *text, int *out);
int shoal_env_parse_bcast(const char *text, int *out);
int shoal_env_parse_reduce(const char *text, int *out);
int shoal_env_parse_gpu_proxy(const char *text, int *out);

#endif
