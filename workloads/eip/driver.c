/* eip driver: the Monte Carlo pi estimate in two launches (eip_points over nctas CTAs of 256 threads,
 * then eip_reduce as one CTA); the CPU runs every thread's xorwow generator and quarter-circle test
 * with the same float operations (no contraction: the kernel uses __fmul_rn/__fadd_rn) and must match
 * every CTA's count, the total and the saved generator state exactly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define NT 256

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "eip: %s", msg);
    return SIMT_EINPUT;
}

static uint32_t next(uint32_t *st, int *k, uint32_t *d)
{
    uint32_t t = st[*k], s = st[*k == 0 ? 4 : *k - 1];
    t ^= t >> 2;
    t ^= t << 1;
    t ^= s ^ (s << 4);
    st[*k] = t;
    *k = *k == 4 ? 0 : *k + 1;
    *d += 362437u;
    return t + *d;
}

static int run_eip(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                   simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 314, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int nctas, npts;
    if (strcmp(size, "small") == 0)
        nctas = 4, npts = 8;     /* 4 + 1 CTAs */
    else if (strcmp(size, "paper") == 0)
        nctas = 390, npts = 32;  /* 390 + 1 = 391 CTAs over 2 launches (004 Table 2) */
    else
        return fail(err, "param size must be small or paper");
    int nthreads = nctas * NT;
    uint32_t seed = (uint32_t)seed_l;
    size_t sbytes = (size_t)nthreads * 5 * sizeof(uint32_t);
    uint32_t *st0 = malloc(sbytes), *st1 = malloc(sbytes);
    int *hits = malloc((size_t)nctas * sizeof(int)), *ref = calloc((size_t)nctas, sizeof(int));
    unsigned long long total = 0, ref_total = 0;
    simt_devptr_t dev[3] = { 0 };
    int rc = SIMT_OK;
    if (!st0 || !st1 || !hits || !ref) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < (size_t)nthreads * 5; i++)
        st0[i] = simt_wl_rand(&seed); /* never zero */
    if ((rc = simt_wl_upload(gpu, st0, sbytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, (size_t)nctas * sizeof(int), &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, sizeof total, &dev[2], err)) != SIMT_OK)
        goto done;
    simt_launch_t l1 = { .grid = { (uint32_t)nctas, 1, 1 }, .block = { NT, 1, 1 } };
    simt_launch_t l2 = { .grid = { 1, 1, 1 }, .block = { NT, 1, 1 } };
    simt_arg_t a1[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(npts), SIMT_ARG(nthreads) };
    simt_arg_t a2[] = { SIMT_ARG(dev[1]), SIMT_ARG(nctas), SIMT_ARG(dev[2]) };
    if ((rc = simt_launch_kernel(gpu, mod, "eip_points", &l1, a1, 4, err)) != SIMT_OK ||
        (rc = simt_launch_kernel(gpu, mod, "eip_reduce", &l2, a2, 3, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, hits, dev[1], (size_t)nctas * sizeof(int), err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, &total, dev[2], sizeof total, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, st1, dev[0], sbytes, err)) != SIMT_OK)
        goto done;
    int bad_state = 0, bad_cta = 0;
    for (int g = 0; g < nthreads; g++) {
        uint32_t st[5], d = 0;
        int k = 0;
        for (int j = 0; j < 5; j++)
            st[j] = st0[(size_t)j * nthreads + g];
        for (int p = 0; p < npts; p++) {
            float x = (float)(next(st, &k, &d) >> 8) * (1.0f / 16777216.0f);
            float y = (float)(next(st, &k, &d) >> 8) * (1.0f / 16777216.0f);
            float r2 = x * x;
            r2 += y * y;
            ref[g / NT] += r2 <= 1.0f;
        }
        for (int j = 0; j < 5; j++)
            bad_state += st1[(size_t)j * nthreads + g] != st[(k + j) % 5];
    }
    for (int c = 0; c < nctas; c++) {
        ref_total += (unsigned long long)ref[c];
        bad_cta += hits[c] != ref[c];
    }
    res->passed = bad_state == 0 && bad_cta == 0 && total == ref_total;
    double pts = (double)nthreads * npts;
    snprintf(res->detail, sizeof res->detail,
             "%d+1 CTAs of 256, %d points per thread: %llu of %.0f inside (pi ~ %.5f), CPU %llu; %d CTA counts and "
             "%d state words differ", nctas, npts, total, pts, 4.0 * (double)total / pts, ref_total, bad_cta,
             bad_state);
done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(st0);
    free(st1);
    free(hits);
    free(ref);
    return rc;
}

SIMT_WORKLOAD(eip, "Monte Carlo pi, inline xorwow per thread (state in local memory), CTA reduction, 2 launches (004 EIP)",
              "workloads/eip/kernel.ptx", run_eip);
