/* ray driver: ray-trace a fixed-layout scene of seeded spheres over a checkered plane, one launch of
 * (w/16) x (h/8) CTAs of 16x8.  Small: 64x32 pixels (4x4 = 16 CTAs).  Paper: 1024x1024 (64x128 = 8192 CTAs,
 * reference/004 Table 2 RAY).  The CPU reference traces every pixel with the same float operations in the
 * same order (fmaf where the kernel fuses, plain float operations, correctly rounded division and square
 * root, no contraction: C11 mode compiles with -ffp-contract=off), so hits and colours must match bit for
 * bit: the check is exact. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BX 16 /* CTA width (kernel.cu) */
#define BY 8  /* CTA height (kernel.cu) */
#define NSPH 8
#define MAXDEPTH 3 /* kernel.cu from here on */
#define PLANE_REFL 0.3f
#define EPS 1e-3f
#define FAR 1e30f

typedef struct ray_vec {
    float x, y, z;
} ray_vec_t;

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "ray: %s", msg);
    return SIMT_EINPUT;
}

static ray_vec_t mk(float x, float y, float z)
{
    return (ray_vec_t){ x, y, z };
}
static ray_vec_t sub(ray_vec_t a, ray_vec_t b)
{
    return mk(a.x - b.x, a.y - b.y, a.z - b.z);
}
static ray_vec_t vmadd(ray_vec_t a, float s, ray_vec_t b)
{
    return mk(fmaf(a.x, s, b.x), fmaf(a.y, s, b.y), fmaf(a.z, s, b.z));
}
static float dot(ray_vec_t a, ray_vec_t b)
{
    return fmaf(a.z, b.z, fmaf(a.y, b.y, a.x * b.x));
}
static ray_vec_t norm(ray_vec_t a)
{
    float inv = 1.0f / sqrtf(dot(a, a));
    return mk(a.x * inv, a.y * inv, a.z * inv);
}

static float hit_sphere(const float *s, ray_vec_t o, ray_vec_t d)
{
    ray_vec_t oc = sub(o, mk(s[0], s[1], s[2]));
    float b = dot(oc, d);
    float c = dot(oc, oc) - s[3] * s[3];
    float disc = b * b - c;
    if (disc < 0.0f)
        return FAR;
    float q = sqrtf(disc);
    float t = -b - q;
    if (t > EPS)
        return t;
    t = -b + q;
    return t > EPS ? t : FAR;
}

/* kernel.cu's ray_trace for one pixel; *bounces gets the number of surfaces hit (for the detail line) */
static void trace(const float *sph, int nsph, int w, int h, ray_vec_t light, int px, int py, float out[3],
                  int *bounces)
{
    float aspect = (float)w / (float)h;
    float u = (((float)px + 0.5f) / (float)w - 0.5f) * (2.0f * aspect);
    float v = (0.5f - ((float)py + 0.5f) / (float)h) * 2.0f;
    ray_vec_t o = mk(0.0f, 1.5f, -5.0f);
    ray_vec_t d = norm(mk(u, v, 2.0f));
    float r = 0.0f, g = 0.0f, b = 0.0f, wgt = 1.0f;
    *bounces = 0;
    for (int depth = 0; depth < MAXDEPTH; depth++) {
        float t = FAR;
        int hit = -1;
        for (int i = 0; i < nsph; i++) {
            float ti = hit_sphere(sph + 8 * i, o, d);
            if (ti < t) {
                t = ti;
                hit = i;
            }
        }
        if (d.y < 0.0f) {
            float tp = -o.y / d.y;
            if (tp > EPS && tp < t) {
                t = tp;
                hit = nsph;
            }
        }
        if (hit < 0) {
            float sky = fmaf(d.y, 0.5f, 0.5f);
            r = fmaf(wgt, 0.5f * sky, r);
            g = fmaf(wgt, 0.7f * sky, g);
            b = fmaf(wgt, sky, b);
            break;
        }
        (*bounces)++;
        ray_vec_t p = vmadd(d, t, o), n;
        float cr, cg, cb, refl;
        if (hit == nsph) {
            n = mk(0.0f, 1.0f, 0.0f);
            int check = ((int)floorf(p.x) + (int)floorf(p.z)) & 1;
            cr = check ? 0.9f : 0.2f;
            cg = check ? 0.9f : 0.2f;
            cb = check ? 0.9f : 0.25f;
            refl = PLANE_REFL;
        } else {
            const float *s = sph + 8 * hit;
            n = norm(sub(p, mk(s[0], s[1], s[2])));
            cr = s[4], cg = s[5], cb = s[6], refl = s[7];
        }
        ray_vec_t tl = sub(light, p);
        float dist2 = dot(tl, tl);
        ray_vec_t l = norm(tl);
        float diff = dot(n, l);
        float shade = 0.1f;
        if (diff > 0.0f) {
            ray_vec_t so = vmadd(n, EPS, p);
            int lit = 1;
            for (int i = 0; i < nsph; i++) {
                float ts = hit_sphere(sph + 8 * i, so, l);
                if (ts * ts < dist2) {
                    lit = 0;
                    break;
                }
            }
            if (lit)
                shade = fmaf(diff, 0.9f, shade);
        }
        float k = wgt * (1.0f - refl);
        r = fmaf(k, cr * shade, r);
        g = fmaf(k, cg * shade, g);
        b = fmaf(k, cb * shade, b);
        if (refl <= 0.0f)
            break;
        wgt = wgt * refl;
        d = vmadd(n, -2.0f * dot(d, n), d);
        o = vmadd(n, EPS, p);
    }
    out[0] = r;
    out[1] = g;
    out[2] = b;
}

