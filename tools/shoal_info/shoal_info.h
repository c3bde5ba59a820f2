/* shoal_info: what this Shoal is (version, build, transports) and every setting of
 * SHOAL_ENV_TABLE with its default and its value here. It must never start a job: no
 * shmem_init, no PMIx server; the only thing it starts is a UCP context, to list UCX's
 * transports, and it carries on without one. */
#ifndef SHOAL_INFO_H
#define SHOAL_INFO_H

#include <stddef.h>
#include <stdio.h>

#include "shoal_env.h"

/* Exit statuses: 2 is a wrong option or an unknown setting, as getopt's users do. */
enum { SHOAL_INFO_EXIT_OK = 0, SHOAL_INFO_EXIT_FAIL = 1, SHOAL_INFO_EXIT_USAGE = 2 };

/* One row of SHOAL_ENV_TABLE, and what this environment makes of it. */
typedef struct shoal_info_setting {
    const char *name, *kind, *dflt, *help;
    const char *min, *max; /* the row's bounds as written, "" where there is none */
    int ranged;            /* its kind is a number a row may bound */
    int category;          /* SHOAL_ENV_CAT_* */
    const char *alias;     /* the other name (SMA_, NVSHMEM_) read when name is unset, or NULL */
    const char *value;     /* the environment's text, NULL when unset (the default holds) */
    const char *source;    /* the variable value came from: name or alias */
    char accepts[160];     /* the parser's words for what it takes ("a whole number ...") */
    char error[256];       /* the parser's line when it rejects value, else "" */
} shoal_info_setting_t;

/* Reads the environment through shoal_env_parse, row by row as the library would at
 * shmem_init, without stopping at the first bad value. Call once, before the rest. */
void shoal_info_settings_load(void);
const shoal_settings_t *shoal_info_settings_values(void);
/* The parser's line when it stopped at something no row explains, else "". */
const char *shoal_info_settings_error(void);
size_t shoal_info_settings_count(void);
const shoal_info_setting_t *shoal_info_setting_at(size_t i);
/* The row named name (or its SMA_ alias; case ignored), else NULL and, in near, the
 * name it most resembles ("" when none is close). */
const shoal_info_setting_t *shoal_info_setting_find(const char *name, char *near, size_t nearlen);

void shoal_info_setting_print(FILE *f, const shoal_info_setting_t *s, int parsable);
void shoal_info_settings_print(FILE *f, int parsable);
/* One paragraph: how many settings, which the environment sets, which it gets wrong. */
void shoal_info_settings_summary(FILE *f, int parsable);

void shoal_info_version_print(FILE *f, int parsable);
void shoal_info_build_print(FILE *f, int all, int parsable);
void shoal_info_transports_print(FILE *f, int parsable);

/* "key:value", the value on one line whatever it holds (--parsable). */
void shoal_info_kv(FILE *f, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "  label:  value" (the human form). */
void shoal_info_line(FILE *f, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
