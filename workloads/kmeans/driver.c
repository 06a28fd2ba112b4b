/* kmeans driver: seeded points of F = 36 features scattered around 16 blob centres (stored feature-major),
 * K = 16 initial centroids = the first K points (as Rodinia's kmeans starts); then `iters` rounds (default 3
 * at size small, 1 at paper) of kmeans_point (assignment, changed-membership count per CTA) followed by the
 * host's centroid update (the mean of each cluster's points, in double; an empty cluster keeps its centroid).
 * Every round's memberships are compared exactly with a CPU assignment in the kernel's float order
 * (d = fmaf(x - c, x - c, d) feature by feature, strict < so the lowest index wins ties), and each CTA's
 * changed count with the CPU's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

/* must match kernel.cu */
#define NT 576
#define K 16
#define F 36
#define BLOBS 16

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "kmeans: %s", msg);
    return SIMT_EINPUT;
}

static float uniform(uint32_t *seed)
{
    return (float)(simt_wl_rand(seed) >> 8) * (1.0f / 16777216.0f);
}

/* The kernel's assignment of point p, in its float order. */
static int nearest(const float *feat, int np, int p, const float *cent)
{
    float best = 3.402823466e38f;
    int idx = 0;
    for (int c = 0; c < K; c++) {
        float d = 0.0f;
        for (int f = 0; f < F; f++) {
            float diff = feat[(size_t)f * np + p] - cent[c * F + f];
            d = fmaf(diff, diff, d);
        }
        if (d < best) {
            best = d;
            idx = c;
        }
    }
    return idx;
}

static void update_centroids(const float *feat, int np, const int *member, float *cent)
{
    static double sum[K][F];
    int count[K] = { 0 };
    memset(sum, 0, sizeof sum);
    for (int p = 0; p < np; p++) {
        count[member[p]]++;
        for (int f = 0; f < F; f++)
            sum[member[p]][f] += feat[(size_t)f * np + p];
    }
    for (int c = 0; c < K; c++)
        if (count[c])
            for (int f = 0; f < F; f++)
                cent[c * F + f] = (float)(sum[c][f] / count[c]);
}

static int run_kmeans(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                      simt_error_t *err)
{
    long seed_l, iters_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    int np, iters_def;
    if (strcmp(size, "small") == 0)
        np = 4096, iters_def = 3;   /* 8 CTAs, the last with 64 live threads */
    else if (strcmp(size, "paper") == 0)
        np = 204800, iters_def = 1; /* Rodinia's 204800-point input: 356 CTAs; the paper gives no count */
    else
        return fail(err, "param size must be small or paper");
    if (simt_wl_param_int(params, "seed", 1967, 1, 0x7fffffffL, &seed_l, err) != 0 ||
        simt_wl_param_int(params, "iters", iters_def, 1, 100, &iters_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int iters = (int)iters_l, grid = (np + NT - 1) / NT;
    uint32_t seed = (uint32_t)seed_l;
    float *feat = malloc((size_t)np * F * sizeof(float)), cent[K * F], blob[BLOBS][F];
    int *member = malloc((size_t)np * sizeof(int)), *cpu = malloc((size_t)np * sizeof(int));
    int *delta = malloc((size_t)grid * sizeof(int));
    simt_devptr_t dev[4] = { 0 };
    int rc = SIMT_OK;
    if (!feat || !member || !cpu || !delta) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (int b = 0; b < BLOBS; b++)
        for (int f = 0; f < F; f++)
            blob[b][f] = uniform(&seed);
    for (int p = 0; p < np; p++) {
        int b = (int)(simt_wl_rand(&seed) % BLOBS);
        for (int f = 0; f < F; f++)
            feat[(size_t)f * np + p] = blob[b][f] + (uniform(&seed) - 0.5f) * 0.3f;
    }
    for (int c = 0; c < K; c++)
        for (int f = 0; f < F; f++)
            cent[c * F + f] = feat[(size_t)f * np + c];
    for (int p = 0; p < np; p++)
        cpu[p] = -1;
    if ((rc = simt_wl_upload(gpu, feat, (size_t)np * F * sizeof(float), &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, sizeof cent, &dev[1], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, cpu, (size_t)np * sizeof(int), &dev[2], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, (size_t)grid * sizeof(int), &dev[3], err)) != SIMT_OK)
        goto done;
    simt_launch_t l = {
        .grid = { (uint32_t)grid, 1, 1 },
        .block = { NT, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(dev[3]), SIMT_ARG(np) };
    long bad_member = 0, bad_delta = 0;
    char changes[200] = "";
    for (int it = 0; it < iters && !bad_member && !bad_delta; it++) {
        if ((rc = simt_memcpy_htod(gpu, dev[1], cent, sizeof cent, err)) != SIMT_OK ||
            (rc = simt_launch_kernel(gpu, mod, "kmeans_point", &l, args, 5, err)) != SIMT_OK ||
            (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
            (rc = simt_memcpy_dtoh(gpu, member, dev[2], (size_t)np * sizeof(int), err)) != SIMT_OK ||
            (rc = simt_memcpy_dtoh(gpu, delta, dev[3], (size_t)grid * sizeof(int), err)) != SIMT_OK)
            goto done;
        long changed = 0;
        for (int b = 0; b < grid; b++) {
            int nchg = 0;
            for (int p = b * NT; p < np && p < (b + 1) * NT; p++) {
                int want = nearest(feat, np, p, cent);
                nchg += want != cpu[p];
                cpu[p] = want;
                bad_member += member[p] != want;
            }
            bad_delta += delta[b] != nchg;
            changed += nchg;
        }
        size_t len = strlen(changes);
        snprintf(changes + len, sizeof changes - len, "%s%ld", it ? " " : "", changed);
        update_centroids(feat, np, cpu, cent);
    }
    res->passed = !bad_member && !bad_delta;
    snprintf(res->detail, sizeof res->detail,
             "%d points x %d features, K = %d, %d rounds (changed: %s), %ld memberships and %ld CTA counts "
             "differ from the CPU (exact, same float order)",
             np, F, K, iters, changes, bad_member, bad_delta);
done:
    rc = simt_wl_release(gpu, dev, 4, rc, err);
    free(feat);
    free(member);
    free(cpu);
    free(delta);
    return rc;
}

SIMT_WORKLOAD(kmeans, "k-means assignment step, 576 threads, centroids + change counts in shared (4608 B)",
              "workloads/kmeans/kernel.ptx", run_kmeans);
