/* error.h: filling a simt_error_t, and showing user text in messages. */
#ifndef BASE_ERROR_H
#define BASE_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#include "simt/simt.h"

/* Sets err->status and err->msg (printf-style); returns the status so that
 * callers can write `return set_error(err, SIMT_EINPUT, ...)`.  A NULL err is
 * allowed.  Only the first error is kept: later calls do not overwrite it. */
int set_error(simt_error_t *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int set_verror(simt_error_t *err, int status, const char *fmt, va_list ap);

/* "file:line:col: error: ..." with status SIMT_EINPUT. */
int set_input_error(simt_error_t *err, const char *file, unsigned line,
                    unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

void clear_error(simt_error_t *err);

/* Copies `s` (at most n bytes, or up to its NUL when n is (size_t)-1) into
 * out[size] with every control byte and DEL written as \xNN, so that an
 * error message never sends raw control bytes to a terminal. */
const char *printable(const char *s, size_t n, char *out, size_t size);


#endif
