/* dct8x8 driver: seven workloads over one image size, one per kernel of kernel.cu (float tiles 32x16 and
 * 64x32 forward/inverse, 16-bit 32x32 tiles forward/inverse, and the direct one-coefficient-per-thread DCT).
 * Float results are checked against a double-precision 8x8 DCT; 16-bit results exactly against the same
 * fixed-point arithmetic on the CPU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define TOL 1e-5       /* float: max abs error relative to the largest reference magnitude */
#define COEF_BITS 13   /* 16-bit kernels: coefficient fraction bits (kernel.cu) */
#define COL_FRAC 2     /* 16-bit kernels: fraction bits kept between the row and the column pass */
#define PI 3.14159265358979323846

typedef enum { DCT_TILED_F32, DCT_TILED_S16, DCT_DIRECT } dct_kind_t;

typedef struct dct_desc {
    const char *name, *kernel;
    dct_kind_t kind;
    int inverse;
    uint32_t tw, th, tz; /* tile width and height in pixels; blockDim = (8, tw / 8, tz) */
} dct_desc_t;

static const dct_desc_t DCT1 = { "dct1", "dct2d_fwd", DCT_TILED_F32, 0, 32, 16, 2 };
static const dct_desc_t DCT2 = { "dct2", "dct2d_inv", DCT_TILED_F32, 1, 32, 16, 2 };
static const dct_desc_t DCT1_8K = { "dct1_8k", "dct2d_fwd_8k", DCT_TILED_F32, 0, 64, 32, 4 };
static const dct_desc_t DCT2_8K = { "dct2_8k", "dct2d_inv_8k", DCT_TILED_F32, 1, 64, 32, 4 };
static const dct_desc_t DCT3 = { "dct3", "dct_short_fwd", DCT_TILED_S16, 0, 32, 32, 4 };
static const dct_desc_t DCT4 = { "dct4", "dct_short_inv", DCT_TILED_S16, 1, 32, 32, 4 };
static const dct_desc_t DCT5 = { "dct5", "dct_direct", DCT_DIRECT, 0, 8, 8, 1 };

typedef struct dct_run {
    const dct_desc_t *d;
    uint32_t w, h;       /* image size in pixels */
    size_t bytes;        /* one image */
    void *in, *out;      /* host images: float or int16_t */
    double cosm[64];     /* C[k][n] = c_k cos((2n + 1) k pi / 16) */
} dct_run_t;

static int fail(simt_error_t *err, const dct_desc_t *d, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "%s: %s", d->name, msg);
    return SIMT_EINPUT;
}

static void make_cosm(double *c)
{
    for (int k = 0; k < 8; k++)
        for (int n = 0; n < 8; n++)
            c[k * 8 + n] = (k ? 0.5 : sqrt(0.125)) * cos((2 * n + 1) * k * PI / 16.0);
}

/* Forward inputs are pixels; inverse inputs are coefficients with a wider, signed range. */
static void fill_input(dct_run_t *r, uint32_t seed)
{
    size_t n = (size_t)r->w * r->h;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = simt_wl_rand(&seed);
        if (r->d->kind == DCT_TILED_S16)
            ((int16_t *)r->in)[i] = (int16_t)(r->d->inverse ? (int)(x % 1024u) - 512 : (int)(x % 256u) - 128);
        else
            ((float *)r->in)[i] = r->d->inverse ? (float)(x >> 8) / 65536.0f - 128.0f
                                                : (float)(x % 256u);
    }
}

