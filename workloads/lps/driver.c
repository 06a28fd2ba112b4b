/* lps driver: one Jacobi sweep of the 3D Laplace equation over an nx x ny x nz grid of seeded values
 * (lps_step, one thread per (i, j) column, 16x8 CTAs), checked point by point against the same float
 * sum on the CPU (the kernel adds in a fixed order, so the tolerance only covers a fused multiply). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BX 16
#define BY 8
#define TOL 1e-6 /* max abs err; values lie in [0, 1) */

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "lps: %s", msg);
    return SIMT_EINPUT;
}

static void ref_step(const float *u1, float *u2, int nx, int ny, int nz)
{
    long plane = (long)nx * ny;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                long ind = i + (long)j * nx + k * plane;
                if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || k == 0 || k == nz - 1) {
                    u2[ind] = u1[ind];
                    continue;
                }
                float s = u1[ind - 1] + u1[ind + 1];
                s = s + u1[ind - nx];
                s = s + u1[ind + nx];
                s = s + u1[ind - plane];
                s = s + u1[ind + plane];
                u2[ind] = s * (1.0f / 6.0f);
            }
}

static int run_lps(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                   simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 3003, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int nx, ny, nz;
    if (strcmp(size, "small") == 0)
        nx = 64, ny = 32, nz = 8;     /* 4x4 = 16 CTAs */
    else if (strcmp(size, "paper") == 0)
        nx = 512, ny = 512, nz = 16;  /* 32x64 = 2048 CTAs of 16x8 (004 Table 2) */
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t n = (size_t)nx * ny * nz, bytes = n * sizeof(float);
    float *u1 = malloc(bytes), *u2 = malloc(bytes), *ref = malloc(bytes);
    simt_devptr_t dev[2] = { 0 };
    int rc = SIMT_OK;
    if (!u1 || !u2 || !ref) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        u1[i] = (float)(simt_wl_rand(&seed) >> 8) / 16777216.0f;
    simt_launch_t l = {
        .grid = { (uint32_t)(nx / BX), (uint32_t)(ny / BY), 1 },
        .block = { BX, BY, 1 },
    };
    if ((rc = simt_wl_upload(gpu, u1, bytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &dev[1], err)) != SIMT_OK)
        goto done;
    simt_arg_t args[] = { SIMT_ARG(nx), SIMT_ARG(ny), SIMT_ARG(nz), SIMT_ARG(dev[0]), SIMT_ARG(dev[1]) };
    if ((rc = simt_launch_kernel(gpu, mod, "lps_step", &l, args, 5, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, u2, dev[1], bytes, err)) != SIMT_OK)
        goto done;
    ref_step(u1, ref, nx, ny, nz);
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs((double)u2[i] - ref[i]);
        worst = e > worst || isnan(e) ? e : worst;
    }
    res->passed = worst <= TOL;
    snprintf(res->detail, sizeof res->detail, "%dx%dx%d grid, %ux%u CTAs of 16x8: max abs err %.2e (tol %.0e)",
             nx, ny, nz, l.grid.x, l.grid.y, worst, TOL);
done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(u1);
    free(u2);
    free(ref);
    return rc;
}

SIMT_WORKLOAD(lps, "3D Laplace Jacobi sweep, 16x8 CTAs walking z columns, memory-bound (004 LPS)",
              "workloads/lps/kernel.ptx", run_lps);
