/* devfunc driver: non-inlined __device__ functions called by all threads and from divergent branches. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BLOCK 128u

static int host_oom(simt_error_t *err)
{
    err->status = SIMT_EINPUT;
    strcpy(err->msg, "devfunc: host out of memory");
    return SIMT_EINPUT;
}

/* Plain-C models of the device functions and the kernel body. */
static int ref_clamp_add(int a, int b)
{
    int s = (a + b) % 100003;
    if (s > 50001)
        s -= 100003;
    else if (s < -50001)
        s += 100003;
    return s;
}

static int ref_mix(int a, int b, int k)
{
    int r = a;
    for (int j = 0; j < k; j++)
        r = ref_clamp_add(r * 3 + j, b ^ j);
    return r;
}

static int ref_thread(int x, int i, unsigned tid)
{
    int r = ref_mix(x, i, 2);
    if (x & 1)
        r = ref_mix(r, x, x & 7);
    else if ((tid & 3u) == 0)
        r = ref_clamp_add(r, -x);
    return r;
}

static int run_devfunc(simt_gpu_t *gpu, simt_module_t *mod,
                       const simt_wl_params_t *params, simt_wl_result_t *res,
                       simt_error_t *err)
{
    long n_l, seed_l;
    if (simt_wl_param_int(params, "n", 3000, 1, 1L << 22, &n_l, err) != 0 ||
        simt_wl_param_int(params, "seed", 5150, 1, 0x7fffffffL, &seed_l, err) != 0)
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
        in[i] = (int)(simt_wl_rand(&seed) % 400001u) - 200000; /* [-200000, 200000] */

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
    if ((rc = simt_launch_kernel(gpu, mod, "devfunc", &launch, args, 3, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[1], bytes, err)) != SIMT_OK)
        goto done;

    int bad = -1, nbad = 0, odd = 0;
    for (int i = 0; i < n; i++) {
        odd += in[i] & 1;
        if (out[i] != ref_thread(in[i], i, (unsigned)i % BLOCK) && nbad++ == 0)
            bad = i;
    }
    res->passed = nbad == 0;
    if (res->passed)
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, grid=%u x %u, %d threads took the divergent mix() call, all exact",
                 n, launch.grid.x, BLOCK, odd);
    else
        snprintf(res->detail, sizeof res->detail,
                 "n=%d, %d mismatches, first out[%d]=%d expected %d (in=%d)", n,
                 nbad, bad, out[bad], ref_thread(in[bad], bad, (unsigned)bad % BLOCK),
                 in[bad]);

done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(in);
    free(out);
    return rc;
}

SIMT_WORKLOAD(devfunc, "non-inlined device function calls, uniform and divergent",
              "tests/kernels/devfunc/kernel.ptx", run_devfunc);
