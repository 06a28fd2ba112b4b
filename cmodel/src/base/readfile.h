/* readfile.h: reading an input file (configuration, PTX) whole, safely.
 *
 * The file must be a regular file (a directory, a FIFO, a device such as
 * /dev/zero or a terminal is refused: reading it could block or never
 * end), and at most `max_bytes` long, checked before reading and again
 * while reading (a file that grows).  The buffer ends with a NUL byte not
 * counted in *len.  Errors are SIMT_EINPUT "PATH: error: ..." naming the
 * `what` ("configuration file", "PTX file"). */
#ifndef BASE_READFILE_H
#define BASE_READFILE_H

#include <stddef.h>

#include "simt/simt.h"

int read_input_file(const char *path, const char *what, size_t max_bytes,
                    char **buf, size_t *len, simt_error_t *err);

#endif
