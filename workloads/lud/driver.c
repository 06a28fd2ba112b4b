/* lud driver: blocked right-looking LU factorisation (no pivoting, unit-diagonal L and U stored in place) of a
 * seeded diagonally dominant n x n float matrix, n = 22 * nb.  Each step s runs the diagonal block's
 * factorisation and the two perimeter solves on the host (in float, on the matrix read back from the device)
 * and then lud_internal over the (nb - s - 1)^2 trailing blocks on the device.  The final factors are compared
 * with a CPU double-precision LU of the same matrix: max |gpu - ref| / max(1, |ref|) over every element. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BS 22     /* block side = blockDim.x = blockDim.y (kernel.cu) */
#define TOL 1e-5  /* float blocked LU vs double (6e-7 seen at n = 506); diagonal dominance keeps it small */

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "lud: %s", msg);
    return SIMT_EINPUT;
}

/* Host part of step at `o`: factor the diagonal block, then solve the row strip (L^-1 A) and the column
 * strip (A U^-1) in place. */
static void host_step(float *a, int n, int o)
{
    for (int k = 0; k < BS; k++) { /* diagonal block, Doolittle */
        for (int j = k; j < BS; j++) {
            float s = a[(size_t)(o + k) * n + o + j];
            for (int p = 0; p < k; p++)
                s -= a[(size_t)(o + k) * n + o + p] * a[(size_t)(o + p) * n + o + j];
            a[(size_t)(o + k) * n + o + j] = s;
        }
        for (int i = k + 1; i < BS; i++) {
            float s = a[(size_t)(o + i) * n + o + k];
            for (int p = 0; p < k; p++)
                s -= a[(size_t)(o + i) * n + o + p] * a[(size_t)(o + p) * n + o + k];
            a[(size_t)(o + i) * n + o + k] = s / a[(size_t)(o + k) * n + o + k];
        }
    }
    for (int j = o + BS; j < n; j++) /* row strip: U = L^-1 A, forward substitution down each column */
        for (int i = 1; i < BS; i++) {
            float s = a[(size_t)(o + i) * n + j];
            for (int p = 0; p < i; p++)
                s -= a[(size_t)(o + i) * n + o + p] * a[(size_t)(o + p) * n + j];
            a[(size_t)(o + i) * n + j] = s;
        }
    for (int i = o + BS; i < n; i++) /* column strip: L = A U^-1, along each row */
        for (int k = 0; k < BS; k++) {
            float s = a[(size_t)i * n + o + k];
            for (int p = 0; p < k; p++)
                s -= a[(size_t)i * n + o + p] * a[(size_t)(o + p) * n + o + k];
            a[(size_t)i * n + o + k] = s / a[(size_t)(o + k) * n + o + k];
        }
}

/* Unblocked Doolittle LU in double, in place. */
static void reference(double *a, int n)
{
    for (int k = 0; k < n; k++)
        for (int i = k + 1; i < n; i++) {
            double l = a[(size_t)i * n + k] /= a[(size_t)k * n + k];
            for (int j = k + 1; j < n; j++)
                a[(size_t)i * n + j] -= l * a[(size_t)k * n + j];
        }
}

static int run_lud(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                   simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 1948, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int nb;
    if (strcmp(size, "small") == 0)
        nb = 6;    /* 132 x 132: 25 + 16 + 9 + 4 + 1 = 55 CTAs */
    else if (strcmp(size, "paper") == 0)
        nb = 23;   /* 506 x 506, the multiple of 22 nearest Rodinia's 512 input: 3795 CTAs; no paper count */
    else
        return fail(err, "param size must be small or paper");
    int n = nb * BS;
    size_t cells = (size_t)n * n, bytes = cells * sizeof(float);
    uint32_t seed = (uint32_t)seed_l;
    float *a = malloc(bytes);
    double *ref = malloc(cells * sizeof(double));
    simt_devptr_t dev[1] = { 0 };
    int rc = SIMT_OK, ctas = 0, launches = 0;
    if (!a || !ref) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < cells; i++)
        a[i] = (float)(simt_wl_rand(&seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
    for (int i = 0; i < n; i++)
        a[(size_t)i * n + i] += (float)n; /* diagonally dominant: no pivoting needed */
    for (size_t i = 0; i < cells; i++)
        ref[i] = a[i];
    reference(ref, n);
    if ((rc = simt_malloc(gpu, bytes, &dev[0], err)) != SIMT_OK)
        goto done;
    for (int s = 0; s < nb; s++) {
        int o = s * BS, rest = nb - s - 1;
        host_step(a, n, o);
        if ((rc = simt_memcpy_htod(gpu, dev[0], a, bytes, err)) != SIMT_OK)
            goto done;
        if (rest == 0)
            break;
        simt_launch_t l = {
            .grid = { (uint32_t)rest, (uint32_t)rest, 1 },
            .block = { BS, BS, 1 },
            .dynamic_shared_bytes = 0,
            .stream = 0,
        };
        simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(n), SIMT_ARG(o) };
        if ((rc = simt_launch_kernel(gpu, mod, "lud_internal", &l, args, 3, err)) != SIMT_OK ||
            (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
            (rc = simt_memcpy_dtoh(gpu, a, dev[0], bytes, err)) != SIMT_OK)
            goto done;
        launches++;
        ctas += rest * rest;
    }
    double worst = 0.0;
    for (size_t i = 0; i < cells; i++) {
        double e = fabs(a[i] - ref[i]) / fmax(1.0, fabs(ref[i]));
        worst = e > worst || isnan(e) ? e : worst;
    }
    res->passed = worst <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "%dx%d blocked LU (%d launches of lud_internal, %d CTAs), max |gpu - ref| / max(1, |ref|) "
             "%.2e vs double Doolittle (tol %.0e)",
             n, n, launches, ctas, worst, TOL);
done:
    rc = simt_wl_release(gpu, dev, 1, rc, err);
    free(a);
    free(ref);
    return rc;
}

SIMT_WORKLOAD(lud, "blocked LU trailing update, 22x22 threads, row + column strips in shared (3872 B)",
              "workloads/lud/kernel.ptx", run_lud);
