/* madd driver: f32 C = A + B on a seeded n x n matrix pair, one launch of (n/16)^2 CTAs of 16x16.  Small:
 * n = 48 (9 CTAs).  Paper: n = 512 (1024 CTAs, reference/004 Table 2 MADD).  The CPU reference is the same
 * single f32 addition, so the check is exact (tolerance 0). */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BS 16 /* CTA side (kernel.cu) */

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "madd: %s", msg);
    return SIMT_EINPUT;
}

static int run_madd(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                    simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 512, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int n;
    if (strcmp(size, "small") == 0)
        n = 48;
    else if (strcmp(size, "paper") == 0)
        n = 512;
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t nn = (size_t)n * n;
    float *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C);
    simt_devptr_t dev[3] = { 0 };
    int rc = SIMT_OK;
    if (!A || !B || !C) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < nn; i++) {
        A[i] = (float)(simt_wl_rand(&seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
        B[i] = (float)(simt_wl_rand(&seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
    }
    simt_launch_t l = {
        .grid = { (uint32_t)(n / BS), (uint32_t)(n / BS), 1 },
        .block = { BS, BS, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    if ((rc = simt_wl_upload(gpu, A, nn * sizeof *A, &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, B, nn * sizeof *B, &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, nn * sizeof *C, &dev[2], err)) != SIMT_OK)
        goto done;
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(n) };
    if ((rc = simt_launch_kernel(gpu, mod, "madd", &l, args, 4, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, C, dev[2], nn * sizeof *C, err)) != SIMT_OK)
        goto done;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < nn; i++)
        if (C[i] != A[i] + B[i] && bad++ == 0)
            first = i;
    res->passed = bad == 0;
    snprintf(res->detail, sizeof res->detail, "%dx%d matrices, %d CTAs: %zu of %zu elements differ "
             "(first at %zu; exact check)", n, n, (n / BS) * (n / BS), bad, nn, bad ? first : 0);
done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(A);
    free(B);
    free(C);
    return rc;
}

SIMT_WORKLOAD(madd, "f32 matrix addition, one element per thread, 16x16 CTAs (004 MADD)",
              "workloads/madd/kernel.ptx", run_madd);
