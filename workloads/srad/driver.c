/* srad driver: one SRAD step on a seeded speckled phantom (J = exp(I / 255), bright and dark discs on a
 * homogeneous background, multiplicative noise), q0^2 from the background region of interest (the top-left
 * quarter of the image) as var / mean^2.  Two workloads, each launching one kernel so that its statistics are
 * that kernel's alone, as the paper reports SRAD1 and SRAD2 separately:
 *   srad1: srad_cuda_1 on J; checks c, the south / east differences and the per-tile q^2 sums;
 *   srad2: srad_cuda_2 on J with c and the four derivative planes from a CPU srad_cuda_1 (double, rounded to
 *          float); checks the updated image.
 * References are double precision from the same float inputs; tolerances are in the detail strings. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BS 24 /* tile side = blockDim.x = blockDim.y (kernel.cu) */
#define LAMBDA 0.5f
#define TOL_D 1e-6   /* abs, on dS and dE (J lies in [1, e]) */
#define TOL_C 1e-5   /* abs, on c in [0, 1] */
#define TOL_J 1e-6   /* abs, on the updated J */
#define TOL_SUM 1e-5 /* on a tile sum, relative to the sum of the magnitudes of its terms */

typedef struct srad_img {
    int rows, cols;
    float q0sqr;
    float *J, *C, *DS, *DE; /* inputs (C, DS, DE host-made for srad2) */
    float *DN, *DW;         /* srad2: the north and west derivative planes (-DS north, -DE west; 0 at the border) */
} srad_img_t;

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "srad: %s", msg);
    return SIMT_EINPUT;
}

static int parse(const simt_wl_params_t *params, srad_img_t *im, uint32_t *seed, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 2040, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    memset(im, 0, sizeof *im);
    if (strcmp(size, "small") == 0) {
        im->rows = 240; /* 10 x 10 tiles = 100 CTAs */
        im->cols = 240;
    } else if (strcmp(size, "paper") == 0) {
        im->rows = 2040; /* 85 x 85 tiles = 7225 CTAs = 4,161,600 threads */
        im->cols = 2040;
    } else {
        return fail(err, "param size must be small or paper");
    }
    *seed = (uint32_t)seed_l;
    return SIMT_OK;
}

static void img_free(srad_img_t *im)
{
    free(im->J);
    free(im->C);
    free(im->DS);
    free(im->DE);
    free(im->DN);
    free(im->DW);
}

/* The phantom and q0^2 over the top-left quarter. */
static int img_make(srad_img_t *im, uint32_t seed)
{
    size_t n = (size_t)im->rows * im->cols;
    im->J = malloc(n * sizeof(float));
    if (!im->J)
        return -1;
    double R = im->rows, Cc = im->cols, m = R < Cc ? R : Cc;
    for (int i = 0; i < im->rows; i++)
        for (int j = 0; j < im->cols; j++) {
            double a = (i - 0.6 * R) * (i - 0.6 * R) + (j - 0.55 * Cc) * (j - 0.55 * Cc);
            double b = (i - 0.3 * R) * (i - 0.3 * R) + (j - 0.75 * Cc) * (j - 0.75 * Cc);
            double base = a < 0.04 * m * m ? 200.0 : b < 0.01 * m * m ? 40.0 : 96.0;
            double u = (double)(simt_wl_rand(&seed) >> 8) / 16777216.0;
            im->J[(size_t)i * im->cols + j] = expf((float)(base * (0.7 + 0.6 * u) / 255.0));
        }
    double s = 0, s2 = 0;
    int rr = im->rows / 4, rc = im->cols / 4;
    for (int i = 0; i < rr; i++)
        for (int j = 0; j < rc; j++) {
            double v = im->J[(size_t)i * im->cols + j];
            s += v;
            s2 += v * v;
        }
    double mean = s / ((double)rr * rc), var = s2 / ((double)rr * rc) - mean * mean;
    im->q0sqr = (float)(var / (mean * mean));
    return 0;
}

typedef struct k1_ref {
    double s, e, q2, c;
} k1_ref_t;

/* srad_cuda_1 at one pixel, in double from the float image. */
static k1_ref_t ref_k1(const srad_img_t *im, int i, int j)
{
    const float *J = im->J;
    int cols = im->cols;
    double jc = J[(size_t)i * cols + j];
    double n = i > 0 ? J[(size_t)(i - 1) * cols + j] - jc : 0.0;
    double s = i + 1 < im->rows ? J[(size_t)(i + 1) * cols + j] - jc : 0.0;
    double w = j > 0 ? J[(size_t)i * cols + j - 1] - jc : 0.0;
    double e = j + 1 < cols ? J[(size_t)i * cols + j + 1] - jc : 0.0;
    double g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    double l = (n + s + w + e) / jc;
    double num = 0.5 * g2 - 0.0625 * l * l, den = 1.0 + 0.25 * l;
    double q2 = num / (den * den), q0 = im->q0sqr;
    double c = 1.0 / (1.0 + (q2 - q0) / (q0 * (1.0 + q0)));
    k1_ref_t r = { s, e, q2, c < 0.0 ? 0.0 : c > 1.0 ? 1.0 : c };
    return r;
}

