/* workload_util.c: what workload drivers share (workload.h): their --param
 * knobs, a seeded random sequence, device-memory helpers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "simt/workload.h"

/* Notes that the driver asked for `key` and read entry i (or none, -1). */
static void note(simt_wl_param_log_t *log, const char *key, int i)
{
    if (i >= 0)
        log->read |= 1u << i;
    for (int j = 0; j < log->nasked; j++)
        if (strcmp(log->asked[j], key) == 0)
            return;
    if (log->nasked < 32)
        log->asked[log->nasked++] = key;
}

const char *simt_wl_param_str(const simt_wl_params_t *p, const char *key,
                              const char *def)
{
    int i = p ? p->count - 1 : -1;
    for (; i >= 0; i--)
        if (strcmp(p->key[i], key) == 0)
            break;
    if (p && p->log)
        note(p->log, key, i);
    if (i >= 0) {
        /* an earlier --param of the same key is overridden: read too */
        for (int j = 0; p->log && j < i; j++)
            if (strcmp(p->key[j], key) == 0)
                p->log->read |= 1u << j;
        return p->value[i];
    }
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
    /* decimal only: 010 is ten, 0x10 is not a number here */
    int digits = v[0] == '-' ? v[1] != '\0' : v[0] != '\0';
    for (const char *c = v + (v[0] == '-'); *c && digits; c++)
        digits = *c >= '0' && *c <= '9';
    long n = digits ? strtol(v, &end, 10) : 0;
    if (!digits || errno || *end) {
        char shown[160];
        set_error(err, SIMT_EINPUT, "--param %s=%s: error: not an integer (decimal digits only)",
                  key, printable(v, 100, shown, sizeof shown));
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

uint32_t simt_wl_rand(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

int simt_wl_release(simt_gpu_t *gpu, const simt_devptr_t *p, int n, int rc,
                    simt_error_t *err)
{
    for (int k = 0; k < n; k++) {
        simt_error_t tmp;
        if (p[k] && simt_free(gpu, p[k], &tmp) != SIMT_OK && rc == SIMT_OK) {
            *err = tmp;
            rc = tmp.status ? tmp.status : SIMT_EFAULT;
        }
    }
    return rc;
}

int simt_wl_upload(simt_gpu_t *gpu, const void *src, size_t bytes,
                   simt_devptr_t *dst, simt_error_t *err)
{
    int rc = simt_malloc(gpu, bytes, dst, err);
    return rc != SIMT_OK ? rc : simt_memcpy_htod(gpu, *dst, src, bytes, err);
}
