/* args.c: numbers on the command line.  Only plain decimal is accepted
 * (no sign, no hex, no octal reading of a leading 0, no exponent, no inf or
 * nan), so that what a user types means what it looks like. */
#include <stdlib.h>

#include "cli/cli.h"

int cli_parse_seconds(const char *s, double *out)
{
    int digits = 0, dots = 0;
    for (const char *p = s; *p; p++) {
        if (*p >= '0' && *p <= '9')
            digits++;
        else if (*p == '.' && !dots)
            dots++;
        else
            return 0;
    }
    if (!digits)
        return 0;
    double v = strtod(s, NULL);
    if (!(v > 0) || v > 1e9)
        return 0;
    *out = v;
    return 1;
}
