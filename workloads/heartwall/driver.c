/* heartwall driver: the frame-0 launch (every point's 51x51 template copied out of frame 0, row-major, and its
 * frame-0 location) is checked element for element; at the small size a frame-1 launch then tracks the points
 * (the paper's size runs frame 0 only, as the paper's frame_processed = 1 build).  Inputs: a seeded textured frame 0 (two octaves of value noise plus fine noise) and frame 1 = frame 0
 * moved by a smooth motion field (contraction toward the centre plus a drift, bilinear resampling, fresh
 * noise); sample points on two ellipses (the inner and outer heart wall).  One block of heartwall_track per
 * point; every value of each point's correlation surface is compared with a double-precision evaluation, the
 * chosen peak must be a maximum of the reference surface (within the tolerance), and the record (template
 * mean and inverse norm, score, sub-pixel position) is compared with the same computation in double from the
 * kernel's own surface.  The detail also gives the mean distance of the tracked points from the true motion. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

/* must match kernel.cu */
#define NT 128
#define TR 51
#define TS 11
#define RAD 8
#define NO (2 * RAD + 1)
#define WS (TS + 2 * RAD)
#define NREC 5

#define TOL_NCC 1e-4 /* abs, on a correlation value in [-1, 1] */
#define TOL_REL 1e-5 /* rel, on the template mean and inverse norm */
#define TOL_POS 1e-3 /* pixels, on the sub-pixel position */

typedef struct hw {
    int w, h, npts, frames;   /* frames launched: 1 (frame 0 only) or 2 */
    float *f0, *f1;
    float *tmpl;              /* templates, npts x TR x TR row-major (results) */
    int *loc;                 /* frame-0 locations, npts x 2 (results) */
    int *py, *px;
    double *ty, *tx;          /* true position in frame 1 */
    float *rec, *surf;        /* results */
} hw_t;

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "heartwall: %s", msg);
    return SIMT_EINPUT;
}

static double unit(uint32_t *s)
{
    return (double)(simt_wl_rand(s) >> 8) / 16777216.0;
}

/* Bilinear sample of a lattice of (n x n) values spaced `step` pixels apart. */
static double lattice(const double *g, int n, double step, double y, double x)
{
    double fy = y / step, fx = x / step;
    int iy = (int)fy, ix = (int)fx;
    if (iy > n - 2)
        iy = n - 2;
    if (ix > n - 2)
        ix = n - 2;
    double ay = fy - iy, ax = fx - ix;
    return (1 - ay) * ((1 - ax) * g[iy * n + ix] + ax * g[iy * n + ix + 1]) +
           ay * ((1 - ax) * g[(iy + 1) * n + ix] + ax * g[(iy + 1) * n + ix + 1]);
}

static double bilinear(const float *f, int w, int h, double y, double x)
{
    if (y < 0)
        y = 0;
    if (x < 0)
        x = 0;
    if (y > h - 1.001)
        y = h - 1.001;
    if (x > w - 1.001)
        x = w - 1.001;
    int iy = (int)y, ix = (int)x;
    double ay = y - iy, ax = x - ix;
    const float *r = f + (size_t)iy * w + ix;
    return (1 - ay) * ((1 - ax) * r[0] + ax * r[1]) + ay * ((1 - ax) * r[w] + ax * r[w + 1]);
}

/* The motion field at (y, x): contraction toward the centre plus a drift. */
static void motion(const hw_t *h, double y, double x, double *dy, double *dx)
{
    *dy = 0.025 * (h->h / 2.0 - y) + 1.4;
    *dx = 0.025 * (h->w / 2.0 - x) - 0.9;
}

static void hw_free(hw_t *h)
{
    free(h->f0);
    free(h->f1);
    free(h->py);
    free(h->px);
    free(h->ty);
    free(h->tx);
    free(h->rec);
    free(h->surf);
    free(h->tmpl);
    free(h->loc);
}

