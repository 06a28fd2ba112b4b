/* reduction driver: per-block int sums from a __shared__ tree reduction; the host adds the partials. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define MAX_BLOCK 256u /* size of the __shared__ buffer in kernel.cu */

static int host_oom(simt_error_t *err)
{
    err->status = SIMT_EINPUT;
    strcpy(err->msg, "reduction: host out of memory");
    return SIMT_EINPUT;
}

static int run_reduction(simt_gpu_t *gpu, simt_module_t *mod,
                         const simt_wl_params_t *params, simt_wl_result_t *res,
                         simt_error_t *err)
{
    long n_l, bs_l, seed_l;
    if (simt_wl_param_int(params, "n", 10000, 1, 1L << 22, &n_l, err) != 0 ||
        simt_wl_param_int(params, "block", MAX_BLOCK, 1, MAX_BLOCK, &bs_l, err) != 0 ||
        simt_wl_param_int(params, "seed", 2024, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    if ((bs_l & (bs_l - 1)) != 0) {
        err->status = SIMT_EINPUT;
        snprintf(err->msg, sizeof err->msg,
                 "reduction: param block=%ld must be a power of two <= %u", bs_l, MAX_BLOCK);
        return SIMT_EINPUT;
    }
    int n = (int)n_l;
    uint32_t block = (uint32_t)bs_l;
    uint32_t seed = (uint32_t)seed_l;
    uint32_t nblocks = ((uint32_t)n + block - 1) / block;

    int *in = malloc((size_t)n * sizeof(int));
    int *part = malloc(nblocks * sizeof(int));
    simt_devptr_t dev[2] = { 0, 0 };
    int rc = SIMT_OK;
    if (!in || !part) {
        rc = host_oom(err);
        goto done;
    }
    for (int i = 0; i < n; i++)
        in[i] = (int)(simt_wl_rand(&seed) % 2001u) - 1000; /* [-1000, 1000] */

    if ((rc = simt_malloc(gpu, (size_t)n * sizeof(int), &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, nblocks * sizeof(int), &dev[1], err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev[0], in, (size_t)n * sizeof(int), err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[1], 0, nblocks * sizeof(int), err)) != SIMT_OK)
        goto done;

    simt_launch_t launch = {
        .grid = { nblocks, 1, 1 },
        .block = { block, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(n) };
    if ((rc = simt_launch_kernel(gpu, mod, "reduce_sum", &launch, args, 3, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, part, dev[1], nblocks * sizeof(int), err)) != SIMT_OK)
        goto done;

    /* CPU reference: exact per-block sums and total. */
    long long gpu_total = 0, ref_total = 0;
    long bad = -1;
    int ref_bad = 0;
    for (uint32_t b = 0; b < nblocks; b++) {
        int ref = 0;
        for (uint32_t t = 0; t < block; t++) {
            long i = (long)b * block + t;
            if (i < n)
                ref += in[i];
        }
        if (part[b] != ref && bad < 0) {
            bad = (long)b;
            ref_bad = ref;
        }
        gpu_total += part[b];
        ref_total += ref;
    }
    res->passed = bad < 0 && gpu_total == ref_total;
    if (res->passed)
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, %u blocks x %u, total %lld, all partials exact", n,
                 nblocks, block, ref_total);
    else if (bad >= 0)
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, partial[%ld]=%d expected %d; total %lld expected %lld",
                 n, bad, part[bad], ref_bad, gpu_total, ref_total);
    else
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, total %lld expected %lld", n, gpu_total, ref_total);

done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(in);
    free(part);
    return rc;
}

SIMT_WORKLOAD(reduction, "block int sum, shared-memory tree reduction",
              "tests/kernels/reduction/kernel.ptx", run_reduction);
