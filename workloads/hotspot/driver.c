/* hotspot driver: a seeded floorplan (background power plus a few hot units) and initial temperatures on a
 * rows x cols chip go through `launches` launches of hotspot_calc_temp, each advancing `steps` Euler steps
 * as a pyramid (ping-pong temperature arrays, running peak temperature in place); the final temperature and
 * peak of every cell are compared with a CPU double-precision simulation of the same steps (error relative
 * to the largest temperature, tolerance in the detail). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BS 16 /* must match kernel.cu */

/* model constants: explicit Euler is stable while K (2 RX + 2 RY + RZ + leakage slope) < 1 */
#define K 0.1f       /* time step / heat capacity */
#define RX 2.0f      /* 1 / lateral resistance, x */
#define RY 2.0f      /* 1 / lateral resistance, y */
#define RZ 0.1f      /* 1 / vertical resistance to the heat sink */
#define AMB 45.0f    /* ambient (heat-sink) temperature */
#define LEAK0 0.1f   /* leakage power at ambient temperature */
#define LEAKB 0.02f  /* leakage growth per degree */
#define TOL 2e-6     /* on max |T - ref| / max |ref| over temperatures and peaks */

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "hotspot: %s", msg);
    return SIMT_EINPUT;
}

static double unit(uint32_t *seed) /* uniform in [0, 1) */
{
    return (double)(simt_wl_rand(seed) >> 8) / 16777216.0;
}

/* One Euler step of the whole chip in double precision, insulated borders. */
static void ref_step(const float *pw, const double *t, double *tn, double *pk, int cols, int rows)
{
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            size_t c = (size_t)y * cols + x;
            double tc = t[c];
            double tnn = t[(size_t)(y > 0 ? y - 1 : y) * cols + x];
            double ts = t[(size_t)(y < rows - 1 ? y + 1 : y) * cols + x];
            double tw = t[(size_t)y * cols + (x > 0 ? x - 1 : x)];
            double te = t[(size_t)y * cols + (x < cols - 1 ? x + 1 : x)];
            double p = pw[c] + (double)LEAK0 * exp((double)LEAKB * (tc - (double)AMB));
            tn[c] = tc + (double)K * (p + (ts + tnn - 2.0 * tc) * (double)RY + (te + tw - 2.0 * tc) * (double)RX +
                                      ((double)AMB - tc) * (double)RZ);
            pk[c] = fmax(pk[c], tn[c]);
        }
}

