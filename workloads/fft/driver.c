/* fft driver: radix-2 complex FFTs of several random arrays (bit-reversal launch, then one launch per
 * stage); checked against a double-precision FFT on the CPU with a relative RMS tolerance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BLOCK 768u     /* the thesis machine's 768 threads per core, one block per core */
#define PI 3.14159265358979323846
#define TOL 1e-5       /* on ||gpu - ref||_2 / ||ref||_2 over all arrays */

typedef struct fft_job {
    int log2n, narrays;
    uint32_t grid;
} fft_job_t;

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "fft: %s", msg);
    return SIMT_EINPUT;
}

static void swap(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

/* In-place iterative radix-2 FFT (forward, e^{-2 pi i jk/n}) of one array of n = 2^log2n points. */
static void ref_fft(double *re, double *im, int log2n)
{
    size_t n = (size_t)1 << log2n;
    for (size_t i = 1, j = 0; i < n; i++) {
        size_t bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j |= bit;
        if (i < j) {
            swap(&re[i], &re[j]);
            swap(&im[i], &im[j]);
        }
    }
    for (size_t len = 2; len <= n; len <<= 1) {
        for (size_t p = 0; p < len / 2; p++) {
            double a = -2.0 * PI * (double)p / (double)len, wr = cos(a), wi = sin(a);
            for (size_t g = 0; g < n; g += len) {
                size_t u = g + p, v = u + len / 2;
                double tr = re[v] * wr - im[v] * wi, ti = re[v] * wi + im[v] * wr;
                re[v] = re[u] - tr;
                im[v] = im[u] - ti;
                re[u] += tr;
                im[u] += ti;
            }
        }
    }
}

/* Queues the bit-reversal copy and every butterfly stage, then runs them in order. */
static int fft_on_device(simt_gpu_t *gpu, simt_module_t *mod, const fft_job_t *job,
                         const simt_devptr_t *dev, simt_error_t *err)
{
    simt_launch_t l = {
        .grid = { job->grid, 1, 1 },
        .block = { BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    int log2n = job->log2n, total = job->narrays << log2n, nbfly = total / 2;
    simt_arg_t rev_args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(log2n), SIMT_ARG(total) };
    int rc = simt_launch_kernel(gpu, mod, "fft_bitrev", &l, rev_args, 4, err);
    for (int s = 0; s < log2n && rc == SIMT_OK; s++) {
        simt_arg_t args[] = { SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(log2n), SIMT_ARG(s),
                              SIMT_ARG(nbfly) };
        rc = simt_launch_kernel(gpu, mod, "fft_stage", &l, args, 5, err);
    }
    return rc != SIMT_OK ? rc : simt_synchronize(gpu, err);
}

/* x and the result are interleaved (re, im) float pairs; fills res. */
static void check(const fft_job_t *job, const float *x, const float *got, simt_wl_result_t *res)
{
    size_t n = (size_t)1 << job->log2n;
    double *re = malloc(n * sizeof *re), *im = malloc(n * sizeof *im);
    double diff2 = 0.0, ref2 = 0.0;
    res->passed = 0;
    if (!re || !im) {
        snprintf(res->detail, sizeof res->detail, "host out of memory for the reference");
        goto done;
    }
    for (int a = 0; a < job->narrays; a++) {
        const float *xa = x + 2 * n * (size_t)a, *ga = got + 2 * n * (size_t)a;
        for (size_t i = 0; i < n; i++) {
            re[i] = xa[2 * i];
            im[i] = xa[2 * i + 1];
        }
        ref_fft(re, im, job->log2n);
        for (size_t i = 0; i < n; i++) {
            double dr = ga[2 * i] - re[i], di = ga[2 * i + 1] - im[i];
            diff2 += dr * dr + di * di;
            ref2 += re[i] * re[i] + im[i] * im[i];
        }
    }
    double rel = sqrt(diff2 / ref2);
    res->passed = rel <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "%d arrays x %zu points, %d stage launches, rms rel err %.2e (tol %.0e)",
             job->narrays, n, job->log2n, rel, TOL);
done:
    free(re);
    free(im);
}

static int run_fft(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                   simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 1965, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    fft_job_t job;
    if (strcmp(size, "small") == 0)
        job = (fft_job_t){ .log2n = 11, .narrays = 4, .grid = 2 };
    else if (strcmp(size, "paper") == 0)
        job = (fft_job_t){ .log2n = 20, .narrays = 4, .grid = 16 }; /* 1M points, 12,288 threads */
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t n = (size_t)1 << job.log2n, total = n * (size_t)job.narrays;
    float *x = malloc(2 * total * sizeof *x), *got = malloc(2 * total * sizeof *got);
    float *tw = malloc(n * sizeof *tw); /* n/2 complex twiddles */
    simt_devptr_t dev[3] = { 0 };
    int rc = SIMT_OK;
    if (!x || !got || !tw) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < 2 * total; i++)
        x[i] = (float)(simt_wl_rand(&seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
    for (size_t t = 0; t < n / 2; t++) {
        double a = -2.0 * PI * (double)t / (double)n;
        tw[2 * t] = (float)cos(a);
        tw[2 * t + 1] = (float)sin(a);
    }
    size_t bytes = 2 * total * sizeof *x;
    if ((rc = simt_wl_upload(gpu, x, bytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &dev[1], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, tw, n * sizeof *tw, &dev[2], err)) != SIMT_OK ||
        (rc = fft_on_device(gpu, mod, &job, dev, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, got, dev[1], bytes, err)) != SIMT_OK)
        goto done;
    check(&job, x, got, res);
done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(x);
    free(got);
    free(tw);
    return rc;
}

SIMT_WORKLOAD(fft, "radix-2 complex FFT of several arrays, one launch per stage (DWF FFT)",
              "workloads/fft/kernel.ptx", run_fft);
