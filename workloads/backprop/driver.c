/* backprop driver: the layer-forward kernel (48x48 weight tiles, 16x16 CTAs) with its fused momentum
 * weight update; checks the per-tile partial sums and both updated weight arrays against a CPU reference. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define TILE 48u   /* inputs and hidden units per tile (kernel.cu) */
#define BDIM 16u   /* blockDim.x = blockDim.y */
#define TOL 1e-5   /* max abs error relative to the largest reference magnitude */
#define ETA 0.3f
#define MOMENTUM 0.3f

typedef struct bp_host {
    uint32_t in, hid, rows;          /* inputs, hidden units, row tiles (= grid.y) */
    float *input, *w, *oldw, *delta; /* inputs */
    float *partial, *w_out, *oldw_out; /* results copied back */
} bp_host_t;

static float rng_unit(uint32_t *s) /* uniform in [-1, 1) */
{
    return (float)(simt_wl_rand(s) >> 8) / 8388608.0f - 1.0f;
}

static int fail(simt_error_t *err, int status, const char *msg)
{
    err->status = status;
    snprintf(err->msg, sizeof err->msg, "backprop: %s", msg);
    return status;
}

static void host_free(bp_host_t *h)
{
    free(h->input);
    free(h->w);
    free(h->oldw);
    free(h->delta);
    free(h->partial);
    free(h->w_out);
    free(h->oldw_out);
}

static int host_alloc(bp_host_t *h, uint32_t seed)
{
    size_t nw = (size_t)h->in * h->hid;
    h->input = malloc(h->in * sizeof(float));
    h->w = malloc(nw * sizeof(float));
    h->oldw = malloc(nw * sizeof(float));
    h->delta = malloc(h->hid * sizeof(float));
    h->partial = malloc((size_t)h->rows * h->hid * sizeof(float));
    h->w_out = malloc(nw * sizeof(float));
    h->oldw_out = malloc(nw * sizeof(float));
    if (!h->input || !h->w || !h->oldw || !h->delta || !h->partial || !h->w_out || !h->oldw_out)
        return -1;
    for (uint32_t i = 0; i < h->in; i++)
        h->input[i] = rng_unit(&seed);
    for (size_t i = 0; i < nw; i++) {
        h->w[i] = rng_unit(&seed);
        h->oldw[i] = 0.1f * rng_unit(&seed);
    }
    for (uint32_t j = 0; j < h->hid; j++)
        h->delta[j] = rng_unit(&seed);
    return 0;
}