static int hw_make(hw_t *h, uint32_t seed)
{
    size_t n = (size_t)h->w * h->h;
    int n1 = h->w / 8 + 2, n2 = h->w / 3 + 2;
    double *g1 = malloc((size_t)n1 * n1 * sizeof(double)), *g2 = malloc((size_t)n2 * n2 * sizeof(double));
    h->f0 = malloc(n * sizeof(float));
    h->f1 = malloc(n * sizeof(float));
    h->py = malloc((size_t)h->npts * sizeof(int));
    h->px = malloc((size_t)h->npts * sizeof(int));
    h->ty = malloc((size_t)h->npts * sizeof(double));
    h->tx = malloc((size_t)h->npts * sizeof(double));
    h->rec = malloc((size_t)h->npts * NREC * sizeof(float));
    h->surf = malloc((size_t)h->npts * NO * NO * sizeof(float));
    h->tmpl = malloc((size_t)h->npts * TR * TR * sizeof(float));
    h->loc = malloc((size_t)h->npts * 2 * sizeof(int));
    if (!g1 || !g2 || !h->f0 || !h->f1 || !h->py || !h->px || !h->ty || !h->tx || !h->rec || !h->surf ||
        !h->tmpl || !h->loc) {
        free(g1);
        free(g2);
        return -1;
    }
    for (int i = 0; i < n1 * n1; i++)
        g1[i] = unit(&seed);
    for (int i = 0; i < n2 * n2; i++)
        g2[i] = unit(&seed);
    for (int y = 0; y < h->h; y++)
        for (int x = 0; x < h->w; x++)
            h->f0[(size_t)y * h->w + x] =
                (float)(0.6 * lattice(g1, n1, 8.0, y, x) + 0.3 * lattice(g2, n2, 3.0, y, x) + 0.1 * unit(&seed));
    for (int y = 0; y < h->h; y++)
        for (int x = 0; x < h->w; x++) {
            double dy, dx;
            motion(h, y, x, &dy, &dx);
            h->f1[(size_t)y * h->w + x] =
                (float)(bilinear(h->f0, h->w, h->h, y - dy, x - dx) + 0.04 * (unit(&seed) - 0.5));
        }
    free(g1);
    free(g2);
    /* inner wall: 3/7 of the points, outer wall: the rest */
    int inner = h->npts * 3 / 7;
    for (int i = 0; i < h->npts; i++) {
        int outer = i >= inner, m = outer ? h->npts - inner : inner, k = outer ? i - inner : i;
        double a = 6.283185307179586 * (k + 0.5 * outer) / m;
        double ry = (outer ? 0.34 : 0.22) * h->h, rx = (outer ? 0.30 : 0.18) * h->w;
        h->py[i] = (int)lround(h->h / 2.0 + ry * sin(a));
        h->px[i] = (int)lround(h->w / 2.0 + rx * cos(a));
        double dy, dx;
        motion(h, h->py[i], h->px[i], &dy, &dx);
        h->ty[i] = h->py[i] + dy;
        h->tx[i] = h->px[i] + dx;
    }
    return 0;
}

/* The kernel's sub-pixel rule, in double, on a surface s (row-major NO x NO) with peak k. */
static void subpixel(const double *s, int k, double *fy, double *fx)
{
    int oy = k / NO, ox = k % NO;
    double s0 = s[k];
    *fy = *fx = 0.0;
    if (oy > 0 && oy < NO - 1) {
        double a = s[k - NO], b = s[k + NO], den = a - 2.0 * s0 + b;
        if (den < 0.0)
            *fy = fmin(0.5, fmax(-0.5, 0.5 * (a - b) / den));
    }
    if (ox > 0 && ox < NO - 1) {
        double a = s[k - 1], b = s[k + 1], den = a - 2.0 * s0 + b;
        if (den < 0.0)
            *fx = fmin(0.5, fmax(-0.5, 0.5 * (a - b) / den));
    }
}

/* The frame-0 launch: every template element equals its frame-0 pixel (a copy: exact), and every location is
 * the point's.  Returns the number of mismatches. */
static long check_templates(const hw_t *h)
{
    long bad = 0;
    for (int p = 0; p < h->npts; p++) {
        bad += h->loc[2 * p] != h->py[p] || h->loc[2 * p + 1] != h->px[p];
        for (int col = 0; col < TR; col++)
            for (int row = 0; row < TR; row++) {
                size_t f = (size_t)(h->py[p] - TR / 2 + row) * h->w + h->px[p] - TR / 2 + col;
                bad += h->tmpl[((size_t)p * TR + row) * TR + col] != h->f0[f];
            }
    }
    return bad;
}

