/* kmn driver: k-means assignment (kmn_point) of seeded points scattered around K centres, F features
 * each, stored point-major as Rodinia's kmeans reads them; the CPU recomputes every distance in double
 * precision and accepts the kernel's cluster when its distance is within a relative 1e-5 of the nearest
 * (float rounding may flip a near tie; the count of exact agreements is reported). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BLOCK 256
#define F 34 /* Rodinia's kdd_cup input: 34 features */
#define K 5  /* Rodinia's default cluster count */
#define TOL 1e-5

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "kmn: %s", msg);
    return SIMT_EINPUT;
}

static float unit(uint32_t *seed)
{
    return (float)(simt_wl_rand(seed) >> 8) / 16777216.0f;
}

static int run_kmn(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                   simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 1936, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int ctas;
    if (strcmp(size, "small") == 0)
        ctas = 4;
    else if (strcmp(size, "paper") == 0)
        ctas = 1936; /* 004 Table 2: 495,616 points (kdd_cup has 494,020) */
    else
        return fail(err, "param size must be small or paper");
    int n = ctas * BLOCK, nfeat = F, nclus = K;
    uint32_t seed = (uint32_t)seed_l;
    float *feat = malloc((size_t)n * F * sizeof(float)), cent[K * F];
    int *memb = malloc((size_t)n * sizeof(int));
    simt_devptr_t dev[3] = { 0 };
    int rc = SIMT_OK;
    if (!feat || !memb) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (int i = 0; i < K * F; i++)
        cent[i] = unit(&seed) * 10.0f;
    for (int p = 0; p < n; p++) {
        int c = (int)(simt_wl_rand(&seed) % K);
        for (int l = 0; l < F; l++)
            feat[(size_t)p * F + l] = cent[c * F + l] + (unit(&seed) - 0.5f) * 12.0f;
    }
    simt_launch_t l = { .grid = { (uint32_t)ctas, 1, 1 }, .block = { BLOCK, 1, 1 } };
    if ((rc = simt_wl_upload(gpu, feat, (size_t)n * F * sizeof(float), &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, cent, sizeof cent, &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, (size_t)n * sizeof(int), &dev[2], err)) != SIMT_OK)
        goto done;
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(n), SIMT_ARG(nfeat),
                          SIMT_ARG(nclus) };
    if ((rc = simt_launch_kernel(gpu, mod, "kmn_point", &l, args, 6, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, memb, dev[2], (size_t)n * sizeof(int), err)) != SIMT_OK)
        goto done;
    int bad = 0, exact = 0, first_bad = -1;
    for (int p = 0; p < n; p++) {
        double d[K], best = INFINITY;
        int bi = 0;
        for (int c = 0; c < K; c++) {
            d[c] = 0.0;
            for (int f = 0; f < F; f++) {
                double diff = (double)feat[(size_t)p * F + f] - cent[c * F + f];
                d[c] += diff * diff;
            }
            if (d[c] < best)
                best = d[c], bi = c;
        }
        int g = memb[p];
        exact += g == bi;
        if (g < 0 || g >= K || d[g] > best * (1.0 + TOL)) {
            bad++;
            first_bad = first_bad < 0 ? p : first_bad;
        }
    }
    res->passed = bad == 0;
    snprintf(res->detail, sizeof res->detail,
             "%d points x %d features, %d clusters, %d CTAs of 256: %d equal the CPU's choice, %d beyond a rel %.0e "
             "tie (first %d)", n, F, K, ctas, exact, bad, TOL, first_bad);
done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(feat);
    free(memb);
    return rc;
}

SIMT_WORKLOAD(kmn, "k-means assignment, 1D CTAs of 256, point-major rows re-read per cluster through L1 (004 KMN)",
              "workloads/kmn/kernel.ptx", run_kmn);
