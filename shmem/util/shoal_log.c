/* Log lines and the one fatal path. Must not depend on anything above util/:
 * the runtime hands in its abort routine through shoal_log_set_abort_cb. */
#include "shoal_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int shoal_log_level = SHOAL_LOG_WARN;

static int log_pe = -1;
static shoal_log_abort_cb_t log_abort_cb;

void shoal_log_set_pe(int pe)
{
    log_pe = pe;
}

void shoal_log_set_abort_cb(shoal_log_abort_cb_t cb)
{
    log_abort_cb = cb;
}

static void log_vline(const char *fmt, va_list ap, char *out, size_t len)
{
    int saved_errno = errno; /* for %m in fmt */
    char host[64];
    int n;

    if (gethostname(host, sizeof(host)) != 0)
        strcpy(host, "?");
    host[sizeof(host) - 1] = '\0';
    if (log_pe >= 0)
        n = snprintf(out, len, "[%s:%d:%d] ", host, (int)getpid(), log_pe);
    else
        n = snprintf(out, len, "[%s:%d:-] ", host, (int)getpid());
    if (n < 0 || (size_t)n >= len)
        n = 0;
    errno = saved_errno;
    vsnprintf(out + n, len - n, fmt, ap);
}

static __thread int muted;

void shoal_log_mute(int on)
{
    muted += on ? 1 : -1;
}

void shoal_log_vprint(int level, const char *fmt, va_list ap)
{
    char line[1024];

    if (muted > 0)
        return;
    log_vline(fmt, ap, line, sizeof(line));
    fprintf(stderr, "%s\n", line);
    (void)level;
}

void shoal_log_print(int level, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    shoal_log_vprint(level, fmt, ap);
    va_end(ap);
}

void shoal_log_vfatal(const char *fmt, va_list ap)
{
    char line[1024];

    log_vline(fmt, ap, line, sizeof(line));
    fprintf(stderr, "%s\n", line);
    fflush(stderr);
    /* The line is printed: the launcher need not repeat it. */
    if (log_abort_cb != NULL)
        log_abort_cb(1, "");
    _exit(1);
}

void shoal_log_fatal(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    shoal_log_vfatal(fmt, ap); /* does not return: no va_end */
}