static void check(const hw_t *h, simt_wl_result_t *res)
{
    long tbad = check_templates(h);
    if (h->frames == 1) {
        res->passed = tbad == 0;
        snprintf(res->detail, sizeof res->detail,
                 "%d points, %dx%d frames, frame 0 only: %dx%d templates, %ld mismatched elements or locations",
                 h->npts, h->w, h->h, TR, TR, tbad);
        return;
    }
    double e_ncc = 0, e_peak = 0, e_rel = 0, e_pos = 0, track = 0, score = 0;
    for (int p = 0; p < h->npts; p++) {
        const float *t0 = h->f0 + (size_t)(h->py[p] - TS / 2) * h->w + h->px[p] - TS / 2;
        const float *w0 = h->f1 + (size_t)(h->py[p] - WS / 2) * h->w + h->px[p] - WS / 2;
        double mean = 0, norm2 = 0;
        for (int i = 0; i < TS; i++)
            for (int j = 0; j < TS; j++)
                mean += t0[(size_t)i * h->w + j];
        mean /= TS * TS;
        for (int i = 0; i < TS; i++)
            for (int j = 0; j < TS; j++)
                norm2 += (t0[(size_t)i * h->w + j] - mean) * (t0[(size_t)i * h->w + j] - mean);
        double ref[NO * NO], gpu[NO * NO], rmax = -2;
        const float *surf = h->surf + (size_t)p * NO * NO;
        int kg = 0;
        for (int k = 0; k < NO * NO; k++) {
            int oy = k / NO, ox = k % NO;
            double cross = 0, s = 0, s2 = 0;
            for (int i = 0; i < TS; i++)
                for (int j = 0; j < TS; j++) {
                    double v = w0[(size_t)(oy + i) * h->w + ox + j];
                    cross += (t0[(size_t)i * h->w + j] - mean) * v;
                    s += v;
                    s2 += v * v;
                }
            double var = s2 - s * s / (TS * TS);
            ref[k] = var > 1e-6 && norm2 > 0 ? cross / sqrt(norm2 * var) : 0.0;
            rmax = fmax(rmax, ref[k]);
            gpu[k] = surf[k];
            if (surf[k] > surf[kg])
                kg = k;
            double e = fabs(surf[k] - ref[k]);
            e_ncc = isnan(e) || e > e_ncc ? (isnan(e) ? INFINITY : e) : e_ncc;
        }
        double e = rmax - ref[kg]; /* how far the chosen peak falls short of the reference maximum */
        e_peak = isnan(e) || e > e_peak ? (isnan(e) ? INFINITY : e) : e_peak;
        const float *rec = h->rec + (size_t)p * NREC;
        double inv = norm2 > 0 ? 1.0 / sqrt(norm2) : 0.0;
        e = fmax(fabs(rec[0] - mean) / fabs(mean), fabs(rec[1] - inv) / inv);
        e_rel = isnan(e) || e > e_rel ? (isnan(e) ? INFINITY : e) : e_rel;
        double fy, fx;
        subpixel(gpu, kg, &fy, &fx);
        double y = h->py[p] + kg / NO - RAD + fy, x = h->px[p] + kg % NO - RAD + fx;
        e = fmax(fabs(rec[3] - y), fabs(rec[4] - x));
        if (rec[2] != surf[kg])
            e = INFINITY;
        e_pos = isnan(e) || e > e_pos ? (isnan(e) ? INFINITY : e) : e_pos;
        track += hypot(rec[3] - h->ty[p], rec[4] - h->tx[p]);
        score += rec[2];
    }
    res->passed = tbad == 0 && e_ncc <= TOL_NCC && e_peak <= TOL_NCC && e_rel <= TOL_REL && e_pos <= TOL_POS;
    snprintf(res->detail, sizeof res->detail,
             "%d points, %dx%d frames, frames 0-1: %ld template mismatches; %dx%d template, %dx%d offsets: "
             "max abs err NCC %.2g, peak shortfall "
             "%.2g (tol %.0e); template stats rel err %.2g (tol %.0e); record position err %.2g px (tol %.0e); "
             "mean score %.3f, mean tracking error %.2f px",
             h->npts, h->w, h->h, tbad, TS, TS, NO, NO, e_ncc, e_peak, TOL_NCC, e_rel, TOL_REL, e_pos, TOL_POS,
             score / h->npts, track / h->npts);
}

