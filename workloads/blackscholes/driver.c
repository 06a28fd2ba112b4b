/* blackscholes driver: European call and put prices for random options; software exp/log/CND on the
 * device, checked against the same formulas in double (libm exp/log) with a relative tolerance.
 * Two workloads share the kernel (a grid-stride loop, so the driver sets the shape): blackscholes
 * (768-thread blocks, the DWF thesis) and blk (128-thread CTAs, one option per thread, the
 * CTA-scheduling paper's BLK, 004 Table 2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define RATE 0.02f
#define VOL 0.30f
#define TOL 5e-5       /* on |gpu - ref| / max(|ref|, 1) */
#define UNDERFLOW_D 13.19 /* |d| beyond which -d*d/2 < -87: bs_exp's underflow branch */

typedef struct bs_data {
    int n;
    float *S, *X, *T, *call, *put;
} bs_data_t;

static float rng_uniform(uint32_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(simt_wl_rand(s) >> 8) * (1.0f / 16777216.0f);
}

static int fail(simt_error_t *err, const char *name, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "%s: %s", name, msg);
    return SIMT_EINPUT;
}

/* CUDA SDK option ranges: spot 5..30, strike 1..100, expiry 0.25..10 years. */
static void make_options(bs_data_t *d, uint32_t seed)
{
    for (int i = 0; i < d->n; i++) {
        d->S[i] = rng_uniform(&seed, 5.0f, 30.0f);
        d->X[i] = rng_uniform(&seed, 1.0f, 100.0f);
        d->T[i] = rng_uniform(&seed, 0.25f, 10.0f);
    }
}

static double ref_cnd(double d) /* Abramowitz-Stegun 26.2.17, as the kernel */
{
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double poly = k * (0.319381530 + k * (-0.356563782 + k * (1.781477937 +
                  k * (-1.821255978 + k * 1.330274429))));
    double w = 0.39894228040143267 * exp(-0.5 * d * d) * poly;
    return d > 0.0 ? 1.0 - w : w;
}

static void ref_price(double s, double x, double t, double *call, double *put, double *d1_out)
{
    double vs = VOL * sqrt(t);
    double d1 = (log(s / x) + (RATE + 0.5 * VOL * VOL) * t) / vs, d2 = d1 - vs;
    double c1 = ref_cnd(d1), c2 = ref_cnd(d2), xe = x * exp(-RATE * t);
    *call = s * c1 - xe * c2;
    *put = xe * (1.0 - c2) - s * (1.0 - c1);
    *d1_out = d1;
}

static double rel_err(float g, double r)
{
    return fabs((double)g - r) / fmax(fabs(r), 1.0);
}

static void check(const bs_data_t *d, simt_wl_result_t *res)
{
    double worst = 0.0;
    int at = 0, underflow = 0;
    for (int i = 0; i < d->n; i++) {
        double c, p, d1;
        ref_price(d->S[i], d->X[i], d->T[i], &c, &p, &d1);
        double e = fmax(rel_err(d->call[i], c), rel_err(d->put[i], p));
        if (!(e <= worst)) { /* also catches NaN */
            worst = e;
            at = i;
        }
        double d2 = d1 - VOL * sqrt(d->T[i]);
        underflow += fabs(d1) > UNDERFLOW_D || fabs(d2) > UNDERFLOW_D;
    }
    res->passed = worst <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "%d options, max rel err %.2e at %d (tol %.0e, on max(|ref|,1)); %d take the exp underflow path",
             d->n, worst, at, TOL, underflow);
}

static int launch(simt_gpu_t *gpu, simt_module_t *mod, uint32_t grid, uint32_t block, int n,
                  const simt_devptr_t *dev, simt_error_t *err)
{
    simt_launch_t l = {
        .grid = { grid, 1, 1 },
        .block = { block, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    float r = RATE, v = VOL;
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(dev[3]),
                          SIMT_ARG(dev[4]), SIMT_ARG(r), SIMT_ARG(v), SIMT_ARG(n) };
    int rc = simt_launch_kernel(gpu, mod, "black_scholes", &l, args, 8, err);
    return rc != SIMT_OK ? rc : simt_synchronize(gpu, err);
}

/* One shape of the workload: block size, and grid and option count per size. */
typedef struct bs_shape {
    const char *name;   /* the workload's, for error messages */
    uint32_t block;
    uint32_t grid_small, grid_paper;
    int n_small, n_paper;
} bs_shape_t;

/* blackscholes: the thesis machine's 768 threads per core, one block per core; the paper size
 * prices the SDK sample's 4,000,000 options on 16 blocks (12,288 threads). */
static const bs_shape_t BS_DWF = { "blackscholes", 768, 2, 16, 16384, 4000000 };
/* blk: 004 Table 2's 8192 CTAs of 128 threads, one option per thread (1,048,576 options); small
 * 16 CTAs (2,048 options). */
static const bs_shape_t BS_BLK = { "blk", 128, 16, 8192, 2048, 8192 * 128 };

static int run_shape(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                     simt_wl_result_t *res, simt_error_t *err, const bs_shape_t *shape)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 1973, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    uint32_t grid;
    bs_data_t d = { 0 };
    if (strcmp(size, "small") == 0) {
        grid = shape->grid_small;
        d.n = shape->n_small;
    } else if (strcmp(size, "paper") == 0) {
        grid = shape->grid_paper;
        d.n = shape->n_paper;
    } else {
        return fail(err, shape->name, "param size must be small or paper");
    }
    size_t bytes = (size_t)d.n * sizeof(float);
    d.S = malloc(bytes), d.X = malloc(bytes), d.T = malloc(bytes);
    d.call = malloc(bytes), d.put = malloc(bytes);
    simt_devptr_t dev[5] = { 0 };
    int rc = SIMT_OK;
    if (!d.S || !d.X || !d.T || !d.call || !d.put) {
        rc = fail(err, shape->name, "host out of memory");
        goto done;
    }
    make_options(&d, (uint32_t)seed_l);
    if ((rc = simt_wl_upload(gpu, d.S, bytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, d.X, bytes, &dev[1], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, d.T, bytes, &dev[2], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &dev[3], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &dev[4], err)) != SIMT_OK ||
        (rc = launch(gpu, mod, grid, shape->block, d.n, dev, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, d.call, dev[3], bytes, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, d.put, dev[4], bytes, err)) != SIMT_OK)
        goto done;
    check(&d, res);
done:
    rc = simt_wl_release(gpu, dev, 5, rc, err);
    free(d.S);
    free(d.X);
    free(d.T);
    free(d.call);
    free(d.put);
    return rc;
}

static int run_blackscholes(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                            simt_wl_result_t *res, simt_error_t *err)
{
    return run_shape(gpu, mod, params, res, err, &BS_DWF);
}

static int run_blk(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                   simt_error_t *err)
{
    return run_shape(gpu, mod, params, res, err, &BS_BLK);
}

SIMT_WORKLOAD(blackscholes, "European options, software exp/log/CND subroutines (DWF Black-Scholes)",
              "workloads/blackscholes/kernel.ptx", run_blackscholes);
SIMT_WORKLOAD(blk, "Black-Scholes, 1D CTAs of 128, one option per thread, streaming (004 BLK)",
              "workloads/blackscholes/kernel.ptx", run_blk);
