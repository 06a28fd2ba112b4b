/* histogram driver: 256-bin byte histogram with global atomics and with __shared__ privatised atomics. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BINS 256
#define GLOBAL_BLOCK 128u
#define GLOBAL_GRID 8u
#define SHARED_BLOCK 96u /* not a divisor of BINS: the init/merge loops run unevenly */
#define SHARED_GRID 6u

static int host_oom(simt_error_t *err)
{
    err->status = SIMT_EINPUT;
    strcpy(err->msg, "histogram: host out of memory");
    return SIMT_EINPUT;
}

static int run_histogram(simt_gpu_t *gpu, simt_module_t *mod,
                         const simt_wl_params_t *params, simt_wl_result_t *res,
                         simt_error_t *err)
{
    long n_l, seed_l;
    if (simt_wl_param_int(params, "n", 20000, 1, 1L << 24, &n_l, err) != 0 ||
        simt_wl_param_int(params, "seed", 31337, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int n = (int)n_l;
    uint32_t seed = (uint32_t)seed_l;
    const size_t hbytes = BINS * sizeof(uint32_t);

    unsigned char *data = malloc((size_t)n);
    uint32_t hg[BINS], hs[BINS], ref[BINS];
    simt_devptr_t dev[3] = { 0, 0, 0 };
    int rc = SIMT_OK;
    if (!data) {
        rc = host_oom(err);
        goto done;
    }
    /* Skewed: half the bytes fall in 16 hot bins (heavy atomic contention), half uniform. */
    for (int i = 0; i < n; i++) {
        uint32_t r = simt_wl_rand(&seed);
        data[i] = (r & 1u) ? (unsigned char)(0x40u + ((r >> 8) & 15u))
                           : (unsigned char)(r >> 24);
    }

    if ((rc = simt_malloc(gpu, (size_t)n, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, hbytes, &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, hbytes, &dev[2], err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev[0], data, (size_t)n, err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[1], 0, hbytes, err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[2], 0, hbytes, err)) != SIMT_OK)
        goto done;

    simt_launch_t lg = {
        .grid = { GLOBAL_GRID, 1, 1 },
        .block = { GLOBAL_BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_launch_t ls = {
        .grid = { SHARED_GRID, 1, 1 },
        .block = { SHARED_BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t ag[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(n) };
    simt_arg_t as[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[2]), SIMT_ARG(n) };
    if ((rc = simt_launch_kernel(gpu, mod, "hist_global", &lg, ag, 3, err)) != SIMT_OK ||
        (rc = simt_launch_kernel(gpu, mod, "hist_shared", &ls, as, 3, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, hg, dev[1], hbytes, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, hs, dev[2], hbytes, err)) != SIMT_OK)
        goto done;

    memset(ref, 0, sizeof ref);
    for (int i = 0; i < n; i++)
        ref[data[i]]++;
    int bad_g = -1, bad_s = -1;
    for (int b = BINS - 1; b >= 0; b--) {
        if (hg[b] != ref[b])
            bad_g = b;
        if (hs[b] != ref[b])
            bad_s = b;
    }
    res->passed = bad_g < 0 && bad_s < 0;
    if (res->passed)
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, global %ux%u and shared %ux%u histograms exact (hot bin 0x40 = %u)",
                 n, GLOBAL_GRID, GLOBAL_BLOCK, SHARED_GRID, SHARED_BLOCK, ref[0x40]);
    else if (bad_g >= 0)
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, hist_global bin %d = %u expected %u%s", n, bad_g,
                 hg[bad_g], ref[bad_g], bad_s >= 0 ? "; hist_shared also wrong" : "");
    else
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, hist_shared bin %d = %u expected %u", n, bad_s,
                 hs[bad_s], ref[bad_s]);

done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(data);
    return rc;
}

SIMT_WORKLOAD(histogram, "256-bin atomic histogram, global and shared-privatised",
              "tests/kernels/histogram/kernel.ptx", run_histogram);
