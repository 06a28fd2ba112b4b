/* stencil driver: a seeded nx x ny x nz grid goes through `iters` Jacobi sweeps of stencil_7pt (ping-pong
 * arrays, both starting with the same values so the untouched boundary agrees); every cell of the final
 * grid is compared with a CPU double-precision run of the same sweeps (error relative to the largest
 * magnitude, tolerance in the detail). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

/* must match kernel.cu */
#define BX 32
#define BY 16

#define C0 (1.0f / 6.0f)
#define C1 (1.0f / 6.0f / 6.0f)
#define TOL 1e-5 /* on max |a - ref| / max |ref| */

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "stencil: %s", msg);
    return SIMT_EINPUT;
}

static void ref_sweep(const double *a, double *b, int nx, int ny, int nz)
{
    size_t plane = (size_t)nx * ny;
    for (int z = 1; z < nz - 1; z++)
        for (int y = 1; y < ny - 1; y++)
            for (int x = 1; x < nx - 1; x++) {
                size_t i = (size_t)z * plane + (size_t)y * nx + x;
                b[i] = (double)C1 * (a[i - 1] + a[i + 1] + a[i - nx] + a[i + nx] + a[i - plane] + a[i + plane]) -
                       (double)C0 * a[i];
            }
}

static int launch_all(simt_gpu_t *gpu, simt_module_t *mod, int nx, int ny, int nz, int zchunk, int iters,
                      const simt_devptr_t *dev, simt_error_t *err)
{
    float c0 = C0, c1 = C1;
    simt_launch_t l = {
        .grid = { (uint32_t)((nx + BX - 1) / BX), (uint32_t)((ny + BY - 1) / BY),
                  (uint32_t)((nz - 2 + zchunk - 1) / zchunk) },
        .block = { BX, BY, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    for (int it = 0; it < iters; it++) {
        simt_devptr_t a = dev[it & 1], b = dev[(it + 1) & 1];
        simt_arg_t args[] = { SIMT_ARG(a),  SIMT_ARG(b),      SIMT_ARG(nx), SIMT_ARG(ny),
                              SIMT_ARG(nz), SIMT_ARG(zchunk), SIMT_ARG(c0), SIMT_ARG(c1) };
        int rc = simt_launch_kernel(gpu, mod, "stencil_7pt", &l, args, 8, err);
        if (rc != SIMT_OK)
            return rc;
    }
    return simt_synchronize(gpu, err);
}

static int run_stencil(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                       simt_error_t *err)
{
    long seed_l, iters_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 7, 1, 0x7fffffffL, &seed_l, err) != 0 ||
        simt_wl_param_int(params, "iters", 2, 1, 1000, &iters_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int nx, ny, nz, iters = (int)iters_l;
    if (strcmp(size, "small") == 0)
        nx = 128, ny = 128, nz = 32;  /* Parboil stencil's small grid: 4 x 8 = 32 CTAs */
    else if (strcmp(size, "paper") == 0)
        nx = 512, ny = 512, nz = 64;  /* Parboil stencil's default grid: 16 x 32 = 512 CTAs */
    else
        return fail(err, "param size must be small or paper");
    int zchunk = nz - 2; /* one block column walks the whole interior in z */
    uint32_t seed = (uint32_t)seed_l;
    size_t n = (size_t)nx * ny * nz;
    float *a = malloc(n * sizeof(float));
    double *ra = malloc(n * sizeof(double)), *rb = malloc(n * sizeof(double));
    simt_devptr_t dev[2] = { 0 };
    int rc = SIMT_OK;
    if (!a || !ra || !rb) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        a[i] = (float)(simt_wl_rand(&seed) >> 8) / 16777216.0f * 2.0f - 1.0f;
        ra[i] = rb[i] = a[i];
    }
    if ((rc = simt_wl_upload(gpu, a, n * sizeof(float), &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, a, n * sizeof(float), &dev[1], err)) != SIMT_OK ||
        (rc = launch_all(gpu, mod, nx, ny, nz, zchunk, iters, dev, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, a, dev[iters & 1], n * sizeof(float), err)) != SIMT_OK)
        goto done;
    for (int it = 0; it < iters; it++) {
        ref_sweep(ra, rb, nx, ny, nz);
        double *t = ra;
        ra = rb;
        rb = t;
    }
    double worst = 0.0, span = 0.0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs(a[i] - ra[i]);
        worst = e > worst || isnan(e) ? e : worst;
        span = fmax(span, fabs(ra[i]));
    }
    double rel = worst / (span > 0 ? span : 1);
    res->passed = rel <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "%dx%dx%d grid, %d sweeps, grid %dx%dx%d of 32x16 (z chunk %d): max rel err %.2e (tol %.0e)", nx, ny,
             nz, iters, (nx + BX - 1) / BX, (ny + BY - 1) / BY, (nz - 2 + zchunk - 1) / zchunk, zchunk, rel, TOL);
done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(a);
    free(ra);
    free(rb);
    return rc;
}

SIMT_WORKLOAD(stencil, "7-point 3D Jacobi stencil, z-coarsened register sliding window, 512 thr, no shared",
              "workloads/stencil/kernel.ptx", run_stencil);
