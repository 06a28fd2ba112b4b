/* fd3d driver: an 8th-order 3D Laplacian (16x16 CTAs walking z) over a seeded volume of dimx x dimy x
 * dimz interior points padded by 4 on every side; every interior output is compared with a CPU
 * double-precision stencil, error relative to the largest |reference| value.  Two workloads: fd3d
 * (fd3d_step, 480 points wide: 004 Table 2 3DFD) and fdtd004 (fdtd_step, 384 wide: 004 Table 2 FDTD). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define R 4
#define TOL 1e-5

static const double COEF[R + 1] = { -3.0 * 205.0 / 72.0, 8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0, -1.0 / 560.0 };

static int fail(simt_error_t *err, const char *name, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "%s: %s", name, msg);
    return SIMT_EINPUT;
}

/* One workload: its kernel, the kernel's compile-time interior width, and dimy, dimz per size. */
typedef struct fd3d_shape {
    const char *name; /* the workload's, for error messages */
    const char *kernel;
    int dimx;
    int dimy_small, dimz_small, dimy_paper, dimz_paper;
} fd3d_shape_t;

/* 3DFD: small 30x1 CTAs, paper 30x30 = 900 CTAs (480x480x16) */
static const fd3d_shape_t FD3D = { "fd3d", "fd3d_step", 480, 16, 2, 480, 16 };
/* FDTD: small 24x1 CTAs, paper 24x24 = 576 CTAs (384x384x16) */
static const fd3d_shape_t FDTD = { "fdtd004", "fdtd_step", 384, 16, 2, 384, 16 };

static int run_shape(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                     simt_error_t *err, const fd3d_shape_t *sh)
{
    const int dimx = sh->dimx;
    const long px = dimx + 2 * R;
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 9000, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int dimy, dimz;
    if (strcmp(size, "small") == 0)
        dimy = sh->dimy_small, dimz = sh->dimz_small;
    else if (strcmp(size, "paper") == 0)
        dimy = sh->dimy_paper, dimz = sh->dimz_paper;
    else
        return fail(err, sh->name, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    long py = dimy + 2 * R, plane = (long)px * py;
    size_t n = (size_t)plane * (dimz + 2 * R), bytes = n * sizeof(float);
    float *in = malloc(bytes), *out = malloc(bytes);
    simt_devptr_t dev[2] = { 0 };
    int rc = SIMT_OK;
    if (!in || !out) {
        rc = fail(err, sh->name, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        in[i] = (float)(simt_wl_rand(&seed) >> 8) / 16777216.0f;
    memset(out, 0, bytes);
    simt_launch_t l = { .grid = { (uint32_t)dimx / 16, (uint32_t)dimy / 16, 1 }, .block = { 16, 16, 1 } };
    if ((rc = simt_wl_upload(gpu, in, bytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, out, bytes, &dev[1], err)) != SIMT_OK)
        goto done;
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dimy), SIMT_ARG(dimz) };
    if ((rc = simt_launch_kernel(gpu, mod, sh->kernel, &l, args, 4, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[1], bytes, err)) != SIMT_OK)
        goto done;
    double worst = 0.0, big = 0.0;
    for (int z = R; z < dimz + R; z++)
        for (long y = R; y < dimy + R; y++)
            for (long x = R; x < dimx + R; x++) {
                long i = z * plane + y * px + x;
                double r = COEF[0] * in[i];
                for (int k = 1; k <= R; k++)
                    r += COEF[k] * ((double)in[i - k] + in[i + k] + in[i - k * px] + in[i + k * px] +
                                    in[i - k * plane] + in[i + k * plane]);
                double e = fabs(out[i] - r);
                worst = e > worst || isnan(e) ? e : worst;
                big = fabs(r) > big ? fabs(r) : big;
            }
    worst /= big > 0.0 ? big : 1.0;
    res->passed = worst <= TOL;
    snprintf(res->detail, sizeof res->detail, "%dx%dx%d interior, %ux%u CTAs of 16x16: max rel err %.2e (tol %.0e)",
             dimx, dimy, dimz, l.grid.x, l.grid.y, worst, TOL);
done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(in);
    free(out);
    return rc;
}

static int run_fd3d(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                    simt_error_t *err)
{
    return run_shape(gpu, mod, params, res, err, &FD3D);
}

static int run_fdtd004(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                       simt_wl_result_t *res, simt_error_t *err)
{
    return run_shape(gpu, mod, params, res, err, &FDTD);
}

SIMT_WORKLOAD(fd3d, "8th-order 3D finite difference, 16x16 CTAs, 24x24 shared plane, z queue in registers (004 3DFD)",
              "workloads/fd3d/kernel.ptx", run_fd3d);
SIMT_WORKLOAD(fdtd004, "8th-order 3D finite difference as 004's FDTD: 16x16 CTAs, 384 wide, 576 CTAs at paper size",
              "workloads/fd3d/kernel.ptx", run_fdtd004);
