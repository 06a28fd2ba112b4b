/* warpvote driver: warp shuffles and votes on full warps (warp_full) and on partial last warps (warp_partial). */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define NOUT 8          /* ints written per thread, must match kernel.cu */
#define FULL_BLOCK 128u /* multiple of 32 */
#define PART_BLOCK 80u  /* 2 full warps + one 16-lane warp per block */

static int popc32(uint32_t x)
{
    int c = 0;
    for (; x; x &= x - 1u)
        c++;
    return c;
}

static int host_oom(simt_error_t *err)
{
    err->status = SIMT_EINPUT;
    strcpy(err->msg, "warpvote: host out of memory");
    return SIMT_EINPUT;
}

/* CPU model of warp_full for the warp whose first thread is w0 (32 lanes). */
static void ref_full_warp(const int *in, int w0, int *ref)
{
    const int *v = in + w0;
    int sum = 0, mx = v[0], any = 0, all = 1;
    uint32_t ball = 0;
    for (int l = 0; l < 32; l++) {
        sum += v[l];
        if (v[l] > mx)
            mx = v[l];
        if (v[l] > 0)
            ball |= 1u << l;
        any |= v[l] % 97 == 0;
        all &= v[l] > -1000;
    }
    for (int l = 0; l < 32; l++) {
        int *o = ref + (size_t)(w0 + l) * NOUT;
        o[0] = sum;
        o[1] = v[v[l] & 31];
        o[2] = mx;
        o[3] = (int)ball;
        o[4] = popc32(ball & ((1u << l) - 1u));
        o[5] = any;
        o[6] = all;
        o[7] = (int)0xffffffffu;
    }
}

/* CPU model of warp_partial for a warp of cnt (1..32) lanes starting at thread w0. */
static void ref_partial_warp(const int *in, int w0, int cnt, int *ref)
{
    const int *v = in + w0;
    uint32_t mask = cnt == 32 ? 0xffffffffu : (1u << cnt) - 1u;
    int sum = 0, any = 0, all = 1;
    uint32_t ball = 0;
    for (int l = 0; l < cnt; l++) {
        sum += v[l];
        if (v[l] & 1)
            ball |= 1u << l;
        any |= v[l] > 900;
        all &= v[l] >= 0;
    }
    for (int l = 0; l < cnt; l++) {
        int *o = ref + (size_t)(w0 + l) * NOUT;
        o[0] = sum;
        o[1] = (int)mask;
        o[2] = cnt;
        o[3] = (int)ball;
        o[4] = popc32(ball);
        o[5] = any;
        o[6] = all;
        o[7] = v[cnt - 1];
    }
}

static const char *const FIELD[2][NOUT] = {
    { "shfl.down sum", "shfl.idx by data", "shfl.xor max", "ballot",
      "popc rank", "any", "all", "activemask" },
    { "shfl.down sum", "activemask", "popc(activemask)", "ballot",
      "popc(ballot)", "any", "all", "shfl.idx last lane" },
};

/* Returns the index of the first differing int, or -1. */
static long first_diff(const int *a, const int *b, size_t count, int *nbad)
{
    long first = -1;
    *nbad = 0;
    for (size_t k = 0; k < count; k++)
        if (a[k] != b[k]) {
            if (first < 0)
                first = (long)k;
            (*nbad)++;
        }
    return first;
}

