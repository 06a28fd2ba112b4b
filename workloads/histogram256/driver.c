/* histogram256 driver: seeded 12-bit samples (half uniform over 0..4095, half a triangular peak around 1000 that
 * makes hot bins), each in a 16-bit word whose top 4 bits are random status bits the kernel must mask, four
 * samples per 8-byte quad.  Every block's 384-bin partial histogram is compared exactly with a CPU count of
 * the quads that block's grid-stride loop visits; the detail also gives the grand total. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

/* must match kernel.cu */
#define BINS 384
#define NT 192

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "histogram256: %s", msg);
    return SIMT_EINPUT;
}

static uint32_t sample(uint32_t *s)
{
    uint32_t r = simt_wl_rand(s), v;
    if (r & 1u)
        v = (r >> 8) & 0xfffu;
    else
        v = 1000u - 512u + ((r >> 8) & 0x1ffu) + ((r >> 20) & 0x1ffu); /* triangular on 488..1510 */
    return v | (r & 0xf0000000u) >> 16;                             /* 4 status bits on top */
}

static uint32_t bin_of(uint32_t s)
{
    return ((s & 0xfffu) * BINS) >> 12;
}

static int run_histogram256(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                            simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 384, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int grid, nquads;
    if (strcmp(size, "small") == 0) {
        grid = 40;             /* 40 x 192 threads, 1M samples (2 MB) */
        nquads = 1 << 18;
    } else if (strcmp(size, "paper") == 0) {
        grid = 240;            /* 240 x 192 = 46,080 threads, 92M samples (184 MB): 000 Table 4's 893.8M */
        nquads = 23 << 20;     /* thread instructions at 37.7 per 4-sample quad (32M samples ran 316M) */
    } else {
        return fail(err, "param size must be small or paper");
    }
    uint32_t seed = (uint32_t)seed_l;
    size_t qb = (size_t)nquads * 8, pb = (size_t)grid * BINS * sizeof(uint32_t);
    uint32_t *data = malloc(qb), *got = malloc(pb), *ref = calloc((size_t)grid * BINS, sizeof(uint32_t));
    simt_devptr_t d[2] = { 0, 0 };
    int rc = SIMT_OK;
    if (!data || !got || !ref) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < (size_t)nquads * 2; i++)
        data[i] = sample(&seed) | sample(&seed) << 16;
    simt_launch_t l = {
        .grid = { (uint32_t)grid, 1, 1 },
        .block = { NT, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(d[0]), SIMT_ARG(nquads), SIMT_ARG(d[1]) };
    if ((rc = simt_wl_upload(gpu, data, qb, &d[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, pb, &d[1], err)) != SIMT_OK ||
        (rc = simt_launch_kernel(gpu, mod, "histogram256_kernel", &l, args, 3, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK || (rc = simt_memcpy_dtoh(gpu, got, d[1], pb, err)) != SIMT_OK)
        goto done;
    for (size_t i = 0; i < (size_t)nquads; i++) {
        uint32_t *h = ref + (i / NT) % (size_t)grid * BINS;
        for (int k = 0; k < 2; k++) {
            uint32_t w = data[2 * i + (size_t)k];
            h[bin_of(w)]++;
            h[bin_of(w >> 16)]++;
        }
    }
    int bad = 0;
    uint64_t total = 0, peak = 0;
    uint64_t all[BINS] = { 0 };
    for (int i = 0; i < grid * BINS; i++) {
        bad += got[i] != ref[i];
        total += got[i];
        all[i % BINS] += got[i];
    }
    for (int b = 0; b < BINS; b++)
        peak = all[b] > peak ? all[b] : peak;
    res->passed = bad == 0 && total == (uint64_t)nquads * 4;
    snprintf(res->detail, sizeof res->detail,
             "%d samples, %d blocks x %d bins: %d mismatched partial bins (exact), total %llu, fullest bin %llu",
             nquads * 4, grid, BINS, bad, (unsigned long long)total, (unsigned long long)peak);
done:
    rc = simt_wl_release(gpu, d, 2, rc, err);
    free(data);
    free(got);
    free(ref);
    return rc;
}

SIMT_WORKLOAD(histogram256, "384-bin histogram, six per-warp shared sub-histograms with shared atomics, merged at the end",
              "workloads/histogram256/kernel.ptx", run_histogram256);
