/* mshrthrash driver: each CTA sweeps its own region of the input `iters`
 * times, feeding each value into 8 recurrences per thread (kernel.cu), and
 * writes their sum; checked exactly against the same recurrences on the
 * CPU, rounded as nvcc's PTX rounds them.  Sized so that two CTAs' regions
 * (2 x 12 KB) fit a Fermi L1 (32 KB) and four do not: the LCS micro-kernel
 * of reference 004 §8, run by tests/timing_cases.sh.  Knobs: ctas (8),
 * region floats per CTA (3072), iters sweeps (6), rounds per value (1),
 * block threads (256). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"


static int host_oom(simt_error_t *err)
{
    err->status = SIMT_EINPUT;
    strcpy(err->msg, "mshrthrash: host out of memory");
    return SIMT_EINPUT;
}

static int run_mshrthrash(simt_gpu_t *gpu, simt_module_t *mod,
                          const simt_wl_params_t *params, simt_wl_result_t *res,
                          simt_error_t *err)
{
    long ctas_l, region_l, iters_l, rounds_l, block_l, seed_l;
    if (simt_wl_param_int(params, "ctas", 8, 1, 4096, &ctas_l, err) != 0 ||
        simt_wl_param_int(params, "region", 3072, 1, 1L << 20, &region_l, err) != 0 ||
        simt_wl_param_int(params, "iters", 6, 1, 1000, &iters_l, err) != 0 ||
        simt_wl_param_int(params, "rounds", 1, 1, 1000, &rounds_l, err) != 0 ||
        simt_wl_param_int(params, "block", 256, 32, 1024, &block_l, err) != 0 ||
        simt_wl_param_int(params, "seed", 12345, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int ctas = (int)ctas_l, region = (int)region_l, iters = (int)iters_l;
    int rounds = (int)rounds_l;
    unsigned BLOCK = (unsigned)block_l;
    uint32_t seed = (uint32_t)seed_l;
    size_t nin = (size_t)ctas * (size_t)region, nout = (size_t)ctas * BLOCK;

    float *in = malloc(nin * sizeof *in), *out = malloc(nout * sizeof *out);
    simt_devptr_t dev[2] = { 0, 0 };
    int rc = SIMT_OK;
    if (!in || !out) {
        rc = host_oom(err);
        goto done;
    }
    for (size_t i = 0; i < nin; i++)
        in[i] = (float)(simt_wl_rand(&seed) >> 8) / 16777216.0f;

    if ((rc = simt_malloc(gpu, nin * sizeof *in, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, nout * sizeof *out, &dev[1], err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev[0], in, nin * sizeof *in, err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[1], 0, nout * sizeof *out, err)) != SIMT_OK)
        goto done;

    simt_launch_t launch = {
        .grid = { (uint32_t)ctas, 1, 1 },
        .block = { BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(region),
                          SIMT_ARG(iters), SIMT_ARG(rounds) };
    if ((rc = simt_launch_kernel(gpu, mod, "mshrthrash", &launch, args, 5, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[1], nout * sizeof *out, err)) != SIMT_OK)
        goto done;

    /* CPU reference: the same fma recurrence per thread, exactly */
    long bad = -1;
    float want = 0.0f;
    for (int b = 0; b < ctas && bad < 0; b++)
        for (unsigned t = 0; t < BLOCK && bad < 0; t++) {
            const float *base = in + (size_t)b * region;
            float a[8] = { 0 };
            for (int it = 0; it < iters; it++)
                for (int i = (int)t; i < region; i += (int)BLOCK) {
                    float x = base[i];
                    /* nvcc fuses a * c + x (fma.rn), not a * c - x (mul, sub) */
                    for (int r = 0; r < rounds; r++) {
                    a[0] = fmaf(a[0], 0.5f, x);
                    a[1] = fmaf(a[1], 0.25f, x);
                    a[2] = fmaf(a[2], 0.125f, x);
                    a[3] = fmaf(a[3], 0.75f, x);
                    a[4] = a[4] * 0.5f - x;
                    a[5] = a[5] * 0.25f - x;
                    a[6] = a[6] * 0.125f - x;
                    a[7] = a[7] * 0.75f - x;
                    }
                }
            float acc = a[0] + a[1] + a[2] + a[3] + a[4] + a[5] + a[6] + a[7];
            if (out[(size_t)b * BLOCK + t] != acc) {
                bad = (long)b * BLOCK + t;
                want = acc;
            }
        }
    res->passed = bad < 0;
    if (bad < 0)
        snprintf(res->detail, sizeof res->detail,
                 "%d CTAs x %u threads, region %d floats, %d sweeps, %d rounds: exact",
                 ctas, BLOCK, region, iters, rounds);
    else
        snprintf(res->detail, sizeof res->detail,
                 "first mismatch out[%ld]=%.9g expected %.9g", bad,
                 (double)out[bad], (double)want);

done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(in);
    free(out);
    return rc;
}

SIMT_WORKLOAD(mshrthrash, "LCS micro-kernel: per-CTA L1 working sets that thrash at 4 CTAs",
              "tests/kernels/mshrthrash/kernel.ptx", run_mshrthrash);
