/* mriq driver: seeded voxel positions and K-space samples (kx, ky, kz, |phi|^2) go through mriq_compute_q,
 * one launch per chunk of samples accumulating into Qr/Qi (zeroed first); every voxel's Qr and Qi are
 * compared with a CPU double-precision sum (error relative to the sum of |phi|^2, a bound on |Q|; tolerance
 * in the detail). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BLOCK 256
#define UNROLL 4   /* kernel.cu: a chunk must be a multiple of 4 samples */
#define TOL 1e-5   /* on max |Q - ref| / sum |phi|^2 */

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "mriq: %s", msg);
    return SIMT_EINPUT;
}

static float uniform(uint32_t *seed, float lo, float hi) /* in [lo, hi) */
{
    return lo + (hi - lo) * (float)(simt_wl_rand(seed) >> 8) / 16777216.0f;
}

static int launch_all(simt_gpu_t *gpu, simt_module_t *mod, int voxels, int nk, int chunk, const simt_devptr_t *dev,
                      simt_error_t *err)
{
    simt_launch_t l = {
        .grid = { (uint32_t)(voxels / BLOCK), 1, 1 },
        .block = { BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    for (int first = 0; first < nk; first += chunk) {
        int count = nk - first < chunk ? nk - first : chunk;
        simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(dev[3]),
                              SIMT_ARG(first),  SIMT_ARG(count),  SIMT_ARG(dev[4]), SIMT_ARG(dev[5]) };
        int rc = simt_launch_kernel(gpu, mod, "mriq_compute_q", &l, args, 8, err);
        if (rc != SIMT_OK)
            return rc;
    }
    return simt_synchronize(gpu, err);
}

static int run_mriq(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                    simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 3072, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int voxels, nk, chunk;
    if (strcmp(size, "small") == 0)
        voxels = 15360, nk = 256, chunk = 128;    /* 60 CTAs (every fermi SM full at 4), 2 launches */
    else if (strcmp(size, "paper") == 0)
        voxels = 32768, nk = 3072, chunk = 1024;  /* Parboil mri-q's small input: 128 CTAs, 3 launches */
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    float *pos = malloc((size_t)3 * voxels * sizeof(float)), *kv = malloc((size_t)4 * nk * sizeof(float));
    float *q = malloc((size_t)2 * voxels * sizeof(float));
    simt_devptr_t dev[6] = { 0 };
    int rc = SIMT_OK;
    if (!pos || !kv || !q) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    /* voxels in the unit cube around the origin, k in [-2, 2)^3 cycles per unit, |phi|^2 in [0, 1) */
    for (int i = 0; i < 3 * voxels; i++)
        pos[i] = uniform(&seed, -0.5f, 0.5f);
    double phisum = 0.0;
    for (int i = 0; i < nk; i++) {
        for (int c = 0; c < 3; c++)
            kv[4 * i + c] = uniform(&seed, -2.0f, 2.0f);
        kv[4 * i + 3] = uniform(&seed, 0.0f, 1.0f);
        phisum += kv[4 * i + 3];
    }
    size_t vb = (size_t)voxels * sizeof(float);
    if ((rc = simt_wl_upload(gpu, pos, vb, &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, pos + voxels, vb, &dev[1], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, pos + 2 * (size_t)voxels, vb, &dev[2], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, kv, (size_t)4 * nk * sizeof(float), &dev[3], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, vb, &dev[4], err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[4], 0, vb, err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, vb, &dev[5], err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[5], 0, vb, err)) != SIMT_OK ||
        (rc = launch_all(gpu, mod, voxels, nk, chunk, dev, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, q, dev[4], vb, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, q + voxels, dev[5], vb, err)) != SIMT_OK)
        goto done;
    double worst = 0.0, qmax = 0.0;
    const double two_pi = 6.283185307179586;
    for (int v = 0; v < voxels; v++) {
        double sr = 0.0, si = 0.0, x = pos[v], y = pos[voxels + v], z = pos[2 * voxels + v];
        for (int i = 0; i < nk; i++) {
            const float *s = kv + 4 * i;
            double arg = two_pi * (s[0] * x + s[1] * y + s[2] * z);
            sr += s[3] * cos(arg);
            si += s[3] * sin(arg);
        }
        double e = fmax(fabs(q[v] - sr), fabs(q[voxels + v] - si));
        worst = e > worst || isnan(e) ? e : worst;
        qmax = fmax(qmax, hypot(sr, si));
    }
    double rel = worst / phisum;
    res->passed = rel <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "%d voxels x %d samples (%d launches), grid %d of 256: max |Q| %.1f of sum |phi|^2 %.1f, max err / sum "
             "%.2e (tol %.0e)",
             voxels, nk, (nk + chunk - 1) / chunk, voxels / BLOCK, qmax, phisum, rel, TOL);
done:
    rc = simt_wl_release(gpu, dev, 6, rc, err);
    free(pos);
    free(kv);
    free(q);
    return rc;
}

SIMT_WORKLOAD(mriq, "MRI-Q: Q = sum phi^2 (cos, sin)(2 pi k.r) per voxel, K samples unrolled 4, 256 thr",
              "workloads/mriq/kernel.ptx", run_mriq);
