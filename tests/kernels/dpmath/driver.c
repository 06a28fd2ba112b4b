/* dpmath driver: double-precision fma/Horner, Newton cube root, sqrt and division; tolerance 1e-12. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BLOCK 128u
#define NOUT 4   /* doubles written per element, must match kernel.cu */
#define TOL 1e-12

static int host_oom(simt_error_t *err)
{
    err->status = SIMT_EINPUT;
    strcpy(err->msg, "dpmath: host out of memory");
    return SIMT_EINPUT;
}

/* Reference values for element i; the cube root is checked against libm cbrt(), not a Newton mirror. */
static void ref_elem(double v, int i, double *o)
{
    double p = 0.5;
    p = fma(p, v, -1.25);
    p = fma(p, v, 2.0);
    p = fma(p, v, -0.75);
    p = fma(p, v, 3.5);
    o[0] = p;
    o[1] = cbrt(v);
    o[2] = sqrt(v) / (1.0 + v);
    o[3] = fmax(fmin(p, 10.0), -10.0) + (double)(i % 17) * 0.125;
}

static int run_dpmath(simt_gpu_t *gpu, simt_module_t *mod,
                      const simt_wl_params_t *params, simt_wl_result_t *res,
                      simt_error_t *err)
{
    long n_l, seed_l;
    if (simt_wl_param_int(params, "n", 2000, 1, 1L << 22, &n_l, err) != 0 ||
        simt_wl_param_int(params, "seed", 8086, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int n = (int)n_l;
    uint32_t seed = (uint32_t)seed_l;
    size_t inbytes = (size_t)n * sizeof(double), outbytes = inbytes * NOUT;

    double *x = malloc(inbytes), *out = malloc(outbytes);
    simt_devptr_t dev[2] = { 0, 0 };
    int rc = SIMT_OK;
    if (!x || !out) {
        rc = host_oom(err);
        goto done;
    }
    for (int i = 0; i < n; i++) { /* 53-bit uniform in [0.5, 4.0) */
        uint64_t hi = simt_wl_rand(&seed) >> 5, lo = simt_wl_rand(&seed) >> 6;
        double u = (double)((hi << 26) | lo) / 9007199254740992.0;
        x[i] = 0.5 + 3.5 * u;
    }

    if ((rc = simt_malloc(gpu, inbytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, outbytes, &dev[1], err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev[0], x, inbytes, err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[1], 0, outbytes, err)) != SIMT_OK)
        goto done;

    simt_launch_t launch = {
        .grid = { ((uint32_t)n + BLOCK - 1) / BLOCK, 1, 1 },
        .block = { BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(n) };
    if ((rc = simt_launch_kernel(gpu, mod, "dpmath", &launch, args, 3, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[1], outbytes, err)) != SIMT_OK)
        goto done;

    /* Relative error, absolute where |ref| < 1. */
    static const char *const field[NOUT] = { "horner", "cbrt", "sqrt/div", "clamp" };
    double max_err = 0.0, bad_ref = 0.0;
    long bad = -1;
    int nbad = 0;
    for (int i = 0; i < n; i++) {
        double ref[NOUT];
        ref_elem(x[i], i, ref);
        for (int k = 0; k < NOUT; k++) {
            double g = out[(size_t)i * NOUT + (size_t)k];
            double scale = fabs(ref[k]) > 1.0 ? fabs(ref[k]) : 1.0;
            double e = fabs(g - ref[k]) / scale;
            if (!(e <= TOL)) { /* also catches NaN */
                if (nbad++ == 0) {
                    bad = (long)i * NOUT + k;
                    bad_ref = ref[k];
                }
            }
            if (e > max_err || e != e)
                max_err = e;
        }
    }
    res->passed = nbad == 0;
    if (res->passed)
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, grid=%u x %u, max rel err %.2e (tol %.0e)", n,
                 launch.grid.x, BLOCK, max_err, TOL);
    else
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, %d mismatches, first x[%ld]=%.17g %s = %.17g expected %.17g, max rel err %.2e (tol %.0e)",
                 n, nbad, bad / NOUT, x[bad / NOUT], field[bad % NOUT], out[bad],
                 bad_ref, max_err, TOL);

done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(x);
    free(out);
    return rc;
}

SIMT_WORKLOAD(dpmath, "double-precision fma, division, sqrt and Newton iteration",
              "tests/kernels/dpmath/kernel.ptx", run_dpmath);