static int run_warpvote(simt_gpu_t *gpu, simt_module_t *mod,
                        const simt_wl_params_t *params, simt_wl_result_t *res,
                        simt_error_t *err)
{
    long gf_l, gp_l, seed_l;
    if (simt_wl_param_int(params, "blocks", 4, 1, 4096, &gf_l, err) != 0 ||
        simt_wl_param_int(params, "partial_blocks", 3, 1, 4096, &gp_l, err) != 0 ||
        simt_wl_param_int(params, "seed", 99, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    uint32_t gf = (uint32_t)gf_l, gp = (uint32_t)gp_l, seed = (uint32_t)seed_l;
    size_t nf = (size_t)gf * FULL_BLOCK, np = (size_t)gp * PART_BLOCK;

    int *inf = malloc(nf * sizeof(int)), *inp = malloc(np * sizeof(int));
    int *outf = malloc(nf * NOUT * sizeof(int)), *outp = malloc(np * NOUT * sizeof(int));
    int *reff = malloc(nf * NOUT * sizeof(int)), *refp = malloc(np * NOUT * sizeof(int));
    simt_devptr_t dev[4] = { 0, 0, 0, 0 };
    int rc = SIMT_OK;
    if (!inf || !inp || !outf || !outp || !reff || !refp) {
        rc = host_oom(err);
        goto done;
    }
    /* Full warps: values in [-500, 1000], ~1/64 replaced by -1500 so __all_sync sees both outcomes. */
    for (size_t i = 0; i < nf; i++) {
        uint32_t r = simt_wl_rand(&seed);
        inf[i] = (r & 63u) == 0 ? -1500 : (int)((r >> 8) % 1501u) - 500;
    }
    /* Partial kernel: alternate warps draw from [0, 800] (all >= 0, none > 900) or [-500, 1000]. */
    for (size_t i = 0; i < np; i++) {
        uint32_t r = simt_wl_rand(&seed);
        uint32_t b = (uint32_t)(i / PART_BLOCK), w = (uint32_t)(i % PART_BLOCK) / 32u;
        inp[i] = ((b + w) % 2u == 0) ? (int)(r % 801u) : (int)(r % 1501u) - 500;
    }

    if ((rc = simt_malloc(gpu, nf * sizeof(int), &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, nf * NOUT * sizeof(int), &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, np * sizeof(int), &dev[2], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, np * NOUT * sizeof(int), &dev[3], err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev[0], inf, nf * sizeof(int), err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev[2], inp, np * sizeof(int), err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[1], 0, nf * NOUT * sizeof(int), err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[3], 0, np * NOUT * sizeof(int), err)) != SIMT_OK)
        goto done;

    simt_launch_t lf = {
        .grid = { gf, 1, 1 },
        .block = { FULL_BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_launch_t lp = {
        .grid = { gp, 1, 1 },
        .block = { PART_BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t af[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]) };
    simt_arg_t ap[] = { SIMT_ARG(dev[2]), SIMT_ARG(dev[3]) };
    if ((rc = simt_launch_kernel(gpu, mod, "warp_full", &lf, af, 2, err)) != SIMT_OK ||
        (rc = simt_launch_kernel(gpu, mod, "warp_partial", &lp, ap, 2, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, outf, dev[1], nf * NOUT * sizeof(int), err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, outp, dev[3], np * NOUT * sizeof(int), err)) != SIMT_OK)
        goto done;

    for (size_t w0 = 0; w0 < nf; w0 += 32)
        ref_full_warp(inf, (int)w0, reff);
    for (uint32_t b = 0; b < gp; b++)
        for (uint32_t t = 0; t < PART_BLOCK; t += 32) {
            int cnt = PART_BLOCK - t < 32u ? (int)(PART_BLOCK - t) : 32;
            ref_partial_warp(inp, (int)(b * PART_BLOCK + t), cnt, refp);
        }

    int nbf, nbp;
    long bf = first_diff(outf, reff, nf * NOUT, &nbf);
    long bp = first_diff(outp, refp, np * NOUT, &nbp);
    res->passed = bf < 0 && bp < 0;
    if (res->passed)
        snprintf(res->detail, sizeof res->detail,
                 "warp_full %ux%u, warp_partial %ux%u (last warp 16 lanes): all %d checks exact",
                 gf, FULL_BLOCK, gp, PART_BLOCK, (int)((nf + np) * NOUT));
    else if (bf >= 0)
        snprintf(res->detail, sizeof res->detail,
                 "warp_full: %d mismatches, first thread %ld %s = %d expected %d%s",
                 nbf, bf / NOUT, FIELD[0][bf % NOUT], outf[bf], reff[bf],
                 bp >= 0 ? "; warp_partial also wrong" : "");
    else
        snprintf(res->detail, sizeof res->detail,
                 "warp_partial: %d mismatches, first thread %ld %s = %d expected %d",
                 nbp, bp / NOUT, FIELD[1][bp % NOUT], outp[bp], refp[bp]);

done:
    rc = simt_wl_release(gpu, dev, 4, rc, err);
    free(inf);
    free(inp);
    free(outf);
    free(outp);
    free(reff);
    free(refp);
    return rc;
}

SIMT_WORKLOAD(warpvote, "warp shuffle and vote, full and partial warps",
              "tests/kernels/warpvote/kernel.ptx", run_warpvote);