/* Device buffers: 0 input, 1 weights, 2 oldw, 3 delta, 4 partial. */
static int device_run(simt_gpu_t *gpu, simt_module_t *mod, bp_host_t *h, simt_devptr_t *d,
                      simt_error_t *err)
{
    size_t wb = (size_t)h->in * h->hid * sizeof(float);
    size_t pb = (size_t)h->rows * h->hid * sizeof(float);
    int rc;
    if ((rc = simt_malloc(gpu, h->in * sizeof(float), &d[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, wb, &d[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, wb, &d[2], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, h->hid * sizeof(float), &d[3], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, pb, &d[4], err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, d[0], h->input, h->in * sizeof(float), err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, d[1], h->w, wb, err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, d[2], h->oldw, wb, err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, d[3], h->delta, h->hid * sizeof(float), err)) != SIMT_OK ||
        (rc = simt_memset(gpu, d[4], 0, pb, err)) != SIMT_OK)
        return rc;
    int hid = (int)h->hid;
    float eta = ETA, momentum = MOMENTUM;
    simt_launch_t launch = {
        .grid = { h->hid / TILE, h->rows, 1 },
        .block = { BDIM, BDIM, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(d[0]), SIMT_ARG(d[1]), SIMT_ARG(d[2]), SIMT_ARG(d[3]),
                          SIMT_ARG(d[4]), SIMT_ARG(hid), SIMT_ARG(eta), SIMT_ARG(momentum) };
    if ((rc = simt_launch_kernel(gpu, mod, "backprop_layerforward", &launch, args, 8, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, h->partial, d[4], pb, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, h->w_out, d[1], wb, err)) != SIMT_OK)
        return rc;
    return simt_memcpy_dtoh(gpu, h->oldw_out, d[2], wb, err);
}

/* Partial sum of one tile column, in the kernel's order: products, then rows halved 48 -> 3, then 3 summed. */
static float ref_partial(const bp_host_t *h, uint32_t rt, uint32_t col)
{
    float p[TILE];
    for (uint32_t r = 0; r < TILE; r++) {
        uint32_t row = rt * TILE + r;
        p[r] = h->w[(size_t)row * h->hid + col] * h->input[row];
    }
    for (uint32_t s = TILE / 2; s >= 3; s /= 2)
        for (uint32_t r = 0; r < s; r++)
            p[r] += p[r + s];
    return p[0] + p[1] + p[2];
}

/* Updates the running max error and max magnitude with one value. */
static void track(double got, double ref, double *err, double *mag)
{
    double e = fabs(got - ref);
    if (e > *err || isnan(e))
        *err = isnan(e) ? INFINITY : e;
    if (fabs(ref) > *mag)
        *mag = fabs(ref);
}

static double check(const bp_host_t *h)
{
    double perr = 0, pmag = 0, werr = 0, wmag = 0;
    for (uint32_t rt = 0; rt < h->rows; rt++)
        for (uint32_t c = 0; c < h->hid; c++)
            track(h->partial[(size_t)rt * h->hid + c], ref_partial(h, rt, c), &perr, &pmag);
    for (uint32_t r = 0; r < h->in; r++)
        for (uint32_t c = 0; c < h->hid; c++) {
            size_t i = (size_t)r * h->hid + c;
            double dw = (double)ETA * h->delta[c] * h->input[r] + (double)MOMENTUM * h->oldw[i];
            track(h->oldw_out[i], dw, &werr, &wmag);
            track(h->w_out[i], h->w[i] + dw, &werr, &wmag);
        }
    double a = perr / (pmag > 0 ? pmag : 1), b = werr / (wmag > 0 ? wmag : 1);
    return a > b ? a : b;
}

static int run_backprop(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                        simt_wl_result_t *res, simt_error_t *err)
{
    const char *size = simt_wl_param_str(params, "size", "small");
    long seed_l;
    if (simt_wl_param_int(params, "seed", 7, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    bp_host_t h;
    memset(&h, 0, sizeof h);
    if (strcmp(size, "small") == 0) {
        h.hid = 2 * TILE; /* grid (2, 4): 8 CTAs */
        h.rows = 4;
    } else if (strcmp(size, "paper") == 0) {
        h.hid = TILE;     /* grid (1, 4096): 1,048,576 threads */
        h.rows = 4096;
    } else {
        return fail(err, SIMT_EINPUT, "param size must be small or paper");
    }
    h.in = h.rows * TILE;

    simt_devptr_t d[5] = { 0, 0, 0, 0, 0 };
    int rc = SIMT_OK;
    if (host_alloc(&h, (uint32_t)seed_l) != 0)
        rc = fail(err, SIMT_EINPUT, "host out of memory");
    else if ((rc = device_run(gpu, mod, &h, d, err)) == SIMT_OK) {
        double e = check(&h);
        res->passed = e <= TOL;
        snprintf(res->detail, sizeof res->detail,
                 "%u inputs x %u hidden, grid %ux%u of 16x16: max rel err %.2g (tol %.0e)", h.in,
                 h.hid, h.hid / TILE, h.rows, e, TOL);
    }
    rc = simt_wl_release(gpu, d, 5, rc, err);
    host_free(&h);
    return rc;
}

SIMT_WORKLOAD(backprop, "backprop layer forward: 48x48 shared weight tile, reduction, momentum update",
              "workloads/backprop/kernel.ptx", run_backprop);
