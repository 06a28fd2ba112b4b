/* bitonic driver: sorts random 32-bit keys with one bitonic_step launch per (k, j) stage of the
 * network; the result is checked exactly against qsort of the same keys. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BLOCK 768u     /* the thesis machine's 768 threads per core, one block per core */

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "bitonic: %s", msg);
    return SIMT_EINPUT;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Queues every stage of the network over n = 2^log2n keys, then runs them in order. */
static int sort_on_device(simt_gpu_t *gpu, simt_module_t *mod, uint32_t grid, uint32_t n,
                          simt_devptr_t keys, int *launches, simt_error_t *err)
{
    simt_launch_t l = {
        .grid = { grid, 1, 1 },
        .block = { BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    *launches = 0;
    for (uint32_t k = 2; k <= n; k <<= 1) {
        for (uint32_t j = k >> 1; j > 0; j >>= 1) {
            simt_arg_t args[] = { SIMT_ARG(keys), SIMT_ARG(n), SIMT_ARG(j), SIMT_ARG(k) };
            int rc = simt_launch_kernel(gpu, mod, "bitonic_step", &l, args, 4, err);
            if (rc != SIMT_OK)
                return rc;
            ++*launches;
        }
    }
    return simt_synchronize(gpu, err);
}

static void check(const uint32_t *got, uint32_t *ref, uint32_t n, int launches, simt_wl_result_t *res)
{
    qsort(ref, n, sizeof *ref, cmp_u32);
    long bad = -1;
    for (uint32_t i = 0; i < n && bad < 0; i++)
        if (got[i] != ref[i])
            bad = (long)i;
    res->passed = bad < 0;
    if (res->passed)
        snprintf(res->detail, sizeof res->detail, "%u keys sorted in %d stage launches, equal to qsort",
                 n, launches);
    else
        snprintf(res->detail, sizeof res->detail, "%u keys: key[%ld] = %u, qsort gives %u",
                 n, bad, got[bad], ref[bad]);
}

static int run_bitonic(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                       simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 1968, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    uint32_t grid, n;
    if (strcmp(size, "small") == 0) {
        grid = 2;
        n = 1u << 13;
    } else if (strcmp(size, "paper") == 0) {
        grid = 16;           /* 12,288 threads, one block per core */
        n = 1u << 20;
    } else {
        return fail(err, "param size must be small or paper");
    }
    uint32_t seed = (uint32_t)seed_l;
    uint32_t *keys = malloc(n * sizeof *keys), *ref = malloc(n * sizeof *ref);
    simt_devptr_t dev = 0;
    int rc = SIMT_OK, launches = 0;
    if (!keys || !ref) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++)
        keys[i] = ref[i] = simt_wl_rand(&seed);
    if ((rc = simt_malloc(gpu, n * sizeof *keys, &dev, err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev, keys, n * sizeof *keys, err)) != SIMT_OK ||
        (rc = sort_on_device(gpu, mod, grid, n, dev, &launches, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, keys, dev, n * sizeof *keys, err)) != SIMT_OK)
        goto done;
    check(keys, ref, n, launches, res);
done:
    if (dev) {
        simt_error_t tmp;
        if (simt_free(gpu, dev, &tmp) != SIMT_OK && rc == SIMT_OK) {
            *err = tmp;
            rc = tmp.status ? tmp.status : SIMT_EFAULT;
        }
    }
    free(keys);
    free(ref);
    return rc;
}

SIMT_WORKLOAD(bitonic, "bitonic sort network in global memory, one launch per stage (DWF Bitonic)",
              "workloads/bitonic/kernel.ptx", run_bitonic);
