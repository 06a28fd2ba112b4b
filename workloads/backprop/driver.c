/* backprop driver: Rodinia's layer-forward shape (16x16 CTAs, one weight per thread, shared arrays declared
 * 48 and 48x48 as the paper's Table 3 sets WIDTH = HEIGHT = 48); checks the per-CTA partial sums and the
 * weights the kernel writes back (the reduction tree's rows, as Rodinia's kernel does) against a CPU
 * reference that adds in the kernel's order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BDIM 16u   /* blockDim.x = blockDim.y = input units per CTA (kernel.cu) */
#define HID 16u    /* hidden units: Rodinia's default, one CTA column */
#define TOL 1e-5   /* max abs error relative to the largest reference magnitude */

typedef struct bp_host {
    uint32_t in, hid, rows; /* inputs, hidden units, CTAs (= grid.y = in / 16) */
    float *input, *w;       /* input (in + 1, [0] the bias), weights (in + 1) x (hid + 1) */
    float *partial, *w_out; /* results copied back */
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
    free(h->partial);
    free(h->w_out);
}

static size_t n_weights(const bp_host_t *h)
{
    return (size_t)(h->in + 1) * (h->hid + 1);
}

static int host_alloc(bp_host_t *h, uint32_t seed)
{
    size_t nw = n_weights(h);
    h->input = malloc((h->in + 1) * sizeof(float));
    h->w = malloc(nw * sizeof(float));
    h->partial = malloc((size_t)h->rows * h->hid * sizeof(float));
    h->w_out = malloc(nw * sizeof(float));
    if (!h->input || !h->w || !h->partial || !h->w_out)
        return -1;
    for (uint32_t i = 0; i <= h->in; i++)
        h->input[i] = rng_unit(&seed);
    for (size_t i = 0; i < nw; i++)
        h->w[i] = rng_unit(&seed);
    return 0;
}

/* Device buffers: 0 input, 1 weights, 2 partial. */
static int device_run(simt_gpu_t *gpu, simt_module_t *mod, bp_host_t *h, simt_devptr_t *d,
                      simt_error_t *err)
{
    size_t ib = (h->in + 1) * sizeof(float);
    size_t wb = n_weights(h) * sizeof(float);
    size_t pb = (size_t)h->rows * h->hid * sizeof(float);
    int rc;
    if ((rc = simt_malloc(gpu, ib, &d[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, wb, &d[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, pb, &d[2], err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, d[0], h->input, ib, err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, d[1], h->w, wb, err)) != SIMT_OK ||
        (rc = simt_memset(gpu, d[2], 0, pb, err)) != SIMT_OK)
        return rc;
    int hid = (int)h->hid;
    simt_launch_t launch = {
        .grid = { 1, h->rows, 1 },
        .block = { BDIM, BDIM, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(d[0]), SIMT_ARG(d[1]), SIMT_ARG(d[2]), SIMT_ARG(hid) };
    if ((rc = simt_launch_kernel(gpu, mod, "backprop_layerforward", &launch, args, 4, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, h->partial, d[2], pb, err)) != SIMT_OK)
        return rc;
    return simt_memcpy_dtoh(gpu, h->w_out, d[1], wb, err);
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

/* One CTA column in the kernel's order: products, then the tree (row r with r % 2s == 0 adds row r + s)
 * for s = 1 .. 16, the last step adding the kernel's zero row 16 into row 0; p ends as the rows the kernel
 * writes back, p[0] the column's partial sum. */
static void ref_column(const bp_host_t *h, uint32_t by, uint32_t col, float *p)
{
    for (uint32_t r = 0; r < BDIM; r++) {
        uint32_t row = BDIM * by + r + 1;
        p[r] = h->w[(size_t)row * (h->hid + 1) + col + 1] * h->input[row];
    }
    p[BDIM] = 0.0f;
    for (uint32_t s = 1; s <= BDIM; s *= 2)
        for (uint32_t r = 0; r < BDIM; r += 2 * s)
            p[r] = p[r] + p[r + s];
}

static double check(const bp_host_t *h)
{
    double perr = 0, pmag = 0, werr = 0, wmag = 0;
    float p[BDIM + 1];
    for (uint32_t by = 0; by < h->rows; by++)
        for (uint32_t c = 0; c < h->hid; c++) {
            ref_column(h, by, c, p);
            track(h->partial[(size_t)by * h->hid + c], p[0], &perr, &pmag);
            for (uint32_t r = 0; r < BDIM; r++) {
                size_t i = (size_t)(BDIM * by + r + 1) * (h->hid + 1) + c + 1;
                track(h->w_out[i], p[r], &werr, &wmag);
            }
        }
    /* The bias row and column are not the kernel's: they must come back untouched. */
    for (uint32_t c = 0; c <= h->hid; c++)
        track(h->w_out[c], h->w[c], &werr, &wmag);
    for (uint32_t r = 1; r <= h->in; r++)
        track(h->w_out[(size_t)r * (h->hid + 1)], h->w[(size_t)r * (h->hid + 1)], &werr, &wmag);
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
    h.hid = HID;
    if (strcmp(size, "small") == 0) {
        h.rows = 8;    /* grid (1, 8): 8 CTAs */
    } else if (strcmp(size, "paper") == 0) {
        h.rows = 4096; /* grid (1, 4096): 1,048,576 threads (Rodinia's 65,536 inputs / 16) */
    } else {
        return fail(err, SIMT_EINPUT, "param size must be small or paper");
    }
    h.in = h.rows * BDIM;

    simt_devptr_t d[3] = { 0, 0, 0 };
    int rc = SIMT_OK;
    if (host_alloc(&h, (uint32_t)seed_l) != 0)
        rc = fail(err, SIMT_EINPUT, "host out of memory");
    else if ((rc = device_run(gpu, mod, &h, d, err)) == SIMT_OK) {
        double e = check(&h);
        res->passed = e <= TOL;
        snprintf(res->detail, sizeof res->detail,
                 "%u inputs x %u hidden, grid 1x%u of 16x16: max rel err %.2g (tol %.0e)", h.in, h.hid,
                 h.rows, e, TOL);
    }
    rc = simt_wl_release(gpu, d, 3, rc, err);
    host_free(&h);
    return rc;
}

SIMT_WORKLOAD(backprop, "backprop layer forward (Rodinia shape): 16x16 CTAs, 48x48 shared tile, tree reduction",
              "workloads/backprop/kernel.ptx", run_backprop);
