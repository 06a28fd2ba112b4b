/* vecadd driver: c = a + b on n floats (n not a multiple of the block size). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BLOCK 256u

static float rng_float(uint32_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(simt_wl_rand(s) >> 8) / 16777216.0f;
}

static int host_oom(simt_error_t *err)
{
    err->status = SIMT_EINPUT;
    strcpy(err->msg, "vecadd: host out of memory");
    return SIMT_EINPUT;
}

static int run_vecadd(simt_gpu_t *gpu, simt_module_t *mod,
                      const simt_wl_params_t *params, simt_wl_result_t *res,
                      simt_error_t *err)
{
    long n_l, seed_l;
    if (simt_wl_param_int(params, "n", 5000, 1, 1L << 22, &n_l, err) != 0 ||
        simt_wl_param_int(params, "seed", 12345, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int n = (int)n_l;
    uint32_t seed = (uint32_t)seed_l;
    size_t bytes = (size_t)n * sizeof(float);

    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    simt_devptr_t dev[3] = { 0, 0, 0 };
    int rc = SIMT_OK;
    if (!a || !b || !c) {
        rc = host_oom(err);
        goto done;
    }
    for (int i = 0; i < n; i++) {
        a[i] = rng_float(&seed, -100.0f, 100.0f);
        b[i] = rng_float(&seed, -100.0f, 100.0f);
    }

    if ((rc = simt_malloc(gpu, bytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &dev[2], err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev[0], a, bytes, err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev[1], b, bytes, err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[2], 0, bytes, err)) != SIMT_OK)
        goto done;

    simt_launch_t launch = {
        .grid = { ((uint32_t)n + BLOCK - 1) / BLOCK, 1, 1 },
        .block = { BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(n) };
    if ((rc = simt_launch_kernel(gpu, mod, "vecadd", &launch, args, 4, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, c, dev[2], bytes, err)) != SIMT_OK)
        goto done;

    /* CPU reference; relative error, absolute where |ref| < 1. */
    double max_err = 0.0;
    int bad = -1;
    for (int i = 0; i < n; i++) {
        float ref = a[i] + b[i];
        double d = fabs((double)c[i] - (double)ref);
        double scale = fabs((double)ref) > 1.0 ? fabs((double)ref) : 1.0;
        double e = d / scale;
        if (!(e <= 1e-5) && bad < 0) /* also catches NaN */
            bad = i;
        if (e > max_err || e != e)
            max_err = e;
    }
    res->passed = bad < 0;
    if (bad < 0)
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, grid=%u x %u, max rel err %.2e (tol 1e-5)", n,
                 launch.grid.x, BLOCK, max_err);
    else
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, first mismatch c[%d]=%.9g expected %.9g, max rel err %.2e (tol 1e-5)",
                 n, bad, (double)c[bad], (double)(a[bad] + b[bad]), max_err);

done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(a);
    free(b);
    free(c);
    return rc;
}

SIMT_WORKLOAD(vecadd, "float vector add", "tests/kernels/vecadd/kernel.ptx", run_vecadd);
