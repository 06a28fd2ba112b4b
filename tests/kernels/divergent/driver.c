/* divergent driver: nested data-dependent branches, a data-dependent loop with early exits, early return. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BLOCK 128u

static int host_oom(simt_error_t *err)
{
    err->status = SIMT_EINPUT;
    strcpy(err->msg, "divergent: host out of memory");
    return SIMT_EINPUT;
}

/* Plain-C model of one thread of the kernel. */
static int ref_thread(int v, unsigned tid)
{
    if (v % 7 == 0)
        return -1;
    int r;
    if (tid & 1u) {
        if (v > 0)
            r = v * 3;
        else
            r = -v + 11;
    } else {
        if ((v & 3) == 2)
            r = v ^ 0x55;
        else
            r = v - (int)tid;
    }
    unsigned x = (unsigned)(v & 0x3ff) + 1u;
    int steps = 0;
    while (x != 1u && steps < 200) {
        if (x % 5u == 3u && steps > 4)
            break;
        x = (x & 1u) ? 3u * x + 1u : x >> 1;
        steps++;
    }
    return r + steps * 1000;
}

static int run_divergent(simt_gpu_t *gpu, simt_module_t *mod,
                         const simt_wl_params_t *params, simt_wl_result_t *res,
                         simt_error_t *err)
{
    long n_l, seed_l;
    if (simt_wl_param_int(params, "n", 3000, 1, 1L << 22, &n_l, err) != 0 ||
        simt_wl_param_int(params, "seed", 777, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int n = (int)n_l;
    uint32_t seed = (uint32_t)seed_l;
    size_t bytes = (size_t)n * sizeof(int);

    int *in = malloc(bytes), *out = malloc(bytes);
    simt_devptr_t dev[2] = { 0, 0 };
    int rc = SIMT_OK;
    if (!in || !out) {
        rc = host_oom(err);
        goto done;
    }
    for (int i = 0; i < n; i++)
        in[i] = (int)(simt_wl_rand(&seed) % 10001u) - 5000; /* [-5000, 5000] */

    if ((rc = simt_malloc(gpu, bytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &dev[1], err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev[0], in, bytes, err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[1], 0, bytes, err)) != SIMT_OK)
        goto done;

    simt_launch_t launch = {
        .grid = { ((uint32_t)n + BLOCK - 1) / BLOCK, 1, 1 },
        .block = { BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(n) };
    if ((rc = simt_launch_kernel(gpu, mod, "divergent", &launch, args, 3, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[1], bytes, err)) != SIMT_OK)
        goto done;

    int bad = -1, nbad = 0, early = 0;
    for (int i = 0; i < n; i++) {
        int ref = ref_thread(in[i], (unsigned)i % BLOCK);
        early += ref == -1;
        if (out[i] != ref) {
            if (bad < 0)
                bad = i;
            nbad++;
        }
    }
    res->passed = nbad == 0;
    if (res->passed)
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, grid=%u x %u, %d early returns, all exact", n,
                 launch.grid.x, BLOCK, early);
    else
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, %d mismatches, first out[%d]=%d expected %d (in=%d)",
                 n, nbad, bad, out[bad], ref_thread(in[bad], (unsigned)bad % BLOCK),
                 in[bad]);

done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(in);
    free(out);
    return rc;
}

SIMT_WORKLOAD(divergent, "data-dependent branches, loops and early return",
              "tests/kernels/divergent/kernel.ptx", run_divergent);