static void worst(double got, double ref, double *err)
{
    double e = fabs(got - ref);
    if (isnan(e) || e > *err)
        *err = isnan(e) ? INFINITY : e;
}

static int launch(simt_gpu_t *gpu, simt_module_t *mod, const char *kernel, const srad_img_t *im,
                  simt_arg_t *args, size_t nargs, simt_error_t *err)
{
    simt_launch_t l = {
        .grid = { (uint32_t)(im->cols / BS), (uint32_t)(im->rows / BS), 1 },
        .block = { BS, BS, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    int rc = simt_launch_kernel(gpu, mod, kernel, &l, args, nargs, err);
    return rc != SIMT_OK ? rc : simt_synchronize(gpu, err);
}

/* ---- srad1 ---- */

static void check1(const srad_img_t *im, const float *C, const float *DS, const float *DE, const float *q2sum,
                   simt_wl_result_t *res)
{
    double ed = 0, ec = 0, es = 0, cmin = 1, cmax = 0;
    int tc = im->cols / BS, tiles = tc * (im->rows / BS);
    double *sum = calloc((size_t)tiles, sizeof(double)), *mag = calloc((size_t)tiles, sizeof(double));
    if (!sum || !mag) {
        es = INFINITY;
    } else {
        for (int i = 0; i < im->rows; i++)
            for (int j = 0; j < im->cols; j++) {
                size_t k = (size_t)i * im->cols + j;
                k1_ref_t r = ref_k1(im, i, j);
                worst(DS[k], r.s, &ed);
                worst(DE[k], r.e, &ed);
                worst(C[k], r.c, &ec);
                cmin = fmin(cmin, r.c);
                cmax = fmax(cmax, r.c);
                int t = (i / BS) * tc + j / BS;
                sum[t] += r.q2;
                mag[t] += fabs(r.q2);
            }
        for (int t = 0; t < tiles; t++) {
            double e = fabs(q2sum[t] - sum[t]) / (mag[t] > 0 ? mag[t] : 1.0);
            if (isnan(e) || e > es)
                es = isnan(e) ? INFINITY : e;
        }
    }
    free(sum);
    free(mag);
    res->passed = ed <= TOL_D && ec <= TOL_C && es <= TOL_SUM;
    snprintf(res->detail, sizeof res->detail,
             "%dx%d image, %d tiles, q0^2 %.4g, c in [%.3f, %.3f]: max abs err dS/dE %.2g (tol %.0e), c %.2g "
             "(tol %.0e); tile q^2 sums rel err %.2g (tol %.0e)",
             im->rows, im->cols, tiles, im->q0sqr, cmin, cmax, ed, TOL_D, ec, TOL_C, es, TOL_SUM);
}

static int run_srad1(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                     simt_error_t *err)
{
    srad_img_t im;
    uint32_t seed;
    int rc = parse(params, &im, &seed, err);
    if (rc != SIMT_OK)
        return rc;
    size_t n = (size_t)im.rows * im.cols, bytes = n * sizeof(float);
    int tiles = (im.rows / BS) * (im.cols / BS);
    float *C = malloc(bytes), *DS = malloc(bytes), *DE = malloc(bytes), *q2 = malloc((size_t)tiles * 4);
    simt_devptr_t d[5] = { 0 };
    if (!C || !DS || !DE || !q2 || img_make(&im, seed) != 0) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    int rows = im.rows, cols = im.cols;
    float q0sqr = im.q0sqr;
    simt_arg_t args[] = { SIMT_ARG(d[0]), SIMT_ARG(d[1]), SIMT_ARG(d[2]), SIMT_ARG(d[3]),
                          SIMT_ARG(d[4]), SIMT_ARG(rows), SIMT_ARG(cols), SIMT_ARG(q0sqr) };
    if ((rc = simt_wl_upload(gpu, im.J, bytes, &d[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &d[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &d[2], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &d[3], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, (size_t)tiles * 4, &d[4], err)) != SIMT_OK ||
        (rc = launch(gpu, mod, "srad_cuda_1", &im, args, 8, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, C, d[1], bytes, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, DS, d[2], bytes, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, DE, d[3], bytes, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, q2, d[4], (size_t)tiles * 4, err)) != SIMT_OK)
        goto done;
    check1(&im, C, DS, DE, q2, res);
done:
    rc = simt_wl_release(gpu, d, 5, rc, err);
    img_free(&im);
    free(C);
    free(DS);
    free(DE);
    free(q2);
    return rc;
}

/* ---- srad2 ---- */

/* Kernel 2's inputs from a CPU kernel 1. */
static int img_k1(srad_img_t *im)
{
    size_t n = (size_t)im->rows * im->cols;
    im->C = malloc(n * sizeof(float));
    im->DS = malloc(n * sizeof(float));
    im->DE = malloc(n * sizeof(float));
    im->DN = malloc(n * sizeof(float));
    im->DW = malloc(n * sizeof(float));
    if (!im->C || !im->DS || !im->DE || !im->DN || !im->DW)
        return -1;
    for (int i = 0; i < im->rows; i++)
        for (int j = 0; j < im->cols; j++) {
            k1_ref_t r = ref_k1(im, i, j);
            size_t k = (size_t)i * im->cols + j;
            im->C[k] = (float)r.c;
            im->DS[k] = (float)r.s;
            im->DE[k] = (float)r.e;
        }
    for (int i = 0; i < im->rows; i++)
        for (int j = 0; j < im->cols; j++) {
            size_t k = (size_t)i * im->cols + j;
            im->DN[k] = i > 0 ? -im->DS[k - im->cols] : 0.0f;
            im->DW[k] = j > 0 ? -im->DE[k - 1] : 0.0f;
        }
    return 0;
}

/* D = cN dN + cS dS + cW dW + cE dE at one pixel, in double from the float inputs. */
static double ref_d(const srad_img_t *im, int i, int j)
{
    int cols = im->cols;
    size_t k = (size_t)i * cols + j;
    double c = im->C[k];
    double dn = i > 0 ? -(double)im->DS[k - cols] : 0.0, dw = j > 0 ? -(double)im->DE[k - 1] : 0.0;
    double cs = i + 1 < im->rows ? im->C[k + cols] : 0.0, ce = j + 1 < cols ? im->C[k + 1] : 0.0;
    return c * dn + cs * im->DS[k] + c * dw + ce * im->DE[k];
}

static void check2(const srad_img_t *im, const float *Jout, simt_wl_result_t *res)
{
    double ej = 0, dmax = 0;
    for (int i = 0; i < im->rows; i++)
        for (int j = 0; j < im->cols; j++) {
            size_t k = (size_t)i * im->cols + j;
            double D = ref_d(im, i, j);
            worst(Jout[k], im->J[k] + 0.25 * LAMBDA * D, &ej);
            dmax = fmax(dmax, fabs(D));
        }
    res->passed = ej <= TOL_J;
    snprintf(res->detail, sizeof res->detail, "%dx%d image, %d tiles, lambda %.2f, max |D| %.3g: max abs err J %.2g (tol %.0e)",
             im->rows, im->cols, (im->rows / BS) * (im->cols / BS), LAMBDA, dmax, ej, TOL_J);
}

static int run_srad2(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                     simt_error_t *err)
{
    srad_img_t im;
    uint32_t seed;
    int rc = parse(params, &im, &seed, err);
    if (rc != SIMT_OK)
        return rc;
    size_t n = (size_t)im.rows * im.cols, bytes = n * sizeof(float);
    float *Jout = malloc(bytes);
    simt_devptr_t d[6] = { 0 };
    if (!Jout || img_make(&im, seed) != 0 || img_k1(&im) != 0) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    int rows = im.rows, cols = im.cols;
    float lambda = LAMBDA;
    /* Rodinia's argument order: E_C, W_C, N_C, S_C, J, C; ours N, S, W, E, J, C */
    simt_arg_t args[] = { SIMT_ARG(d[0]), SIMT_ARG(d[1]), SIMT_ARG(d[2]), SIMT_ARG(d[3]),
                          SIMT_ARG(d[4]), SIMT_ARG(d[5]), SIMT_ARG(cols), SIMT_ARG(rows), SIMT_ARG(lambda) };
    if ((rc = simt_wl_upload(gpu, im.DN, bytes, &d[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, im.DS, bytes, &d[1], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, im.DW, bytes, &d[2], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, im.DE, bytes, &d[3], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, im.J, bytes, &d[4], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, im.C, bytes, &d[5], err)) != SIMT_OK ||
        (rc = launch(gpu, mod, "srad_cuda_2", &im, args, 9, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, Jout, d[4], bytes, err)) != SIMT_OK)
        goto done;
    check2(&im, Jout, res);
done:
    rc = simt_wl_release(gpu, d, 6, rc, err);
    img_free(&im);
    free(Jout);
    return rc;
}
SIMT_WORKLOAD(srad1, "SRAD kernel 1: derivatives, ICOV and diffusion coefficient on 24x24 shared tiles",
              "workloads/srad/kernel.ptx", run_srad1);
SIMT_WORKLOAD(srad2, "SRAD kernel 2 (Rodinia shape): divergence and image update on 24x24 shared tiles",
              "workloads/srad/kernel.ptx", run_srad2);
