/* tran driver: f32 transpose of a seeded w x h matrix through 16x16 shared tiles, launched `iters` times on
 * the same input (the SDK harness's timing loop), (w/16) x (h/16) CTAs of 16x16 per launch.  Small: 48x32
 * (6 CTAs), 2 launches.  Paper: 512x256 (32x16 = 512 CTAs), 8 launches = 4096 CTAs (reference/004 Table 2
 * TRAN).  A transpose moves bits: the check is exact. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define TS 16 /* tile and CTA side (kernel.cu) */

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "tran: %s", msg);
    return SIMT_EINPUT;
}

static int run_tran(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                    simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 4096, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int w, h, iters;
    if (strcmp(size, "small") == 0) {
        w = 48;
        h = 32;
        iters = 2;
    } else if (strcmp(size, "paper") == 0) {
        w = 512;
        h = 256;
        iters = 8;
    } else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t n = (size_t)w * h;
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    simt_devptr_t dev[2] = { 0 };
    int rc = SIMT_OK;
    if (!in || !out) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        in[i] = (float)(simt_wl_rand(&seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
    simt_launch_t l = {
        .grid = { (uint32_t)(w / TS), (uint32_t)(h / TS), 1 },
        .block = { TS, TS, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    if ((rc = simt_wl_upload(gpu, in, n * sizeof *in, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, n * sizeof *out, &dev[1], err)) != SIMT_OK)
        goto done;
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(w), SIMT_ARG(h) };
    for (int it = 0; it < iters; it++)
        if ((rc = simt_launch_kernel(gpu, mod, "tran", &l, args, 4, err)) != SIMT_OK ||
            (rc = simt_synchronize(gpu, err)) != SIMT_OK)
            goto done;
    if ((rc = simt_memcpy_dtoh(gpu, out, dev[1], n * sizeof *out, err)) != SIMT_OK)
        goto done;
    size_t bad = 0, first = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (out[(size_t)x * h + y] != in[(size_t)y * w + x] && bad++ == 0)
                first = (size_t)x * h + y;
    res->passed = bad == 0;
    snprintf(res->detail, sizeof res->detail, "%dx%d -> %dx%d, %d launches of %d CTAs: %zu of %zu elements "
             "differ (first at %zu; exact check)", w, h, h, w, iters, (w / TS) * (h / TS), bad, n,
             bad ? first : 0);
done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(in);
    free(out);
    return rc;
}

SIMT_WORKLOAD(tran, "f32 matrix transpose through a 16x17 shared tile, 16x16 CTAs (004 TRAN)",
              "workloads/tran/kernel.ptx", run_tran);