static int launch_all(simt_gpu_t *gpu, simt_module_t *mod, int cols, int rows, int steps, int launches,
                      const simt_devptr_t *dev, simt_error_t *err)
{
    int out_tile = BS - 2 * steps;
    float k = K, rx = RX, ry = RY, rz = RZ, amb = AMB, l0 = LEAK0, lb = LEAKB;
    simt_launch_t l = {
        .grid = { (uint32_t)((cols + out_tile - 1) / out_tile), (uint32_t)((rows + out_tile - 1) / out_tile), 1 },
        .block = { BS, BS, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    for (int i = 0; i < launches; i++) {
        simt_devptr_t tin = dev[1 + (i & 1)], tout = dev[1 + ((i + 1) & 1)];
        simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(tin),   SIMT_ARG(tout), SIMT_ARG(dev[3]), SIMT_ARG(cols),
                              SIMT_ARG(rows),   SIMT_ARG(steps), SIMT_ARG(k),    SIMT_ARG(rx),     SIMT_ARG(ry),
                              SIMT_ARG(rz),     SIMT_ARG(amb),   SIMT_ARG(l0),   SIMT_ARG(lb) };
        int rc = simt_launch_kernel(gpu, mod, "hotspot_calc_temp", &l, args, 14, err);
        if (rc != SIMT_OK)
            return rc;
    }
    return simt_synchronize(gpu, err);
}

static int run_hotspot(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                       simt_error_t *err)
{
    long seed_l, steps_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 512, 1, 0x7fffffffL, &seed_l, err) != 0 ||
        simt_wl_param_int(params, "steps", 2, 1, 7, &steps_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int cols, rows, launches, steps = (int)steps_l;
    if (strcmp(size, "small") == 0)
        cols = 90, rows = 100, launches = 3;   /* 8 x 9 = 72 CTAs per launch (steps 2) */
    else if (strcmp(size, "paper") == 0)
        cols = 512, rows = 512, launches = 2;  /* Rodinia's 512 x 512 chip, pyramid 2: 43 x 43 = 1849 CTAs */
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t n = (size_t)cols * rows;
    float *pw = malloc(n * sizeof(float)), *t = malloc(n * sizeof(float)), *pk = malloc(n * sizeof(float));
    double *ra = malloc(n * sizeof(double)), *rb = malloc(n * sizeof(double)), *rp = malloc(n * sizeof(double));
    simt_devptr_t dev[4] = { 0 };
    int rc = SIMT_OK;
    if (!pw || !t || !pk || !ra || !rb || !rp) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    /* background power 0..0.5 per cell, plus 6 rectangular units at 1.5..3 */
    for (size_t i = 0; i < n; i++)
        pw[i] = (float)(0.5 * unit(&seed));
    for (int u = 0; u < 6; u++) {
        int w = 4 + (int)(unit(&seed) * cols / 4), h = 4 + (int)(unit(&seed) * rows / 4);
        int x0 = (int)(unit(&seed) * (cols - w)), y0 = (int)(unit(&seed) * (rows - h));
        float p = (float)(1.5 + 1.5 * unit(&seed));
        for (int y = y0; y < y0 + h; y++)
            for (int x = x0; x < x0 + w; x++)
                pw[(size_t)y * cols + x] = p;
    }
    for (size_t i = 0; i < n; i++) {
        t[i] = (float)(50.0 + 20.0 * unit(&seed));
        pk[i] = t[i];
        ra[i] = rp[i] = t[i];
    }
    if ((rc = simt_wl_upload(gpu, pw, n * sizeof(float), &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, t, n * sizeof(float), &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, n * sizeof(float), &dev[2], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, pk, n * sizeof(float), &dev[3], err)) != SIMT_OK ||
        (rc = launch_all(gpu, mod, cols, rows, steps, launches, dev, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, t, dev[1 + (launches & 1)], n * sizeof(float), err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, pk, dev[3], n * sizeof(float), err)) != SIMT_OK)
        goto done;
    for (int s = 0; s < steps * launches; s++) {
        ref_step(pw, ra, rb, rp, cols, rows);
        double *x = ra;
        ra = rb;
        rb = x;
    }
    double worst = 0.0, span = 0.0, tmin = INFINITY, tmax = 0.0;
    for (size_t i = 0; i < n; i++) {
        double e = fmax(fabs(t[i] - ra[i]), fabs(pk[i] - rp[i]));
        worst = e > worst || isnan(e) ? e : worst;
        span = fmax(span, fmax(fabs(ra[i]), fabs(rp[i])));
        tmin = fmin(tmin, ra[i]);
        tmax = fmax(tmax, ra[i]);
    }
    double rel = worst / (span > 0 ? span : 1);
    res->passed = rel <= TOL;
    int out_tile = BS - 2 * steps;
    snprintf(res->detail, sizeof res->detail,
             "%dx%d chip, %d launches x %d steps, grid %dx%d of 16x16: T in [%.1f, %.1f], max rel err %.2e (tol %.0e)",
             cols, rows, launches, steps, (cols + out_tile - 1) / out_tile, (rows + out_tile - 1) / out_tile, tmin,
             tmax, rel, TOL);
done:
    rc = simt_wl_release(gpu, dev, 4, rc, err);
    free(pw);
    free(t);
    free(pk);
    free(ra);
    free(rb);
    free(rp);
    return rc;
}

SIMT_WORKLOAD(hotspot, "hotspot thermal simulation, 16x16 pyramid of 2 steps, 3 shared 16x16 tiles, border branches",
              "workloads/hotspot/kernel.ptx", run_hotspot);
