/* vadd driver: f32 C = A + B on seeded vectors, one launch of ceil(n / 256) 1D CTAs of 256 threads.  Small:
 * n = 1000 (4 CTAs, the last partly idle: the tail guard runs).  Paper: n = 2,097,152 (8192 CTAs;
 * reference/004 Table 2 VADD prints 8182, which is not a whole number of 256-thread CTAs for a power-of-two
 * vector: docs/workloads.md).  The CPU reference is the same f32 addition: the check is exact, and the
 * elements past n (a guard band the driver fills with a sentinel) must stay untouched. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BLOCK 256u
#define SENTINEL -12345.0f

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "vadd: %s", msg);
    return SIMT_EINPUT;
}

static int run_vadd(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                    simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 8192, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int n;
    if (strcmp(size, "small") == 0)
        n = 1000;
    else if (strcmp(size, "paper") == 0)
        n = 8192 * (int)BLOCK;
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    uint32_t grid = ((uint32_t)n + BLOCK - 1) / BLOCK;
    size_t cap = (size_t)grid * BLOCK; /* n rounded up to whole CTAs: the guard band is [n, cap) */
    float *A = malloc(cap * sizeof *A), *B = malloc(cap * sizeof *B), *C = malloc(cap * sizeof *C);
    simt_devptr_t dev[3] = { 0 };
    int rc = SIMT_OK;
    if (!A || !B || !C) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < cap; i++) {
        A[i] = (float)(simt_wl_rand(&seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
        B[i] = (float)(simt_wl_rand(&seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
        C[i] = SENTINEL;
    }
    simt_launch_t l = {
        .grid = { grid, 1, 1 },
        .block = { BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    if ((rc = simt_wl_upload(gpu, A, cap * sizeof *A, &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, B, cap * sizeof *B, &dev[1], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, C, cap * sizeof *C, &dev[2], err)) != SIMT_OK)
        goto done;
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(n) };
    if ((rc = simt_launch_kernel(gpu, mod, "vadd", &l, args, 4, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, C, dev[2], cap * sizeof *C, err)) != SIMT_OK)
        goto done;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < cap; i++)
        if (C[i] != (i < (size_t)n ? A[i] + B[i] : SENTINEL) && bad++ == 0)
            first = i;
    res->passed = bad == 0;
    snprintf(res->detail, sizeof res->detail, "n = %d, %u CTAs of %u: %zu of %zu elements (with the %zu-element "
             "guard band) differ (first at %zu; exact check)", n, grid, BLOCK, bad, cap, cap - (size_t)n,
             bad ? first : 0);
done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(A);
    free(B);
    free(C);
    return rc;
}

SIMT_WORKLOAD(vadd, "f32 vector addition, one element per thread, 256-thread 1D CTAs (004 VADD)",
              "workloads/vadd/kernel.ptx", run_vadd);