static float unit(uint32_t *seed) /* uniform in [0, 1) */
{
    return (float)(simt_wl_rand(seed) >> 8) * (1.0f / 16777216.0f);
}

static int run_ray(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                   simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 8192, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int w, h;
    if (strcmp(size, "small") == 0) {
        w = 64;
        h = 32;
    } else if (strcmp(size, "paper") == 0) {
        w = 1024;
        h = 1024;
    } else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t n = (size_t)w * h;
    float sph[8 * NSPH], *img = malloc(4 * n * sizeof *img);
    simt_devptr_t dev[2] = { 0 };
    int rc = SIMT_OK;
    if (!img) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    /* spheres on a 4x2 layout in x and z with seeded jitter, radius, colour; every other one a mirror */
    for (int i = 0; i < NSPH; i++) {
        float *s = sph + 8 * i;
        s[3] = 0.4f + 0.4f * unit(&seed);
        s[0] = -3.0f + 2.0f * (float)(i % 4) + 0.5f * unit(&seed);
        s[1] = s[3] + 0.5f * unit(&seed);
        s[2] = 1.0f + 2.5f * (float)(i / 4) + 0.5f * unit(&seed);
        s[4] = 0.2f + 0.8f * unit(&seed);
        s[5] = 0.2f + 0.8f * unit(&seed);
        s[6] = 0.2f + 0.8f * unit(&seed);
        s[7] = (i & 1) ? 0.3f + 0.5f * unit(&seed) : 0.0f;
    }
    ray_vec_t light = mk(-4.0f, 8.0f, -3.0f);
    simt_launch_t l = {
        .grid = { (uint32_t)(w / BX), (uint32_t)(h / BY), 1 },
        .block = { BX, BY, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    if ((rc = simt_wl_upload(gpu, sph, sizeof sph, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, 4 * n * sizeof *img, &dev[1], err)) != SIMT_OK)
        goto done;
    int nsph = NSPH;
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(nsph), SIMT_ARG(dev[1]), SIMT_ARG(w), SIMT_ARG(h),
                          SIMT_ARG(light.x), SIMT_ARG(light.y), SIMT_ARG(light.z) };
    if ((rc = simt_launch_kernel(gpu, mod, "ray_trace", &l, args, 8, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, img, dev[1], 4 * n * sizeof *img, err)) != SIMT_OK)
        goto done;
    size_t bad = 0, first = 0, hist[MAXDEPTH + 1] = { 0 };
    for (int py = 0; py < h; py++)
        for (int px = 0; px < w; px++) {
            float want[3];
            int nb;
            trace(sph, NSPH, w, h, light, px, py, want, &nb);
            hist[nb]++;
            const float *got = img + 4 * ((size_t)py * w + px);
            if ((got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != 1.0f) && bad++ == 0)
                first = (size_t)py * w + px;
        }
    res->passed = bad == 0;
    snprintf(res->detail, sizeof res->detail,
             "%dx%d pixels, %d spheres, %d CTAs; paths with 0/1/2/3 hits: %zu/%zu/%zu/%zu; %zu pixels differ "
             "(first at %zu; exact check)", w, h, NSPH, (w / BX) * (h / BY), hist[0], hist[1], hist[2],
             hist[3], bad, bad ? first : 0);
done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(img);
    return rc;
}

SIMT_WORKLOAD(ray, "ray tracer: spheres, checkered plane, shadows, 3 mirror bounces, 16x8 CTAs (004 RAY)",
              "workloads/ray/kernel.ptx", run_ray);