/* One launch of heartwall_track for frame_no over every point. */
static int launch(simt_gpu_t *gpu, simt_module_t *mod, const hw_t *h, const simt_devptr_t *d, int frame_no,
                  simt_error_t *err)
{
    simt_launch_t l = {
        .grid = { (uint32_t)h->npts, 1, 1 },
        .block = { NT, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    int width = h->w;
    simt_arg_t args[] = { SIMT_ARG(frame_no), SIMT_ARG(d[frame_no]), SIMT_ARG(width), SIMT_ARG(d[2]),
                          SIMT_ARG(d[3]), SIMT_ARG(d[4]), SIMT_ARG(d[5]), SIMT_ARG(d[6]), SIMT_ARG(d[7]) };
    int rc = simt_launch_kernel(gpu, mod, "heartwall_track", &l, args, 9, err);
    return rc != SIMT_OK ? rc : simt_synchronize(gpu, err);
}

/* Device buffers: 0 frame0, 1 frame1, 2 point y, 3 point x, 4 templates, 5 locations, 6 records, 7 surfaces. */
static int device_run(simt_gpu_t *gpu, simt_module_t *mod, hw_t *h, simt_devptr_t *d, simt_error_t *err)
{
    size_t fb = (size_t)h->w * h->h * sizeof(float), pb = (size_t)h->npts * sizeof(int);
    size_t tb = (size_t)h->npts * TR * TR * sizeof(float), lb = 2 * pb;
    size_t rb = (size_t)h->npts * NREC * sizeof(float), sb = (size_t)h->npts * NO * NO * sizeof(float);
    int rc;
    if ((rc = simt_wl_upload(gpu, h->f0, fb, &d[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, h->f1, fb, &d[1], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, h->py, pb, &d[2], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, h->px, pb, &d[3], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, tb, &d[4], err)) != SIMT_OK || (rc = simt_malloc(gpu, lb, &d[5], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, rb, &d[6], err)) != SIMT_OK || (rc = simt_malloc(gpu, sb, &d[7], err)) != SIMT_OK)
        return rc;
    for (int f = 0; f < h->frames; f++)
        if ((rc = launch(gpu, mod, h, d, f, err)) != SIMT_OK)
            return rc;
    if ((rc = simt_memcpy_dtoh(gpu, h->tmpl, d[4], tb, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, h->loc, d[5], lb, err)) != SIMT_OK)
        return rc;
    if (h->frames == 1)
        return SIMT_OK;
    if ((rc = simt_memcpy_dtoh(gpu, h->rec, d[6], rb, err)) != SIMT_OK)
        return rc;
    return simt_memcpy_dtoh(gpu, h->surf, d[7], sb, err);
}

static int run_heartwall(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                         simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 140, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    hw_t h;
    memset(&h, 0, sizeof h);
    if (strcmp(size, "small") == 0) {
        h.w = h.h = 256;
        h.npts = 28;   /* 28 blocks a launch, frames 0 and 1 */
        h.frames = 2;
    } else if (strcmp(size, "paper") == 0) {
        h.w = h.h = 512;
        h.npts = 140;  /* ALL_POINTS: 140 blocks x 128 = 17,920 threads */
        h.frames = 1;  /* frame_processed = 1: the frame-0 launch only */
    } else {
        return fail(err, "param size must be small or paper");
    }
    simt_devptr_t d[8] = { 0 };
    int rc = SIMT_OK;
    if (hw_make(&h, (uint32_t)seed_l) != 0)
        rc = fail(err, "host out of memory");
    else if ((rc = device_run(gpu, mod, &h, d, err)) == SIMT_OK)
        check(&h, res);
    rc = simt_wl_release(gpu, d, 8, rc, err);
    hw_free(&h);
    return rc;
}

SIMT_WORKLOAD(heartwall, "heartwall: frame-0 templates, then point tracking by NCC in shared memory, sub-pixel",
              "workloads/heartwall/kernel.ptx", run_heartwall);
