/* Logging: every line is prefixed "[host:pid:pe]"; the level is checked before
 * the arguments are evaluated. The fatal routines end the whole job through the
 * hook the runtime installs (PMIx abort), so the error is never lost or hung. */
#ifndef SHOAL_LOG_H
#define SHOAL_LOG_H

#include <stdarg.h>

enum {
    SHOAL_LOG_ERROR = 0,
    SHOAL_LOG_WARN = 1,
    SHOAL_LOG_INFO = 2,
    SHOAL_LOG_DEBUG = 3,
};

extern int shoal_log_level;

typedef void (*shoal_log_abort_cb_t)(int status, const char *message);

void shoal_log_set_pe(int pe);
void shoal_log_set_abort_cb(shoal_log_abort_cb_t cb);
/* on 1 / 0: this thread's log lines are dropped until the matching 0 (nests):
 * for a probe whose failure is an answer, not an error. Fatal lines still print. */
void shoal_log_mute(int on);
void shoal_log_print(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void shoal_log_vprint(int level, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* Prints one line on this PE and ends the job with a non-zero status. */
void shoal_log_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void shoal_log_vfatal(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0), noreturn));

#define shoal_log_at(level, ...)                                                                   \
    do {                                                                                           \
        if ((level) <= shoal_log_level)                                                            \
            shoal_log_print((level), __VA_ARGS__);                                                 \
    } while (0)

#define shoal_log_error(...) shoal_log_at(SHOAL_LOG_ERROR, __VA_ARGS__)
#define shoal_log_warn(...) shoal_log_at(SHOAL_LOG_WARN, __VA_ARGS__)
#define shoal_log_info(...) shoal_log_at(SHOAL_LOG_INFO, __VA_ARGS__)
#define shoal_log_debug(...) shoal_log_at(SHOAL_LOG_DEBUG, __VA_ARGS__)

#endif
