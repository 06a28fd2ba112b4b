/* nestedloops driver: C = tril(A) * B (with a varying inner repeat) on small int m x m matrices, 2-D grid. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define TILE 16u

static int host_oom(simt_error_t *err)
{
    err->status = SIMT_EINPUT;
    strcpy(err->msg, "nestedloops: host out of memory");
    return SIMT_EINPUT;
}

static int run_nestedloops(simt_gpu_t *gpu, simt_module_t *mod,
                           const simt_wl_params_t *params, simt_wl_result_t *res,
                           simt_error_t *err)
{
    long m_l, seed_l;
    if (simt_wl_param_int(params, "m", 45, 1, 256, &m_l, err) != 0 ||
        simt_wl_param_int(params, "seed", 4242, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int m = (int)m_l;
    uint32_t seed = (uint32_t)seed_l;
    size_t cnt = (size_t)m * (size_t)m;
    size_t bytes = cnt * sizeof(int);

    int *A = malloc(bytes), *B = malloc(bytes), *C = malloc(bytes);
    simt_devptr_t dev[3] = { 0, 0, 0 };
    int rc = SIMT_OK;
    if (!A || !B || !C) {
        rc = host_oom(err);
        goto done;
    }
    for (size_t i = 0; i < cnt; i++) {
        A[i] = (int)(simt_wl_rand(&seed) % 17u) - 8; /* [-8, 8] */
        B[i] = (int)(simt_wl_rand(&seed) % 17u) - 8;
    }

    if ((rc = simt_malloc(gpu, bytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, bytes, &dev[2], err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev[0], A, bytes, err)) != SIMT_OK ||
        (rc = simt_memcpy_htod(gpu, dev[1], B, bytes, err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[2], 0, bytes, err)) != SIMT_OK)
        goto done;

    uint32_t g = ((uint32_t)m + TILE - 1) / TILE;
    simt_launch_t launch = {
        .grid = { g, g, 1 },
        .block = { TILE, TILE, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(m) };
    if ((rc = simt_launch_kernel(gpu, mod, "tri_matmul", &launch, args, 4, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, C, dev[2], bytes, err)) != SIMT_OK)
        goto done;

    int nbad = 0, bad_r = -1, bad_c = -1, bad_ref = 0;
    for (int row = 0; row < m; row++) {
        for (int col = 0; col < m; col++) {
            int acc = 0;
            for (int k = 0; k <= row; k++)
                for (int j = 0; j < (k & 3) + 1; j++)
                    acc += A[row * m + k] * B[k * m + col] + j;
            if (C[row * m + col] != acc) {
                if (nbad++ == 0) {
                    bad_r = row;
                    bad_c = col;
                    bad_ref = acc;
                }
            }
        }
    }
    res->passed = nbad == 0;
    if (res->passed)
        snprintf(res->detail, sizeof res->detail,
                 "m=%d, grid=%ux%u of %ux%u, all %zu elements exact", m, g, g,
                 TILE, TILE, cnt);
    else
        snprintf(res->detail, sizeof res->detail,
                 "m=%d, %d mismatches, first C[%d][%d]=%d expected %d", m, nbad,
                 bad_r, bad_c, C[bad_r * m + bad_c], bad_ref);

done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(A);
    free(B);
    free(C);
    return rc;
}

SIMT_WORKLOAD(nestedloops, "triangular nested-loop int matrix multiply",
              "tests/kernels/nestedloops/kernel.ptx", run_nestedloops);
