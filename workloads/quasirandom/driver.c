/* quasirandom driver: Sobol direction numbers for 18 dimensions (dimension 0 the van der Corput sequence,
 * the others from primitive polynomials with seeded odd initial numbers m_k < 2^k) go through
 * quasirandom_gen; every float of every point is compared with a direct CPU evaluation (XOR over the Gray
 * code's bits, then the same 24-bit scaling), which must match exactly. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

/* must match kernel.cu */
#define DG 6
#define GROUPS 3
#define DIMS (DG * GROUPS)
#define BITS 32
#define BX 128

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "quasirandom: %s", msg);
    return SIMT_EINPUT;
}

/* Primitive polynomials over GF(2) for dimensions 1..17: degree s and the inner coefficients a
 * (x^s + a_1 x^(s-1) + ... + a_(s-1) x + 1, a packed with a_1 as the top bit). */
static const struct { int s, a; } POLY[DIMS - 1] = {
    { 1, 0 }, { 2, 1 }, { 3, 1 }, { 3, 2 }, { 4, 1 }, { 4, 4 }, { 5, 2 }, { 5, 4 }, { 5, 7 },
    { 5, 11 }, { 5, 13 }, { 5, 14 }, { 6, 1 }, { 6, 13 }, { 6, 16 }, { 6, 19 }, { 6, 22 },
};

static void direction_numbers(uint32_t *v, uint32_t *seed)
{
    for (int k = 0; k < BITS; k++)
        v[k] = 1u << (31 - k);
    for (int d = 1; d < DIMS; d++) {
        uint32_t *w = v + d * BITS;
        int s = POLY[d - 1].s, a = POLY[d - 1].a;
        for (int k = 0; k < s; k++) {
            uint32_t m = (simt_wl_rand(seed) % (1u << k)) | 1u; /* odd, < 2^(k+1) */
            w[k] = m << (31 - k);
        }
        for (int k = s; k < BITS; k++) {
            uint32_t x = w[k - s] ^ (w[k - s] >> s);
            for (int j = 1; j < s; j++)
                if ((a >> (s - 1 - j)) & 1)
                    x ^= w[k - j];
            w[k] = x;
        }
    }
}

static int run_quasirandom(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                           simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 1937, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int n, log2grid;
    if (strcmp(size, "small") == 0)
        n = 65536 + 1000, log2grid = 5;  /* 32 CTAs (fermi: 2 per SM), 16-17 points per thread */
    else if (strcmp(size, "paper") == 0)
        n = 1048576, log2grid = 7;       /* the SDK's 2^20 points on its 49,152 threads: 128 CTAs */
    else
        return fail(err, "param size must be small or paper");
    int log2s = log2grid + 7; /* stride = grid * 128 */
    uint32_t seed = (uint32_t)seed_l, dirs[DIMS * BITS];
    direction_numbers(dirs, &seed);
    size_t nf = (size_t)DIMS * n;
    float *out = malloc(nf * sizeof(float));
    simt_devptr_t dev[2] = { 0 };
    int rc = SIMT_OK;
    if (!out) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    simt_launch_t l = {
        .grid = { 1u << log2grid, 1, 1 },
        .block = { BX, GROUPS, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(n), SIMT_ARG(log2s) };
    if ((rc = simt_malloc(gpu, nf * sizeof(float), &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, dirs, sizeof dirs, &dev[1], err)) != SIMT_OK ||
        (rc = simt_launch_kernel(gpu, mod, "quasirandom_gen", &l, args, 4, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[0], nf * sizeof(float), err)) != SIMT_OK)
        goto done;
    size_t bad = 0, first_bad = 0;
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        uint32_t g = (uint32_t)i ^ ((uint32_t)i >> 1);
        for (int d = 0; d < DIMS; d++) {
            uint32_t x = 0;
            for (int b = 0; b < BITS; b++)
                if (g >> b & 1)
                    x ^= dirs[d * BITS + b];
            float ref = (float)(x >> 8) * (1.0f / 16777216.0f);
            size_t at = (size_t)d * n + i;
            if (out[at] != ref && bad++ == 0)
                first_bad = at;
            sum += out[at];
        }
    }
    res->passed = bad == 0;
    int len = snprintf(res->detail, sizeof res->detail,
                       "%d points x %d dimensions, grid %d of 128x3: mean %.6f, %zu mismatches (tol: exact)", n,
                       DIMS, 1 << log2grid, sum / (double)nf, bad);
    if (bad && len > 0 && (size_t)len < sizeof res->detail)
        snprintf(res->detail + len, sizeof res->detail - (size_t)len, ", first at dimension %zu point %zu",
                 first_bad / (size_t)n, first_bad % (size_t)n);
done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(out);
    return rc;
}

SIMT_WORKLOAD(quasirandom, "Sobol-type quasirandom points, Gray-code XOR of direction numbers, 6 dims/thread",
              "workloads/quasirandom/kernel.ptx", run_quasirandom);
