/* fdtd3d driver: one step of the radius-4 25-point stencil over a padded volume, marched along z by CTAs of
 * 32 x 4 threads; checks every output point against a double-precision CPU stencil. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define RADIUS 4
#define BDX 32u
#define BDY 4u     /* blockDim.y: 128 threads per CTA (the kernel's tile allows up to 16) */
#define TOL 1e-5   /* max abs error relative to the largest reference magnitude */

typedef struct fd_host {
    int dimx, dimy, dimz; /* output points; arrays are padded by RADIUS on every side */
    size_t sy, sz, n;     /* padded row stride, plane stride, elements */
    float coef[RADIUS + 1];
    float *in, *out;
} fd_host_t;

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "fdtd3d: %s", msg);
    return SIMT_EINPUT;
}

static void fill(fd_host_t *h, uint32_t seed)
{
    for (size_t i = 0; i < h->n; i++)
        h->in[i] = (float)(simt_wl_rand(&seed) >> 8) / 8388608.0f - 1.0f; /* [-1, 1) */
    h->coef[0] = -3.0f; /* a second-derivative-like stencil, weights shrinking with distance */
    for (int i = 1; i <= RADIUS; i++)
        h->coef[i] = 0.5f / (float)(i * i);
}

/* Device buffers: 0 in, 1 out, 2 coefficients. */
static int device_run(simt_gpu_t *gpu, simt_module_t *mod, fd_host_t *h, simt_devptr_t *d,
                      simt_error_t *err)
{
    size_t bytes = h->n * sizeof(float);
    int rc;
    if ((rc = simt_malloc(gpu, bytes, &d[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &d[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, sizeof h->coef, &d[2], err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, d[0], h->in, bytes, err)) != SIMT_OK ||
        (rc = simt_memset(gpu, d[1], 0, bytes, err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, d[2], h->coef, sizeof h->coef, err)) != SIMT_OK)
        return rc;
    simt_launch_t launch = {
        .grid = { ((uint32_t)h->dimx + BDX - 1) / BDX, ((uint32_t)h->dimy + BDY - 1) / BDY, 1 },
        .block = { BDX, BDY, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(d[1]), SIMT_ARG(d[0]), SIMT_ARG(d[2]),
                          SIMT_ARG(h->dimx), SIMT_ARG(h->dimy), SIMT_ARG(h->dimz) };
    if ((rc = simt_launch_kernel(gpu, mod, "fdtd3d_step", &launch, args, 6, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK)
        return rc;
    return simt_memcpy_dtoh(gpu, h->out, d[1], bytes, err);
}

static double ref_point(const fd_host_t *h, size_t p)
{
    const float *in = h->in;
    double v = (double)h->coef[0] * in[p];
    for (size_t i = 1; i <= RADIUS; i++)
        v += (double)h->coef[i] * ((double)in[p - i] + in[p + i] + in[p - i * h->sy] +
                                   in[p + i * h->sy] + in[p - i * h->sz] + in[p + i * h->sz]);
    return v;
}

static double check(const fd_host_t *h)
{
    double err = 0, mag = 0;
    for (int z = 0; z < h->dimz; z++)
        for (int y = 0; y < h->dimy; y++)
            for (int x = 0; x < h->dimx; x++) {
                size_t p = (size_t)(z + RADIUS) * h->sz + (size_t)(y + RADIUS) * h->sy + x + RADIUS;
                double r = ref_point(h, p), e = fabs(h->out[p] - r);
                err = (e > err || isnan(e)) ? (isnan(e) ? INFINITY : e) : err;
                mag = fmax(mag, fabs(r));
            }
    return err / (mag > 0 ? mag : 1);
}

static int run_fdtd3d(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                      simt_wl_result_t *res, simt_error_t *err)
{
    const char *size = simt_wl_param_str(params, "size", "small");
    long seed_l;
    if (simt_wl_param_int(params, "seed", 5, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    fd_host_t h;
    memset(&h, 0, sizeof h);
    if (strcmp(size, "small") == 0) {
        h.dimx = 40; /* 2 x 3 CTAs, both partial at the far edge */
        h.dimy = 10;
        h.dimz = 6;
    } else if (strcmp(size, "paper") == 0) {
        h.dimx = h.dimy = h.dimz = 376; /* the SDK default: 12 x 94 CTAs = 144,384 threads */
    } else {
        return fail(err, "param size must be small or paper");
    }
    h.sy = (size_t)h.dimx + 2 * RADIUS;
    h.sz = h.sy * ((size_t)h.dimy + 2 * RADIUS);
    h.n = h.sz * ((size_t)h.dimz + 2 * RADIUS);

    simt_devptr_t d[3] = { 0, 0, 0 };
    int rc = SIMT_OK;
    h.in = malloc(h.n * sizeof(float));
    h.out = malloc(h.n * sizeof(float));
    if (!h.in || !h.out)
        rc = fail(err, "host out of memory");
    else {
        fill(&h, (uint32_t)seed_l);
        if ((rc = device_run(gpu, mod, &h, d, err)) == SIMT_OK) {
            double e = check(&h);
            res->passed = e <= TOL;
            snprintf(res->detail, sizeof res->detail,
                     "%dx%dx%d points, radius %d, %ux%u CTAs of %ux%u: max rel err %.2g (tol %.0e)",
                     h.dimx, h.dimy, h.dimz, RADIUS, (h.dimx + BDX - 1) / BDX,
                     (h.dimy + BDY - 1) / BDY, BDX, BDY, e, TOL);
        }
    }
    rc = simt_wl_release(gpu, d, 3, rc, err);
    free(h.in);
    free(h.out);
    return rc;
}

SIMT_WORKLOAD(fdtd3d, "FDTD3d radius-4 stencil marching along z with a shared xy tile + halo",
              "workloads/fdtd3d/kernel.ptx", run_fdtd3d);
