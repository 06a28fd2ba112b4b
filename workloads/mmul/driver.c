/* mmul driver: tiled f32 C = A * B (16x16 shared tiles, one output per thread, 16x16 CTAs), one launch.
 * Small: C 32x48 = A 32x32 * B 32x48 (2x3 = 6 CTAs).  Paper: C 384x576 = A 384x256 * B 256x576, a 36x24
 * grid = 864 CTAs (reference/004 Table 2 MMUL).  Checked against a double reference with the error scaled
 * by sum_k |a_ik b_kj| (the bound on f32 rounding). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define TS 16      /* tile side = blockDim.x = blockDim.y (kernel.cu) */
#define TOL 1e-5   /* on |gpu - ref| / sum_k |a_ik b_kj| */

typedef struct mmul_dims {
    int hA, wA, wB;
} mmul_dims_t;

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "mmul: %s", msg);
    return SIMT_EINPUT;
}

static void fill(float *v, size_t n, uint32_t *seed) /* uniform in [-1, 1) */
{
    for (size_t i = 0; i < n; i++)
        v[i] = (float)(simt_wl_rand(seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

static void check(const mmul_dims_t *d, const float *A, const float *B, const float *C,
                  simt_wl_result_t *res)
{
    double worst = 0.0;
    int at = 0;
    for (int i = 0; i < d->hA; i++)
        for (int j = 0; j < d->wB; j++) {
            double s = 0.0, mag = 0.0;
            for (int k = 0; k < d->wA; k++) {
                double p = (double)A[i * d->wA + k] * B[k * d->wB + j];
                s += p;
                mag += fabs(p);
            }
            double e = fabs(C[i * d->wB + j] - s) / (mag > 0.0 ? mag : 1.0);
            if (!(e <= worst)) {
                worst = e;
                at = i * d->wB + j;
            }
        }
    res->passed = worst <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "C %dx%d = A %dx%d * B %dx%d, %d CTAs: max scaled err %.2e at %d (tol %.0e)", d->hA, d->wB,
             d->hA, d->wA, d->wA, d->wB, (d->hA / TS) * (d->wB / TS), worst, at, TOL);
}

static int run_mmul(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                    simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 2014, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    mmul_dims_t d;
    if (strcmp(size, "small") == 0)
        d = (mmul_dims_t){ .hA = 32, .wA = 32, .wB = 48 };
    else if (strcmp(size, "paper") == 0)
        d = (mmul_dims_t){ .hA = 384, .wA = 256, .wB = 576 };
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t na = (size_t)d.hA * d.wA, nb = (size_t)d.wA * d.wB, nc = (size_t)d.hA * d.wB;
    float *A = malloc(na * sizeof *A), *B = malloc(nb * sizeof *B), *C = malloc(nc * sizeof *C);
    simt_devptr_t dev[3] = { 0 };
    int rc = SIMT_OK;
    if (!A || !B || !C) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    fill(A, na, &seed);
    fill(B, nb, &seed);
    simt_launch_t l = {
        .grid = { (uint32_t)(d.wB / TS), (uint32_t)(d.hA / TS), 1 },
        .block = { TS, TS, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    if ((rc = simt_wl_upload(gpu, A, na * sizeof *A, &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, B, nb * sizeof *B, &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, nc * sizeof *C, &dev[2], err)) != SIMT_OK)
        goto done;
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(d.wA),
                          SIMT_ARG(d.wB) };
    if ((rc = simt_launch_kernel(gpu, mod, "mmul", &l, args, 5, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, C, dev[2], nc * sizeof *C, err)) != SIMT_OK)
        goto done;
    check(&d, A, B, C, res);
done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(A);
    free(B);
    free(C);
    return rc;
}

SIMT_WORKLOAD(mmul, "tiled f32 matrix multiply through 16x16 shared tiles (004 MMUL)",
              "workloads/mmul/kernel.ptx", run_mmul);
