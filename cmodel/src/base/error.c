#include "base/error.h"

#include <stdio.h>
#include <string.h>

int set_verror(simt_error_t *err, int status, const char *fmt, va_list ap)
{
    if (!err || err->status != SIMT_OK)
        return status;
    err->status = status;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    return status;
}

int set_error(simt_error_t *err, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_verror(err, status, fmt, ap);
    va_end(ap);
    return status;
}

int set_input_error(simt_error_t *err, const char *file, unsigned line,
                    unsigned col, const char *fmt, ...)
{
    if (!err || err->status != SIMT_OK)
        return SIMT_EINPUT;
    char what[3072];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (line)
        return set_error(err, SIMT_EINPUT, "%s:%u:%u: error: %s", file, line,
                         col, what);
    return set_error(err, SIMT_EINPUT, "%s: error: %s", file, what);
}

void clear_error(simt_error_t *err)
{
    if (!err)
        return;
    err->status = SIMT_OK;
    err->msg[0] = '\0';
}

const char *printable(const char *s, size_t n, char *out, size_t size)
{
    size_t o = 0;
    for (size_t i = 0; i < n && s[i] && o + 5 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f)
            o += (size_t)snprintf(out + o, size - o, "\\x%02x", c);
        else
            out[o++] = (char)c;
    }
    out[o] = '\0';
    return out;
}
