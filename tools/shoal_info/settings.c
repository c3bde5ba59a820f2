/* The settings as shmem_init would read them, from the library alone: the rows from
 * shoal_env_row_at (the one expansion of SHOAL_ENV_TABLE, in shoal_env.c), and their
 * aliases, values, accepted forms and errors from the parser, so nothing here
 * restates a default, a range or a rule. It must never stop at a bad value: it reports it. */
#include "shoal_info.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "shoal_status.h"

/* The table's rows as the library describes them (shoal_env_row_at), with what
 * this environment makes of each, filled in by shoal_info_settings_load. */
static shoal_info_setting_t rows[SHOAL_ENV_ROWS];

#define N_ROWS ((size_t)SHOAL_ENV_ROWS)

static shoal_settings_t values;

/* What the parser asked for, in order: each row's name, then its alias when the name
 * was unset (the names are the parser's own strings, which outlive it). */
static struct {
    const char *name, *value;
} asked[4 * N_ROWS];
static size_t n_asked;
static int blocked[N_ROWS];  /* rows whose value the parser rejected: read as unset */
static char load_error[256]; /* a parser's line no row could be found for */

static shoal_info_setting_t *row_of(const char *name)
{
    size_t i;

    for (i = 0; i < N_ROWS; i++)
        if (strcmp(rows[i].name, name) == 0 || (rows[i].alias && strcmp(rows[i].alias, name) == 0))
            return &rows[i];
    return NULL;
}

static const char *remember(const char *name, const char *value)
{
    if (n_asked < sizeof(asked) / sizeof(asked[0])) {
        asked[n_asked].name = name;
        asked[n_asked].value = value;
        n_asked++;
    }
    return value;
}

static const char *unset_get(const char *name)
{
    return remember(name, NULL);
}

static const char *env_get(const char *name)
{
    shoal_info_setting_t *row = row_of(name);

    return remember(name, row != NULL && blocked[row - rows] ? NULL : getenv(name));
}

/* Each name the parser asked for after a row's own, before the next row's, is that
 * row's deprecated alias. */
static void learn_aliases(void)
{
    size_t p, r = 0;

    for (p = 0; p < n_asked; p++) {
        if (r < N_ROWS && strcmp(asked[p].name, rows[r].name) == 0)
            r++;
        else if (r > 0)
            rows[r - 1].alias = asked[p].name;
    }
}

/* The parser's words for what a row takes (as its error line says them). */
static void learn_accepts(shoal_info_setting_t *row)
{
    shoal_env_expected(row->name, row->accepts, sizeof(row->accepts));
}

void shoal_info_settings_load(void)
{
    char err[256];
    size_t i;

    for (i = 0; i < N_ROWS; i++) {
        const shoal_env_row_t *r = shoal_env_row_at(i);

        rows[i] = (shoal_info_setting_t){.name = r->name,
                                         .kind = r->kind,
                                         .dflt = r->dflt,
                                         .help = r->help,
                                         .min = r->min,
                                         .max = r->max,
                                         .ranged = r->ranged,
                                         .category = r->category};
        blocked[i] = 0;
    }
    n_asked = 0;
    shoal_env_parse(unset_get, err, sizeof(err), &values);
    learn_aliases();
    for (i = 0; i < N_ROWS; i++)
        learn_accepts(&rows[i]);
    /* Parse as shmem_init does; each time it stops at a value, note the line, read
     * that row as unset and go on. The last name asked is the one it stopped at. */
    for (;;) {
        shoal_info_setting_t *row;

        n_asked = 0;
        if (shoal_env_parse(env_get, err, sizeof(err), &values) == SHOAL_OK)
            break;
        row = n_asked > 0 ? row_of(asked[n_asked - 1].name) : NULL;
        if (row == NULL || blocked[row - rows]) {
            /* a line this loop cannot place: report it, and show the defaults */
            snprintf(load_error, sizeof(load_error), "%s", err);
            n_asked = 0;
            shoal_env_parse(unset_get, err, sizeof(err), &values);
            return;
        }
        blocked[row - rows] = 1;
        row->source = asked[n_asked - 1].name;
        row->value = getenv(row->source);
        snprintf(row->error, sizeof(row->error), "%s", err);
    }
    for (i = 0; i < n_asked; i++) {
        shoal_info_setting_t *row = row_of(asked[i].name);

        if (row != NULL && asked[i].value != NULL) {
            row->value = asked[i].value;
            row->source = asked[i].name;
        }
    }
}

const char *shoal_info_settings_error(void)
{
    return load_error;
}

const shoal_settings_t *shoal_info_settings_values(void)
{
    return &values;
}

size_t shoal_info_settings_count(void)
{
    return N_ROWS;
}

const shoal_info_setting_t *shoal_info_setting_at(size_t i)
{
    return i < N_ROWS ? &rows[i] : NULL;
}

/* The known name that name most resembles, through the library's own check for
 * misspelt variables; a name without Shoal's prefixes (TEAMS_MAX) is only matched
 * whole, with one, as any short name is a few edits from some SHMEM_ name. */
static void nearest(const char *name, char *near, size_t nearlen)
{
    static const char *const prefixes[] = {"SHOAL_", "SHMEM_"};
    char var[160], unknown[160];
    char *env[2] = {var, NULL};
    size_t i;

    near[0] = '\0';
    if (strncmp(name, "SHMEM_", 6) == 0 || strncmp(name, "SHOAL_", 6) == 0 ||
        strncmp(name, "SMA_", 4) == 0) {
        snprintf(var, sizeof(var), "%s", name);
        shoal_env_unknown(env, unknown, sizeof(unknown), near, nearlen);
        return;
    }
    for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        snprintf(var, sizeof(var), "%s%s", prefixes[i], name);
        if (row_of(var) != NULL) {
            snprintf(near, nearlen, "%s", var);
            return;
        }
    }
}

const shoal_info_setting_t *shoal_info_setting_find(const char *name, char *near, size_t nearlen)
{
    char upper[128];
    const shoal_info_setting_t *row;
    size_t i;

    for (i = 0; name[i] != '\0' && i + 1 < sizeof(upper); i++)
        upper[i] = (char)toupper((unsigned char)name[i]);
    upper[i] = '\0';
    row = name[i] == '\0' ? row_of(upper) : NULL;
    if (row == NULL)
        nearest(upper, near, nearlen);
    return row;
}
