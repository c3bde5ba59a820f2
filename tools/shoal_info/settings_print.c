/* The settings, printed: one row (--param), all rows (--all, in the layout SHMEM_INFO=1
 * prints at start-up, through shoal_env_print), and what the environment sets, gets
 * wrong or misspells. Reads only what settings.c loaded. */
#include "shoal_info.h"

#include <string.h>

static const char *const category_names[] = {
#define CATEGORY_NAME(category, title) [SHOAL_ENV_CAT_##category] = #category,
    SHOAL_ENV_CATEGORIES(CATEGORY_NAME)
#undef CATEGORY_NAME
};

static const char *const category_titles[] = {
#define CATEGORY_TITLE(category, title) [SHOAL_ENV_CAT_##category] = title,
    SHOAL_ENV_CATEGORIES(CATEGORY_TITLE)
#undef CATEGORY_TITLE
};

/* A size in bytes as well, read by the library's own parser: " = 268435456 bytes". */
static const char *as_bytes(char *buf, size_t len, const shoal_info_setting_t *s, const char *text)
{
    size_t n;

    buf[0] = '\0';
    if (strcmp(s->kind, "size") == 0 && shoal_env_parse_size(text, &n) == 0)
        snprintf(buf, len, " = %zu bytes", n);
    return buf;
}

/* "from 2 to 64", "from 1", "up to 1000", or "unbounded", as the library words it
 * (a floor of 0 is no floor). */
static const char *range_words(char *buf, size_t len, const shoal_info_setting_t *s)
{
    const char *lo = strcmp(s->min, "0") != 0 ? s->min : "";

    if (lo[0] != '\0' && s->max[0] != '\0')
        snprintf(buf, len, "from %s to %s", lo, s->max);
    else if (lo[0] != '\0')
        snprintf(buf, len, "from %s", lo);
    else if (s->max[0] != '\0')
        snprintf(buf, len, "up to %s", s->max);
    else
        snprintf(buf, len, "unbounded");
    return buf;
}

static void setting_kv(FILE *f, const shoal_info_setting_t *s)
{
    const char *n = s->name;

    shoal_info_kv(f, "setting", "%s:value:%s", n, s->value != NULL ? s->value : s->dflt);
    shoal_info_kv(f, "setting", "%s:source:%s", n, s->value != NULL ? s->source : "default");
    shoal_info_kv(f, "setting", "%s:default:%s", n, s->dflt);
    if (s->min[0] != '\0')
        shoal_info_kv(f, "setting", "%s:min:%s", n, s->min);
    if (s->max[0] != '\0')
        shoal_info_kv(f, "setting", "%s:max:%s", n, s->max);
    shoal_info_kv(f, "setting", "%s:kind:%s", n, s->kind);
    shoal_info_kv(f, "setting", "%s:category:%s", n, category_names[s->category]);
    if (s->alias != NULL)
        shoal_info_kv(f, "setting", "%s:alias:%s", n, s->alias);
    if (s->accepts[0] != '\0')
        shoal_info_kv(f, "setting", "%s:accepts:%s", n, s->accepts);
    if (s->error[0] != '\0')
        shoal_info_kv(f, "setting", "%s:error:%s", n, s->error);
    shoal_info_kv(f, "setting", "%s:help:%s", n, s->help);
}

void shoal_info_setting_print(FILE *f, const shoal_info_setting_t *s, int parsable)
{
    char bytes[48], range[96];

    if (parsable) {
        setting_kv(f, s);
        return;
    }
    fprintf(f, "%s\n", s->name);
    if (s->value == NULL)
        shoal_info_line(f, "value", "%s%s (the default: %s is not set)", s->dflt,
                        as_bytes(bytes, sizeof(bytes), s, s->dflt), s->name);
    else
        shoal_info_line(f, "value", "%s%s (from the environment: %s=%s)", s->value,
                        as_bytes(bytes, sizeof(bytes), s, s->value), s->source, s->value);
    if (s->error[0] != '\0')
        shoal_info_line(f, "error", "%s; shmem_init stops on it", s->error);
    shoal_info_line(f, "default", "%s%s", s->dflt, as_bytes(bytes, sizeof(bytes), s, s->dflt));
    if (s->ranged)
        shoal_info_line(f, "range", "%s", range_words(range, sizeof(range), s));
    if (s->accepts[0] != '\0')
        shoal_info_line(f, "accepts", "%s", s->accepts);
    shoal_info_line(f, "category", "%s", category_titles[s->category]);
    if (s->alias != NULL)
        shoal_info_line(f, "alias", "%s (deprecated; read when %s is unset)", s->alias, s->name);
    shoal_info_line(f, "help", "%s", s->help);
}

void shoal_info_settings_print(FILE *f, int parsable)
{
    size_t i;

    if (parsable) {
        for (i = 0; i < shoal_info_settings_count(); i++)
            setting_kv(f, shoal_info_setting_at(i));
        return;
    }
    fprintf(f, "Settings (as SHMEM_INFO=1 prints them at start-up):\n");
    shoal_env_print(f, shoal_info_settings_values());
}

/* Unknown SHMEM_*, SHOAL_* and SMA_* variables, through the library's own check. */
static void unknown_print(FILE *f, int parsable)
{
    char name[128], near[128];
    int n;

    near[0] = '\0';
    n = shoal_env_unknown(NULL, name, sizeof(name), near, sizeof(near));
    if (n == 0)
        return;
    if (parsable) {
        shoal_info_kv(f, "environment", "unknown_count:%d", n);
        shoal_info_kv(f, "environment", "unknown:%s", name);
        if (near[0] != '\0')
            shoal_info_kv(f, "environment", "unknown_near:%s", near);
        return;
    }
    shoal_info_line(f, "unknown", "%s is no setting of Shoal's%s%s%s%s", name,
                    near[0] ? " (did you mean " : "", near, near[0] ? "?)" : "",
                    n > 1 ? ", nor are others" : "");
}

void shoal_info_settings_summary(FILE *f, int parsable)
{
    size_t i, n = shoal_info_settings_count();
    int set = 0;

    if (parsable)
        shoal_info_kv(f, "settings", "count:%zu", n);
    else
        fprintf(f, "Environment:\n");
    for (i = 0; i < n; i++) {
        const shoal_info_setting_t *s = shoal_info_setting_at(i);

        if (s->value == NULL)
            continue;
        set++;
        if (parsable)
            shoal_info_kv(f, "environment", "set:%s=%s", s->source, s->value);
        else
            shoal_info_line(f, "set", "%s=%s%s", s->source, s->value,
                            s->error[0] ? " (rejected)" : "");
    }
    if (set == 0 && !parsable)
        shoal_info_line(f, "set", "none: every setting has its default");
    for (i = 0; i < n; i++) {
        const shoal_info_setting_t *s = shoal_info_setting_at(i);

        if (s->error[0] == '\0')
            continue;
        if (parsable)
            shoal_info_kv(f, "environment", "error:%s", s->error);
        else
            shoal_info_line(f, "error", "%s; shmem_init stops on it", s->error);
    }
    if (shoal_info_settings_error()[0] != '\0') {
        if (parsable)
            shoal_info_kv(f, "environment", "error:%s", shoal_info_settings_error());
        else
            shoal_info_line(f, "error", "%s; shmem_init stops on it", shoal_info_settings_error());
    }
    unknown_print(f, parsable);
}
