/* workload_util.c: what workload drivers share (workload.h): their --param
 * knobs, a seeded random sequence, device-memory helpers. */
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
