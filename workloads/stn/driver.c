/* stn driver: one sweep of the 7-point stencil (stn_7pt, Parboil's coarsened 32x4 shape) over a seeded
 * nx x ny x nz grid; anext starts as a copy of a0 (the kernel leaves the boundary alone) and is compared
 * with a CPU double-precision sweep, error relative to the largest |reference| value. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define TX 32
#define TY 4
#define C0 (1.0f / 6.0f)
#define C1 (1.0f / 6.0f / 6.0f)
#define TOL 1e-5

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "stn: %s", msg);
    return SIMT_EINPUT;
}

static int run_stn(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                   simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 7007, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int nx, ny, nz;
    if (strcmp(size, "small") == 0)
        nx = 128, ny = 16, nz = 8;    /* 2 x 4 = 8 CTAs */
    else if (strcmp(size, "paper") == 0)
        nx = 512, ny = 512, nz = 64;  /* Parboil's default grid: 8 x 128 = 1024 CTAs of 32x4 */
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t n = (size_t)nx * ny * nz, bytes = n * sizeof(float);
    float *a = malloc(bytes), *out = malloc(bytes);
    simt_devptr_t dev[2] = { 0 };
    int rc = SIMT_OK;
    if (!a || !out) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        a[i] = (float)(simt_wl_rand(&seed) >> 8) / 16777216.0f;
    simt_launch_t l = { .grid = { (uint32_t)(nx / (2 * TX)), (uint32_t)(ny / TY), 1 }, .block = { TX, TY, 1 } };
    float c0 = C0, c1 = C1;
    if ((rc = simt_wl_upload(gpu, a, bytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, a, bytes, &dev[1], err)) != SIMT_OK)
        goto done;
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(nx), SIMT_ARG(ny), SIMT_ARG(nz),
                          SIMT_ARG(c0), SIMT_ARG(c1) };
    if ((rc = simt_launch_kernel(gpu, mod, "stn_7pt", &l, args, 7, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[1], bytes, err)) != SIMT_OK)
        goto done;
    double worst = 0.0, big = 0.0;
    long plane = (long)nx * ny;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                long i = x + (long)y * nx + z * plane;
                double r = a[i];
                if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1 && z > 0 && z < nz - 1)
                    r = (double)c1 * ((double)a[i - 1] + a[i + 1] + a[i - nx] + a[i + nx] + a[i - plane] +
                                      a[i + plane]) - (double)c0 * a[i];
                double e = fabs(out[i] - r);
                worst = e > worst || isnan(e) ? e : worst;
                big = fabs(r) > big ? fabs(r) : big;
            }
    worst /= big > 0.0 ? big : 1.0;
    res->passed = worst <= TOL;
    snprintf(res->detail, sizeof res->detail, "%dx%dx%d grid, %ux%u CTAs of 32x4: max rel err %.2e (tol %.0e)", nx,
             ny, nz, l.grid.x, l.grid.y, worst, TOL);
done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(a);
    free(out);
    return rc;
}

SIMT_WORKLOAD(stn, "7-point stencil, 32x4 CTAs coarsened 2x in x, shared x-y plane, z in registers (004 STN)",
              "workloads/stn/kernel.ptx", run_stn);
