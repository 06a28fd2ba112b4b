/* conv driver: separable convolution (radius 8) of a seeded image, rows pass then columns pass, repeated
 * `iters` times on the same input (the SDK harness's warm-up plus timed iterations), as 2 launches each.
 * Small: a 64x32 image, 1 iteration (2 launches of 16 CTAs).  Paper: a 512x136 image, 17 iterations = 34
 * launches of 32x17 = 544 CTAs of 16x8 (18,496 CTAs; reference/004 Table 2 prints 18,432, which no 34
 * equal launches give: docs/workloads.md).  Checked against a double CPU reference of both passes with the
 * error scaled by the sum of |coefficient x input| products that form the output (the f32 rounding bound). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define R 8          /* filter radius (kernel.cu) */
#define BX 16        /* CTA width (kernel.cu) */
#define BY 8         /* CTA height (kernel.cu) */
#define TOL 1e-5     /* on |gpu - ref| / sum |k| |x| over the output's terms */

typedef struct conv_dims {
    int w, h, iters;
} conv_dims_t;

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "conv: %s", msg);
    return SIMT_EINPUT;
}

/* One pass in double, zero outside the image: along x when dx, else along y.  mag gets the sum of the
 * magnitudes of the products (propagated through the second pass from the first's magnitudes). */
static void pass(const double *in, const double *inmag, double *out, double *outmag, const float *k,
                 int w, int h, int dx)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double s = 0.0, m = 0.0;
            for (int j = -R; j <= R; j++) {
                int xx = dx ? x + j : x, yy = dx ? y : y + j;
                if (xx < 0 || xx >= w || yy < 0 || yy >= h)
                    continue;
                s += (double)k[R - j] * in[yy * w + xx];
                m += fabs((double)k[R - j]) * inmag[yy * w + xx];
            }
            out[y * w + x] = s;
            outmag[y * w + x] = m;
        }
}

static int check(const conv_dims_t *d, const float *img, const float *k, const float *got,
                 simt_wl_result_t *res)
{
    size_t n = (size_t)d->w * d->h;
    double *a = calloc(4 * n, sizeof *a);
    if (!a)
        return -1;
    double *am = a + n, *b = a + 2 * n, *bm = a + 3 * n;
    for (size_t i = 0; i < n; i++) {
        a[i] = img[i];
        am[i] = fabs(img[i]);
    }
    pass(a, am, b, bm, k, d->w, d->h, 1);
    pass(b, bm, a, am, k, d->w, d->h, 0);
    double worst = 0.0;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs(got[i] - a[i]) / (am[i] > 0.0 ? am[i] : 1.0);
        if (!(e <= worst)) {
            worst = e;
            at = i;
        }
    }
    free(a);
    res->passed = worst <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "%dx%d image, radius %d, %d iterations (%d launches of %d CTAs): max scaled err %.2e at %zu "
             "(tol %.0e)", d->w, d->h, R, d->iters, 2 * d->iters, (d->w / BX) * (d->h / BY), worst, at, TOL);
    return 0;
}

static int launch(simt_gpu_t *gpu, simt_module_t *mod, const char *kernel, const conv_dims_t *d,
                  simt_devptr_t in, simt_devptr_t out, simt_devptr_t k, simt_error_t *err)
{
    simt_launch_t l = {
        .grid = { (uint32_t)(d->w / BX), (uint32_t)(d->h / BY), 1 },
        .block = { BX, BY, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(in), SIMT_ARG(out), SIMT_ARG(k), SIMT_ARG(d->w), SIMT_ARG(d->h) };
    int rc = simt_launch_kernel(gpu, mod, kernel, &l, args, 5, err);
    return rc != SIMT_OK ? rc : simt_synchronize(gpu, err);
}

static int run_conv(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                    simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 1404, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    conv_dims_t d;
    if (strcmp(size, "small") == 0)
        d = (conv_dims_t){ .w = 64, .h = 32, .iters = 1 };
    else if (strcmp(size, "paper") == 0)
        d = (conv_dims_t){ .w = 512, .h = 136, .iters = 17 };
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t n = (size_t)d.w * d.h;
    float *img = malloc(n * sizeof *img), *got = malloc(n * sizeof *got), k[2 * R + 1];
    simt_devptr_t dev[4] = { 0 }; /* image, after rows, after columns, coefficients */
    int rc = SIMT_OK;
    if (!img || !got) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        img[i] = (float)(simt_wl_rand(&seed) >> 8) * (1.0f / 16777216.0f);
    double ksum = 0.0; /* a Gaussian, sigma 4, normalised to sum 1 */
    for (int j = -R; j <= R; j++)
        ksum += exp(-(double)(j * j) / 32.0);
    for (int j = -R; j <= R; j++)
        k[j + R] = (float)(exp(-(double)(j * j) / 32.0) / ksum);
    if ((rc = simt_wl_upload(gpu, img, n * sizeof *img, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, n * sizeof *img, &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, n * sizeof *img, &dev[2], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, k, sizeof k, &dev[3], err)) != SIMT_OK)
        goto done;
    for (int it = 0; it < d.iters; it++)
        if ((rc = launch(gpu, mod, "conv_rows", &d, dev[0], dev[1], dev[3], err)) != SIMT_OK ||
            (rc = launch(gpu, mod, "conv_cols", &d, dev[1], dev[2], dev[3], err)) != SIMT_OK)
            goto done;
    if ((rc = simt_memcpy_dtoh(gpu, got, dev[2], n * sizeof *got, err)) != SIMT_OK)
        goto done;
    if (check(&d, img, k, got, res) != 0)
        rc = fail(err, "host out of memory");
done:
    rc = simt_wl_release(gpu, dev, 4, rc, err);
    free(img);
    free(got);
    return rc;
}

SIMT_WORKLOAD(conv, "separable convolution, rows and columns passes, 16x8 CTAs (004 CONV)",
              "workloads/conv/kernel.ptx", run_conv);
