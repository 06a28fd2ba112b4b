/* gaussian driver: a seeded diagonally dominant n x n float system eliminated on the device by a
 * gauss_fan1 + gauss_fan2 launch pair per pivot, back-substituted on the host, and compared with the
 * solution of the same elimination done on the CPU (relative tolerance, reported in the detail). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define FAN1_BLOCK 512u
#define FAN2_TILE 16u
#define TOL 1e-4 /* on max |x_gpu - x_cpu| / max |x_cpu| */

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "gaussian: %s", msg);
    return SIMT_EINPUT;
}

/* Entries uniform in [-1, 1), the diagonal raised by n so no pivoting is needed. */
static void make_system(float *a, float *b, int n, uint32_t seed)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            a[i * n + j] = (float)(simt_wl_rand(&seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
        a[i * n + i] += (float)n;
        b[i] = (float)(simt_wl_rand(&seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
    }
}

/* The CPU elimination, same operation order as the kernels. */
static void cpu_eliminate(float *a, float *b, int n)
{
    for (int t = 0; t < n - 1; t++)
        for (int r = t + 1; r < n; r++) {
            float mult = a[r * n + t] / a[t * n + t];
            for (int c = t; c < n; c++)
                a[r * n + c] -= mult * a[t * n + c];
            b[r] -= mult * b[t];
        }
}

/* Back substitution of an upper-triangular system, in double. */
static void back_substitute(const float *a, const float *b, int n, double *x)
{
    for (int r = n - 1; r >= 0; r--) {
        double s = b[r];
        for (int c = r + 1; c < n; c++)
            s -= (double)a[r * n + c] * x[c];
        x[r] = s / a[r * n + r];
    }
}

/* dev: a, b, m. */
static int eliminate(simt_gpu_t *gpu, simt_module_t *mod, int n, const simt_devptr_t *dev,
                     simt_error_t *err)
{
    for (int t = 0; t < n - 1; t++) {
        uint32_t rows = (uint32_t)(n - 1 - t), cols = (uint32_t)(n - t);
        simt_launch_t l1 = { .grid = { (rows + FAN1_BLOCK - 1) / FAN1_BLOCK, 1, 1 },
                             .block = { FAN1_BLOCK, 1, 1 }, .dynamic_shared_bytes = 0, .stream = 0 };
        simt_launch_t l2 = { .grid = { (cols + FAN2_TILE - 1) / FAN2_TILE, (rows + FAN2_TILE - 1) / FAN2_TILE, 1 },
                             .block = { FAN2_TILE, FAN2_TILE, 1 }, .dynamic_shared_bytes = 0, .stream = 0 };
        simt_arg_t a1[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[2]), SIMT_ARG(n), SIMT_ARG(t) };
        simt_arg_t a2[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(n), SIMT_ARG(t) };
        int rc;
        if ((rc = simt_launch_kernel(gpu, mod, "gauss_fan1", &l1, a1, 4, err)) != SIMT_OK ||
            (rc = simt_launch_kernel(gpu, mod, "gauss_fan2", &l2, a2, 5, err)) != SIMT_OK)
            return rc;
    }
    return simt_synchronize(gpu, err);
}

static void check(const double *x, const double *ref, int n, simt_wl_result_t *res)
{
    double worst = 0.0, xmax = 0.0;
    for (int i = 0; i < n; i++) {
        xmax = fmax(xmax, fabs(ref[i]));
        double e = fabs(x[i] - ref[i]);
        worst = e > worst || isnan(e) ? e : worst;
    }
    double rel = xmax > 0.0 ? worst / xmax : worst;
    res->passed = rel <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "%dx%d system, %d Fan1+Fan2 pivot steps, max rel err of x vs CPU elimination %.2e (tol %.0e)",
             n, n, n - 1, rel, TOL);
}

static int run_gaussian(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                        simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 208, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int n;
    if (strcmp(size, "small") == 0)
        n = 128;
    else if (strcmp(size, "paper") == 0)
        n = 1024;            /* Fan1 runs 2 CTAs for the first 511 pivots */
    else
        return fail(err, "param size must be small or paper");
    size_t nn = (size_t)n * n;
    float *a = malloc(nn * sizeof(float)), *b = malloc((size_t)n * sizeof(float));
    float *ga = malloc(nn * sizeof(float)), *gb = malloc((size_t)n * sizeof(float));
    double *x = malloc((size_t)n * sizeof(double)), *ref = malloc((size_t)n * sizeof(double));
    simt_devptr_t dev[3] = { 0 };
    int rc = SIMT_OK;
    if (!a || !b || !ga || !gb || !x || !ref) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    make_system(a, b, n, (uint32_t)seed_l);
    if ((rc = simt_wl_upload(gpu, a, nn * sizeof(float), &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, b, (size_t)n * sizeof(float), &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, nn * sizeof(float), &dev[2], err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[2], 0, nn * sizeof(float), err)) != SIMT_OK ||
        (rc = eliminate(gpu, mod, n, dev, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, ga, dev[0], nn * sizeof(float), err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, gb, dev[1], (size_t)n * sizeof(float), err)) != SIMT_OK)
        goto done;
    cpu_eliminate(a, b, n);
    back_substitute(a, b, n, ref);
    back_substitute(ga, gb, n, x);
    check(x, ref, n, res);
done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(a);
    free(b);
    free(ga);
    free(gb);
    free(x);
    free(ref);
    return rc;
}

SIMT_WORKLOAD(gaussian, "Gaussian elimination, Fan1 multiplier column + Fan2 row update per pivot",
              "workloads/gaussian/kernel.ptx", run_gaussian);
