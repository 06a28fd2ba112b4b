/* bp004 driver: one Rodinia-style backprop step over `in` input units and 16 hidden units: the layer-
 * forward kernel's per-CTA partial sums (checked against a CPU double sum) and then the momentum weight
 * update (both updated arrays checked against a CPU double update), each error relative to the largest
 * reference magnitude. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BS 16
#define HID 16 /* hidden units = blockDim.x */
#define TOL 1e-5
#define ETA 0.3f
#define MOMENTUM 0.3f

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "bp004: %s", msg);
    return SIMT_EINPUT;
}

static float unit(uint32_t *s) /* uniform in [-1, 1) */
{
    return (float)(simt_wl_rand(s) >> 8) / 8388608.0f - 1.0f;
}

/* Keeps the largest absolute error seen (a NaN counts as the worst). */
static void track(double *worst, float got, double want)
{
    double e = fabs(got - want);
    *worst = e > *worst || isnan(e) ? e : *worst;
}

static int run_bp004(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                     simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 65536, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int rows;
    if (strcmp(size, "small") == 0)
        rows = 4;      /* 4 + 4 CTAs */
    else if (strcmp(size, "paper") == 0)
        rows = 32768;  /* 32768 + 32768 = 65536 CTAs of 16x16 over 2 kernels (004 Table 2) */
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    int in = rows * BS, hid = HID;
    size_t nw = (size_t)in * HID;
    float *x = malloc((size_t)in * sizeof(float)), *w = malloc(nw * sizeof(float)), *ow = malloc(nw * sizeof(float));
    float *part = malloc((size_t)rows * HID * sizeof(float)), *w2 = malloc(nw * sizeof(float));
    float *ow2 = malloc(nw * sizeof(float)), delta[HID];
    simt_devptr_t dev[5] = { 0 };
    int rc = SIMT_OK;
    if (!x || !w || !ow || !part || !w2 || !ow2) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (int i = 0; i < in; i++)
        x[i] = unit(&seed);
    for (size_t i = 0; i < nw; i++)
        w[i] = unit(&seed), ow[i] = 0.1f * unit(&seed);
    for (int j = 0; j < HID; j++)
        delta[j] = unit(&seed);
    float eta = ETA, mom = MOMENTUM;
    simt_launch_t l = { .grid = { 1, (uint32_t)rows, 1 }, .block = { BS, BS, 1 } };
    if ((rc = simt_wl_upload(gpu, x, (size_t)in * sizeof(float), &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, w, nw * sizeof(float), &dev[1], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, ow, nw * sizeof(float), &dev[2], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, delta, sizeof delta, &dev[3], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, (size_t)rows * HID * sizeof(float), &dev[4], err)) != SIMT_OK)
        goto done;
    simt_arg_t a1[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[4]), SIMT_ARG(hid) };
    simt_arg_t a2[] = { SIMT_ARG(dev[3]), SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(hid),
                        SIMT_ARG(eta), SIMT_ARG(mom) };
    if ((rc = simt_launch_kernel(gpu, mod, "bp004_layerforward", &l, a1, 4, err)) != SIMT_OK ||
        (rc = simt_launch_kernel(gpu, mod, "bp004_adjust_weights", &l, a2, 7, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, part, dev[4], (size_t)rows * HID * sizeof(float), err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, w2, dev[1], nw * sizeof(float), err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, ow2, dev[2], nw * sizeof(float), err)) != SIMT_OK)
        goto done;
    double ep = 0.0, ew = 0.0;
    for (int b = 0; b < rows; b++)
        for (int j = 0; j < HID; j++) {
            double s = 0.0;
            for (int r = b * BS; r < (b + 1) * BS; r++)
                s += (double)w[(size_t)r * HID + j] * x[r];
            track(&ep, part[(size_t)b * HID + j], s); /* |s| <= 16: relative to 16 */
        }
    for (int r = 0; r < in; r++)
        for (int j = 0; j < HID; j++) {
            size_t i = (size_t)r * HID + j;
            double dw = (double)ETA * delta[j] * x[r] + (double)MOMENTUM * ow[i];
            track(&ew, w2[i], w[i] + dw); /* |w + dw| < 1.5 */
            track(&ew, ow2[i], dw);
        }
    ep /= 16.0;
    res->passed = ep <= TOL && ew <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "%d inputs x %d hidden, 2 kernels x %d CTAs of 16x16: partial sums max err %.2e (of 16), weights "
             "max abs err %.2e (tol %.0e)", in, HID, rows, ep, ew, TOL);
done:
    rc = simt_wl_release(gpu, dev, 5, rc, err);
    free(x);
    free(w);
    free(ow);
    free(part);
    free(w2);
    free(ow2);
    return rc;
}

SIMT_WORKLOAD(bp004, "backprop layer-forward + weight adjust, 16x16 CTAs, hidden width 16 (004 BP shape)",
              "workloads/bp004/kernel.ptx", run_bp004);