static int device_run(simt_gpu_t *gpu, simt_module_t *mod, dct_run_t *r, simt_devptr_t *dev,
                      simt_error_t *err)
{
    int rc;
    if ((rc = simt_malloc(gpu, r->bytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, r->bytes, &dev[1], err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev[0], r->in, r->bytes, err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[1], 0, r->bytes, err)) != SIMT_OK)
        return rc;
    int stride = (int)r->w;
    simt_launch_t launch = {
        .grid = { r->w / r->d->tw, r->h / r->d->th, 1 },
        .block = { 8, r->d->tw / 8, r->d->tz },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    if (r->d->kind == DCT_DIRECT) {
        float cf[64];
        for (int i = 0; i < 64; i++)
            cf[i] = (float)r->cosm[i];
        if ((rc = simt_malloc(gpu, sizeof cf, &dev[2], err)) != SIMT_OK ||
            (rc = simt_memcpy_htod(gpu, dev[2], cf, sizeof cf, err)) != SIMT_OK)
            return rc;
        launch.block.y = 8;
        simt_arg_t args[] = { SIMT_ARG(dev[1]), SIMT_ARG(dev[0]), SIMT_ARG(dev[2]), SIMT_ARG(stride) };
        rc = simt_launch_kernel(gpu, mod, r->d->kernel, &launch, args, 4, err);
    } else {
        simt_arg_t args[] = { SIMT_ARG(dev[1]), SIMT_ARG(dev[0]), SIMT_ARG(stride) };
        rc = simt_launch_kernel(gpu, mod, r->d->kernel, &launch, args, 3, err);
    }
    if (rc != SIMT_OK || (rc = simt_synchronize(gpu, err)) != SIMT_OK)
        return rc;
    return simt_memcpy_dtoh(gpu, r->out, dev[1], r->bytes, err);
}

/* Double-precision 2D (I)DCT of the 8x8 block at (bx, by): out[v][u]. */
static void ref_block_f64(const dct_run_t *r, uint32_t bx, uint32_t by, double out[8][8])
{
    const float *img = r->in;
    double tmp[8][8];
    for (int y = 0; y < 8; y++) /* along rows */
        for (int k = 0; k < 8; k++) {
            double s = 0;
            for (int n = 0; n < 8; n++) {
                double c = r->d->inverse ? r->cosm[n * 8 + k] : r->cosm[k * 8 + n];
                s += c * img[(size_t)(by * 8 + y) * r->w + bx * 8 + n];
            }
            tmp[y][k] = s;
        }
    for (int x = 0; x < 8; x++) /* along columns */
        for (int k = 0; k < 8; k++) {
            double s = 0;
            for (int n = 0; n < 8; n++)
                s += (r->d->inverse ? r->cosm[n * 8 + k] : r->cosm[k * 8 + n]) * tmp[n][x];
            out[k][x] = s;
        }
}

static int round_shift(int v, int sh)
{
    return (v + (1 << (sh - 1))) >> sh;
}

/* One 8-point pass of the 16-bit kernels: integer matrix product with 13-bit coefficients, then a rounding shift. */
static void pass_s16(const int (*k13)[8], int inverse, const int in[8], int out[8], int sh)
{
    for (int k = 0; k < 8; k++) {
        int acc = 0;
        for (int n = 0; n < 8; n++)
            acc += (inverse ? k13[n][k] : k13[k][n]) * in[n];
        out[k] = (int16_t)round_shift(acc, sh);
    }
}

/* 16-bit fixed-point 2D (I)DCT of one 8x8 block, rows then columns, as the kernel does it. */
static void ref_block_s16(const dct_run_t *r, const int (*k13)[8], uint32_t bx, uint32_t by, int out[8][8])
{
    const int16_t *img = r->in;
    int tmp[8][8], v[8], o[8];
    for (int y = 0; y < 8; y++) {
        for (int n = 0; n < 8; n++)
            v[n] = img[(size_t)(by * 8 + y) * r->w + bx * 8 + n];
        pass_s16(k13, r->d->inverse, v, tmp[y], COEF_BITS - COL_FRAC);
    }
    for (int x = 0; x < 8; x++) {
        for (int n = 0; n < 8; n++)
            v[n] = tmp[n][x];
        pass_s16(k13, r->d->inverse, v, o, COEF_BITS + COL_FRAC);
        for (int k = 0; k < 8; k++)
            out[k][x] = o[k];
    }
}

/* Float kinds: max abs error over the largest magnitude.  16-bit: number of mismatching pixels. */
static double check(const dct_run_t *r)
{
    int k13[8][8];
    for (int i = 0; i < 64; i++)
        k13[i / 8][i % 8] = (int)lround(r->cosm[i] * (1 << COEF_BITS));
    double err = 0, mag = 0, bad = 0;
    for (uint32_t by = 0; by < r->h / 8; by++)
        for (uint32_t bx = 0; bx < r->w / 8; bx++) {
            double ref[8][8];
            int refi[8][8];
            if (r->d->kind == DCT_TILED_S16)
                ref_block_s16(r, (const int (*)[8])k13, bx, by, refi);
            else
                ref_block_f64(r, bx, by, ref);
            for (int i = 0; i < 64; i++) {
                size_t p = (size_t)(by * 8 + i / 8) * r->w + bx * 8 + i % 8;
                if (r->d->kind == DCT_TILED_S16) {
                    bad += ((const int16_t *)r->out)[p] != refi[i / 8][i % 8];
                    continue;
                }
                double e = fabs(((const float *)r->out)[p] - ref[i / 8][i % 8]);
                err = (e > err || isnan(e)) ? (isnan(e) ? INFINITY : e) : err;
                mag = fmax(mag, fabs(ref[i / 8][i % 8]));
            }
        }
    return r->d->kind == DCT_TILED_S16 ? bad : err / (mag > 0 ? mag : 1);
}

static void report(const dct_run_t *r, double e, simt_wl_result_t *res)
{
    int n = snprintf(res->detail, sizeof res->detail, "%s %ux%u image, %ux%u CTAs of %u: ", r->d->kernel,
                     r->w, r->h, r->w / r->d->tw, r->h / r->d->th,
                     r->d->kind == DCT_DIRECT ? 64u : 8 * (r->d->tw / 8) * r->d->tz);
    if (r->d->kind == DCT_TILED_S16) {
        res->passed = e == 0;
        snprintf(res->detail + n, sizeof res->detail - (size_t)n, "%.0f of %u pixels differ (exact)", e,
                 r->w * r->h);
    } else {
        res->passed = e <= TOL;
        snprintf(res->detail + n, sizeof res->detail - (size_t)n, "max rel err %.2g (tol %.0e)", e, TOL);
    }
}

static int run_dct(const dct_desc_t *d, simt_gpu_t *gpu, simt_module_t *mod,
                   const simt_wl_params_t *params, simt_wl_result_t *res, simt_error_t *err)
{
    const char *size = simt_wl_param_str(params, "size", "small");
    long seed_l;
    if (simt_wl_param_int(params, "seed", 11, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    dct_run_t r;
    memset(&r, 0, sizeof r);
    r.d = d;
    if (strcmp(size, "small") == 0) {
        r.w = 128; /* divisible by every tile: 4x4 CTAs of 32x16, 2x2 of 64x32, 16x8 of 8x8 */
        r.h = 64;
    } else if (strcmp(size, "paper") == 0) {
        r.w = r.h = 512; /* the SDK's 512x512 image: 32,768 threads for dct1..dct4 */
    } else {
        return fail(err, d, "param size must be small or paper");
    }
    r.bytes = (size_t)r.w * r.h * (d->kind == DCT_TILED_S16 ? sizeof(int16_t) : sizeof(float));
    make_cosm(r.cosm);

    simt_devptr_t dev[3] = { 0, 0, 0 };
    int rc = SIMT_OK;
    r.in = malloc(r.bytes);
    r.out = malloc(r.bytes);
    if (!r.in || !r.out)
        rc = fail(err, d, "host out of memory");
    else {
        fill_input(&r, (uint32_t)seed_l);
        if ((rc = device_run(gpu, mod, &r, dev, err)) == SIMT_OK)
            report(&r, check(&r), res);
    }
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(r.in);
    free(r.out);
    return rc;
}

#define DCT_ENTRY(fn, desc)                                                                        \
    static int fn(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,            \
                  simt_wl_result_t *res, simt_error_t *err)                                       \
    {                                                                                              \
        return run_dct(&desc, gpu, mod, params, res, err);                                         \
    }

DCT_ENTRY(run_dct1, DCT1)
DCT_ENTRY(run_dct2, DCT2)
DCT_ENTRY(run_dct1_8k, DCT1_8K)
DCT_ENTRY(run_dct2_8k, DCT2_8K)
DCT_ENTRY(run_dct3, DCT3)
DCT_ENTRY(run_dct4, DCT4)
DCT_ENTRY(run_dct5, DCT5)

SIMT_WORKLOAD(dct1, "dct8x8 forward 2D DCT, float 32x16 tile (2112 B shared)", "workloads/dct8x8/kernel.ptx", run_dct1);
SIMT_WORKLOAD(dct2, "dct8x8 inverse 2D DCT, float 32x16 tile (2112 B shared)", "workloads/dct8x8/kernel.ptx", run_dct2);
SIMT_WORKLOAD(dct1_8k, "dct8x8 forward 2D DCT, float 64x32 tile (8320 B shared)", "workloads/dct8x8/kernel.ptx", run_dct1_8k);
SIMT_WORKLOAD(dct2_8k, "dct8x8 inverse 2D DCT, float 64x32 tile (8320 B shared)", "workloads/dct8x8/kernel.ptx", run_dct2_8k);
SIMT_WORKLOAD(dct3, "dct8x8 forward 2D DCT, 16-bit 32x32 tile (2176 B shared)", "workloads/dct8x8/kernel.ptx", run_dct3);
SIMT_WORKLOAD(dct4, "dct8x8 inverse 2D DCT, 16-bit 32x32 tile (2176 B shared)", "workloads/dct8x8/kernel.ptx", run_dct4);
SIMT_WORKLOAD(dct5, "dct8x8 direct 2D DCT, one coefficient per thread (Set-3, CTA-slot bound)", "workloads/dct8x8/kernel.ptx", run_dct5);
