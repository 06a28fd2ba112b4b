/* workload_params.c: reading a workload's --param knobs (workload.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "simt/workload.h"

const char *simt_wl_param_str(const simt_wl_params_t *p, const char *key,
                              const char *def)
{
    for (int i = p ? p->count - 1 : -1; i >= 0; i--)
        if (strcmp(p->key[i], key) == 0)
            return p->value[i];
    return def;
}

int simt_wl_param_int(const simt_wl_params_t *p, const char *key, long def,
                      long lo, long hi, long *out, simt_error_t *err)
{
    const char *v = simt_wl_param_str(p, key, NULL);
    if (!v) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    long n = strtol(v, &end, 0);
    if (errno || end == v || *end) {
        set_error(err, SIMT_EINPUT, "--param %s=%s: error: not an integer", key, v);
        return -1;
    }
    if (n < lo || n > hi) {
        set_error(err, SIMT_EINPUT, "--param %s=%ld: error: out of range [%ld, %ld]",
                  key, n, lo, hi);
        return -1;
    }
    *out = n;
    return 0;
}
