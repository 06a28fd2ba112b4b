/* srad004 driver: the SRAD coefficient kernel (srad004_coef, 16x16 CTAs) on a seeded speckled image
 * J = exp(I), I uniform in [0, 1) with brighter square patches; q0^2 = var / mean^2 of the whole image
 * (host).  The four differences are checked against a CPU double computation (abs error, J in [1, e^1.5))
 * and c against the same formulas in double (abs error; c lies in [0, 1]). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BS 16
#define TOL_D 1e-6 /* differences */
#define TOL_C 1e-4 /* diffusion coefficient */

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "srad004: %s", msg);
    return SIMT_EINPUT;
}

static void track(double *worst, float got, double want)
{
    double e = fabs(got - want);
    *worst = e > *worst || isnan(e) ? e : *worst;
}

static int run_srad004(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                       simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 16384, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int rows, cols;
    if (strcmp(size, "small") == 0)
        rows = 32, cols = 64;      /* 4 x 2 = 8 CTAs */
    else if (strcmp(size, "paper") == 0)
        rows = 2048, cols = 2048;  /* 128 x 128 = 16384 CTAs of 16x16 (004 Table 2) */
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t n = (size_t)rows * cols, bytes = n * sizeof(float);
    float *J = malloc(bytes), *out[5] = { malloc(bytes), malloc(bytes), malloc(bytes), malloc(bytes), malloc(bytes) };
    simt_devptr_t dev[6] = { 0 };
    int rc = SIMT_OK;
    if (!J || !out[0] || !out[1] || !out[2] || !out[3] || !out[4]) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    double sum = 0.0, sum2 = 0.0;
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            double u = (double)(simt_wl_rand(&seed) >> 8) / 16777216.0;
            if ((x / 24 + y / 24) % 3 == 0)
                u += 0.5; /* brighter patches: edges for the coefficient to see */
            J[(size_t)y * cols + x] = (float)exp(u);
            sum += J[(size_t)y * cols + x];
            sum2 += (double)J[(size_t)y * cols + x] * J[(size_t)y * cols + x];
        }
    double mean = sum / (double)n, var = sum2 / (double)n - mean * mean;
    float q0sqr = (float)(var / (mean * mean));
    if ((rc = simt_wl_upload(gpu, J, bytes, &dev[0], err)) != SIMT_OK)
        goto done;
    for (int k = 1; k < 6; k++)
        if ((rc = simt_malloc(gpu, bytes, &dev[k], err)) != SIMT_OK)
            goto done;
    simt_launch_t l = { .grid = { (uint32_t)(cols / BS), (uint32_t)(rows / BS), 1 }, .block = { BS, BS, 1 } };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(dev[3]), SIMT_ARG(dev[4]),
                          SIMT_ARG(dev[5]), SIMT_ARG(rows), SIMT_ARG(cols), SIMT_ARG(q0sqr) };
    if ((rc = simt_launch_kernel(gpu, mod, "srad004_coef", &l, args, 9, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK)
        goto done;
    for (int k = 0; k < 5; k++)
        if ((rc = simt_memcpy_dtoh(gpu, out[k], dev[k + 1], bytes, err)) != SIMT_OK)
            goto done;
    double ed = 0.0, ec = 0.0, q0 = q0sqr;
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            size_t i = (size_t)y * cols + x;
            double jc = J[i];
            double d[4] = { J[(size_t)(y > 0 ? y - 1 : 0) * cols + x] - jc,
                            J[(size_t)(y < rows - 1 ? y + 1 : y) * cols + x] - jc,
                            J[(size_t)y * cols + (x > 0 ? x - 1 : 0)] - jc,
                            J[(size_t)y * cols + (x < cols - 1 ? x + 1 : x)] - jc };
            double g2 = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]) / (jc * jc);
            double lp = (d[0] + d[1] + d[2] + d[3]) / jc;
            double num = 0.5 * g2 - lp * lp / 16.0, den = 1.0 + 0.25 * lp;
            double q = num / (den * den);
            double c = 1.0 / (1.0 + (q - q0) / (q0 * (1.0 + q0)));
            c = c < 0.0 ? 0.0 : c > 1.0 ? 1.0 : c;
            track(&ec, out[0][i], c);
            for (int k = 0; k < 4; k++)
                track(&ed, out[k + 1][i], d[k]);
        }
    res->passed = ed <= TOL_D && ec <= TOL_C;
    snprintf(res->detail, sizeof res->detail,
             "%dx%d image, %ux%u CTAs of 16x16, q0^2 %.4f: differences max abs err %.2e (tol %.0e), c max abs err "
             "%.2e (tol %.0e)", cols, rows, l.grid.x, l.grid.y, q0, ed, TOL_D, ec, TOL_C);
done:
    rc = simt_wl_release(gpu, dev, 6, rc, err);
    free(J);
    for (int k = 0; k < 5; k++)
        free(out[k]);
    return rc;
}

SIMT_WORKLOAD(srad004, "SRAD derivatives + diffusion coefficient, 16x16 CTAs with a shared halo tile (004 SRAD shape)",
              "workloads/srad004/kernel.ptx", run_srad004);
