/* sgemm driver: seeded column-major A (m x k), B (n x k) and C (m x n) go through sgemm_nt,
 * C = alpha * A * B^T + beta * C, one 128-thread block per 128 x 16 tile of C; every element of C is
 * compared with a CPU double-precision product (error relative to the largest |C|, tolerance in the detail). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

/* must match kernel.cu */
#define TILE_M 128
#define TILE_N 16
#define TILE_K 8

#define ALPHA 1.5f
#define BETA 0.5f
#define TOL 1e-5 /* on max |C - ref| / max |ref| */

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "sgemm: %s", msg);
    return SIMT_EINPUT;
}

/* Uniform in [-1, 1). */
static float uniform(uint32_t *seed)
{
    return (float)(simt_wl_rand(seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

static int launch(simt_gpu_t *gpu, simt_module_t *mod, int m, int n, int k, const simt_devptr_t *dev,
                  simt_error_t *err)
{
    float alpha = ALPHA, beta = BETA;
    simt_launch_t l = {
        .grid = { (uint32_t)(m / TILE_M), (uint32_t)(n / TILE_N), 1 },
        .block = { TILE_M, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(m),     SIMT_ARG(dev[1]), SIMT_ARG(n),   SIMT_ARG(dev[2]),
                          SIMT_ARG(m),      SIMT_ARG(k),     SIMT_ARG(alpha),  SIMT_ARG(beta) };
    int rc = simt_launch_kernel(gpu, mod, "sgemm_nt", &l, args, 9, err);
    return rc != SIMT_OK ? rc : simt_synchronize(gpu, err);
}

static int run_sgemm(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                     simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 2008, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int m, n, k;
    if (strcmp(size, "small") == 0)
        m = 512, n = 320, k = 128;   /* 4 x 20 = 80 CTAs: every SM full at 5 CTAs */
    else if (strcmp(size, "paper") == 0)
        m = 1024, n = 1056, k = 992; /* Parboil sgemm's medium input: 8 x 66 = 528 CTAs */
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t na = (size_t)m * k, nb = (size_t)n * k, nc = (size_t)m * n;
    float *a = malloc(na * sizeof(float)), *b = malloc(nb * sizeof(float));
    float *c = malloc(nc * sizeof(float)), *out = malloc(nc * sizeof(float));
    double *brow = malloc((size_t)k * sizeof(double));
    simt_devptr_t dev[3] = { 0 };
    int rc = SIMT_OK;
    if (!a || !b || !c || !out || !brow) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < na; i++)
        a[i] = uniform(&seed);
    for (size_t i = 0; i < nb; i++)
        b[i] = uniform(&seed);
    for (size_t i = 0; i < nc; i++)
        c[i] = uniform(&seed);
    if ((rc = simt_wl_upload(gpu, a, na * sizeof(float), &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, b, nb * sizeof(float), &dev[1], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, c, nc * sizeof(float), &dev[2], err)) != SIMT_OK ||
        (rc = launch(gpu, mod, m, n, k, dev, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[2], nc * sizeof(float), err)) != SIMT_OK)
        goto done;
    double worst = 0.0, span = 0.0;
    for (int j = 0; j < n; j++) {
        for (int l = 0; l < k; l++)
            brow[l] = b[j + (size_t)l * n];
        for (int i = 0; i < m; i++) {
            double s = 0.0;
            for (int l = 0; l < k; l++)
                s += (double)a[i + (size_t)l * m] * brow[l];
            double ref = (double)ALPHA * s + (double)BETA * c[i + (size_t)j * m];
            double e = fabs(out[i + (size_t)j * m] - ref);
            worst = e > worst || isnan(e) ? e : worst;
            span = fmax(span, fabs(ref));
        }
    }
    double rel = worst / (span > 0 ? span : 1);
    res->passed = rel <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "m=%d n=%d k=%d, grid %dx%d of 128: max |C| %.1f, max rel err %.2e (tol %.0e)", m, n, k,
             m / TILE_M, n / TILE_N, span, rel, TOL);
done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(a);
    free(b);
    free(c);
    free(out);
    free(brow);
    return rc;
}

SIMT_WORKLOAD(sgemm, "sgemm NT, C = alpha A B^T + beta C, 16 accumulators/thread, 8x16 B slice in shared",
              "workloads/sgemm/kernel.ptx", run_sgemm);
