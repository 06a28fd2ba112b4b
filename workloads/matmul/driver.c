/* matmul driver: naive f32 C = A * B, one output element per thread; checked against a double
 * reference with the error scaled by sum_k |a_ik b_kj| (the bound on f32 rounding). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BLOCK 768u     /* the thesis machine's 768 threads per core, one block per core */
#define TOL 1e-5       /* on |gpu - ref| / sum_k |a_ik b_kj| */

typedef struct mm_dims {
    int M, N, K;
    uint32_t grid;
} mm_dims_t;

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "matmul: %s", msg);
    return SIMT_EINPUT;
}

static void fill(float *v, size_t n, uint32_t *seed) /* uniform in [-1, 1) */
{
    for (size_t i = 0; i < n; i++)
        v[i] = (float)(simt_wl_rand(seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

static void check(const mm_dims_t *d, const float *A, const float *B, const float *C,
                  simt_wl_result_t *res)
{
    double worst = 0.0;
    int at = 0;
    for (int i = 0; i < d->M; i++) {
        for (int j = 0; j < d->N; j++) {
            double s = 0.0, mag = 0.0;
            for (int k = 0; k < d->K; k++) {
                double p = (double)A[i * d->K + k] * B[k * d->N + j];
                s += p;
                mag += fabs(p);
            }
            double e = fabs(C[i * d->N + j] - s) / (mag > 0.0 ? mag : 1.0);
            if (!(e <= worst)) {
                worst = e;
                at = i * d->N + j;
            }
        }
    }
    res->passed = worst <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "C %dx%d = A %dx%d * B %dx%d, max scaled err %.2e at %d (tol %.0e)",
             d->M, d->N, d->M, d->K, d->K, d->N, worst, at, TOL);
}

static int launch(simt_gpu_t *gpu, simt_module_t *mod, const mm_dims_t *d,
                  const simt_devptr_t *dev, simt_error_t *err)
{
    simt_launch_t l = {
        .grid = { d->grid, 1, 1 },
        .block = { BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]),
                          SIMT_ARG(d->M), SIMT_ARG(d->N), SIMT_ARG(d->K) };
    int rc = simt_launch_kernel(gpu, mod, "matmul", &l, args, 6, err);
    return rc != SIMT_OK ? rc : simt_synchronize(gpu, err);
}

static int run_matmul(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                      simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 1969, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    mm_dims_t d;
    if (strcmp(size, "small") == 0)
        d = (mm_dims_t){ .M = 12, .N = 128, .K = 64, .grid = 2 };
    else if (strcmp(size, "paper") == 0)
        d = (mm_dims_t){ .M = 96, .N = 128, .K = 128, .grid = 16 }; /* 12,288 outputs and threads */
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t na = (size_t)d.M * d.K, nb = (size_t)d.K * d.N, nc = (size_t)d.M * d.N;
    float *A = malloc(na * sizeof *A), *B = malloc(nb * sizeof *B), *C = malloc(nc * sizeof *C);
    simt_devptr_t dev[3] = { 0 };
    int rc = SIMT_OK;
    if (!A || !B || !C) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    fill(A, na, &seed);
    fill(B, nb, &seed);
    if ((rc = simt_wl_upload(gpu, A, na * sizeof *A, &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, B, nb * sizeof *B, &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, nc * sizeof *C, &dev[2], err)) != SIMT_OK ||
        (rc = launch(gpu, mod, &d, dev, err)) != SIMT_OK ||
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

SIMT_WORKLOAD(matmul, "naive f32 matrix multiply, one output per thread (DWF Matrix)",
              "workloads/matmul/kernel.ptx", run_matmul);
