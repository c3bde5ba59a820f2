/* shoal_info: prints what this Shoal is and how it would be set up here, as Open MPI's
 * ompi_info does. Options and output only; it must never call shmem_init or need a
 * job: it reads the settings table, config.h and the libraries' versions. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "shoal_info.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

#define MAX_PARAMS 64

static const char usage[] =
    "Usage: shoal_info [--all] [--param NAME]... [--parsable] [--help] [--version]\n"
    "Print Shoal's version, build, transports and settings. Starts no job.\n"
    "\n"
    "  (no option)        version, install prefix, build, transports, and which\n"
    "                     settings the environment sets\n"
    "  -a, --all          everything: directories, full build flags, and every\n"
    "                     setting with its value, default, range and help\n"
    "  -p, --param NAME   one setting: its value here, default, range, accepted\n"
    "                     values and help (repeatable); an unknown NAME is an\n"
    "                     error, exit status 2, naming the closest setting\n"
    "      --parsable     one key:value per line (version:0.1.0,\n"
    "                     setting:SHOAL_TEAMS_MAX:default:64): everything, or the\n"
    "                     --param settings\n"
    "  -h, --help         print this help and exit\n"
    "  -V, --version      print the version and exit\n"
    "\n"
    "Exit status: 0, also when a setting's value is one shmem_init would stop on\n"
    "(it is reported); 1 when the output cannot be written; 2 for a wrong option\n"
    "or an unknown setting.\n";

void shoal_info_kv(FILE *f, const char *key, const char *fmt, ...)
{
    char *value = NULL, *p;
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vasprintf(&value, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    /* one line per key, whatever a flag or a help text holds */
    for (p = value; *p != '\0'; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    fprintf(f, "%s:%s\n", key, value);
    free(value);
}

void shoal_info_line(FILE *f, const char *label, const char *fmt, ...)
{
    char key[64];
    va_list ap;

    snprintf(key, sizeof(key), "%s%s", label, label[0] != '\0' ? ":" : "");
    fprintf(f, "  %-15s", key);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
}

/* --param NAME...: each, or one line naming the first unknown one and exit 2. */
static int params_print(FILE *f, char **names, int n, int parsable)
{
    const shoal_info_setting_t *rows[MAX_PARAMS];
    char near[128];
    int i;

    for (i = 0; i < n; i++) {
        rows[i] = shoal_info_setting_find(names[i], near, sizeof(near));
        if (rows[i] == NULL) {
            fprintf(stderr, "shoal_info: %s is no setting of Shoal's%s%s%s\n", names[i],
                    near[0] ? "; did you mean " : " (shoal_info --all lists them)", near,
                    near[0] ? "?" : "");
            return SHOAL_INFO_EXIT_USAGE;
        }
    }
    for (i = 0; i < n; i++) {
        if (i > 0 && !parsable)
            fputc('\n', f);
        shoal_info_setting_print(f, rows[i], parsable);
    }
    return SHOAL_INFO_EXIT_OK;
}

static void summary_print(FILE *f, int all, int parsable)
{
    shoal_info_version_print(f, parsable);
    shoal_info_build_print(f, all, parsable);
    shoal_info_transports_print(f, parsable);
    if (all || parsable)
        shoal_info_settings_print(f, parsable);
    else
        fprintf(f, "Settings: %zu (--all lists them, --param NAME shows one)\n",
                shoal_info_settings_count());
    shoal_info_settings_summary(f, parsable);
}

int main(int argc, char **argv)
{
    enum { OPT_PARSABLE = 256 };
    static const struct option options[] = {
        {"all", no_argument, NULL, 'a'},
        {"param", required_argument, NULL, 'p'},
        {"parsable", no_argument, NULL, OPT_PARSABLE},
        {"parseable", no_argument, NULL, OPT_PARSABLE}, /* ompi_info takes both */
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    char *params[MAX_PARAMS];
    int all = 0, parsable = 0, n_params = 0, c, status = SHOAL_INFO_EXIT_OK;

    while ((c = getopt_long(argc, argv, "ap:hV", options, NULL)) != -1) {
        switch (c) {
        case 'a':
            all = 1;
            break;
        case 'p':
            if (n_params == MAX_PARAMS) {
                fprintf(stderr, "shoal_info: more than %d --param options\n", MAX_PARAMS);
                return SHOAL_INFO_EXIT_USAGE;
            }
            params[n_params++] = optarg;
            break;
        case OPT_PARSABLE:
            parsable = 1;
            break;
        case 'h':
            fputs(usage, stdout);
            return SHOAL_INFO_EXIT_OK;
        case 'V':
            printf("shoal_info (Shoal) %s\n", PACKAGE_VERSION);
            return SHOAL_INFO_EXIT_OK;
        default:
            fprintf(stderr, "shoal_info: see shoal_info --help\n");
            return SHOAL_INFO_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "shoal_info: unexpected argument '%s'; see shoal_info --help\n",
                argv[optind]);
        return SHOAL_INFO_EXIT_USAGE;
    }
    shoal_info_settings_load();
    if (n_params > 0)
        status = params_print(stdout, params, n_params, parsable);
    else
        summary_print(stdout, all, parsable);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "shoal_info: cannot write the output: %m\n");
        return SHOAL_INFO_EXIT_FAIL;
    }
    return status;
}
