/* cp driver: Coulombic potential on one z plane of a lattice (spacing 0.5) from seeded point charges in a box
 * around it, one launch.  Small: a 256x16 plane (2x2 CTAs of 16x8, 8 points per thread), 16 atoms.
 * Paper: a 4096x256 plane, 32x32 = 1024 CTAs (reference/004 Table 2 CP), 64 atoms.  The plane starts at a
 * seeded offset (the kernel adds to it, as Parboil accumulates over atom chunks).  Checked against a
 * double reference with the error scaled by sum |q| / r (the bound on f32 and rsqrt rounding). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BX 16        /* CTA width (kernel.cu) */
#define BY 8         /* CTA height (kernel.cu) */
#define UNROLLX 8    /* points per thread along x (kernel.cu) */
#define SPACING 0.5f
#define ZPLANE 3.0f
#define TOL 1e-5     /* on |gpu - ref| / (|e0| + sum |q| / r) */

typedef struct cp_dims {
    int w, h, natoms;
} cp_dims_t;

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "cp: %s", msg);
    return SIMT_EINPUT;
}

static float unit(uint32_t *seed) /* uniform in [0, 1) */
{
    return (float)(simt_wl_rand(seed) >> 8) * (1.0f / 16777216.0f);
}

static void check(const cp_dims_t *d, const float *atoms, const float *e0, const float *got,
                  simt_wl_result_t *res)
{
    double worst = 0.0;
    int at = 0;
    for (int yi = 0; yi < d->h; yi++)
        for (int xi = 0; xi < d->w; xi++) {
            double x = (double)SPACING * xi, y = (double)SPACING * yi, s = e0[yi * d->w + xi];
            double mag = fabs(s);
            for (int a = 0; a < d->natoms; a++) {
                const float *p = atoms + 4 * a;
                double dx = x - p[0], dy = y - p[1], dz = ZPLANE - p[2];
                double v = p[3] / sqrt(dx * dx + dy * dy + dz * dz);
                s += v;
                mag += fabs(v);
            }
            double e = fabs(got[yi * d->w + xi] - s) / (mag > 0.0 ? mag : 1.0);
            if (!(e <= worst)) {
                worst = e;
                at = yi * d->w + xi;
            }
        }
    res->passed = worst <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "%dx%d plane, %d atoms, %d CTAs: max scaled err %.2e at %d (tol %.0e)", d->w, d->h, d->natoms,
             (d->w / (BX * UNROLLX)) * (d->h / BY), worst, at, TOL);
}

static int run_cp(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                  simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 1024, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    cp_dims_t d;
    if (strcmp(size, "small") == 0)
        d = (cp_dims_t){ .w = 256, .h = 16, .natoms = 16 };
    else if (strcmp(size, "paper") == 0)
        d = (cp_dims_t){ .w = 4096, .h = 256, .natoms = 64 };
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t n = (size_t)d.w * d.h;
    float *atoms = malloc(4 * (size_t)d.natoms * sizeof *atoms);
    float *e0 = malloc(n * sizeof *e0), *got = malloc(n * sizeof *got);
    simt_devptr_t dev[2] = { 0 };
    int rc = SIMT_OK;
    if (!atoms || !e0 || !got) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    /* atoms in the box over the plane's extent, 0.25 to 3 above or below the plane (so r >= 0.25: no
     * atom sits on a lattice point), q in [-1, 1) */
    for (int a = 0; a < d.natoms; a++) {
        atoms[4 * a + 0] = unit(&seed) * SPACING * (float)d.w;
        atoms[4 * a + 1] = unit(&seed) * SPACING * (float)d.h;
        atoms[4 * a + 2] = ZPLANE + (0.25f + unit(&seed) * 2.75f) * (a & 1 ? 1.0f : -1.0f);
        atoms[4 * a + 3] = 2.0f * unit(&seed) - 1.0f;
    }
    for (size_t i = 0; i < n; i++)
        e0[i] = unit(&seed) - 0.5f;
    simt_launch_t l = {
        .grid = { (uint32_t)(d.w / (BX * UNROLLX)), (uint32_t)(d.h / BY), 1 },
        .block = { BX, BY, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    if ((rc = simt_wl_upload(gpu, atoms, 4 * (size_t)d.natoms * sizeof *atoms, &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, e0, n * sizeof *e0, &dev[1], err)) != SIMT_OK)
        goto done;
    float spacing = SPACING, z = ZPLANE;
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(d.natoms), SIMT_ARG(dev[1]), SIMT_ARG(d.w),
                          SIMT_ARG(spacing), SIMT_ARG(z) };
    if ((rc = simt_launch_kernel(gpu, mod, "cp_energy", &l, args, 6, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, got, dev[1], n * sizeof *got, err)) != SIMT_OK)
        goto done;
    check(&d, atoms, e0, got, res);
done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(atoms);
    free(e0);
    free(got);
    return rc;
}

SIMT_WORKLOAD(cp, "Coulombic potential on a lattice plane, 8 points per thread, 16x8 CTAs (004 CP)",
              "workloads/cp/kernel.ptx", run_cp);
