/* nn driver: seeded layer-1 outputs (6 maps of 13x13 per image) and layer-2 weights (50 maps x 6 x (25 + bias))
 * go through nn_second_layer, one 5x5 block per (layer-2 map, image); each output neuron is compared with a
 * CPU double-precision evaluation (absolute tolerance, reported in the detail). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

/* must match kernel.cu */
#define L1_MAPS 6
#define L1_SIDE 13
#define L2_MAPS 50
#define L2_SIDE 5
#define KSIDE 5
#define WPAIR (KSIDE * KSIDE + 1)

#define L1_SIZE (L1_MAPS * L1_SIDE * L1_SIDE)   /* floats per image */
#define L2_SIZE (L2_MAPS * L2_SIDE * L2_SIDE)
#define W_SIZE (L2_MAPS * L1_MAPS * WPAIR)
#define TOL 1e-5 /* on max |out - ref|; outputs lie in (-1.7159, 1.7159) */

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "nn: %s", msg);
    return SIMT_EINPUT;
}

/* Uniform in [-scale, scale). */
static float uniform(uint32_t *seed, float scale)
{
    return ((float)(simt_wl_rand(seed) >> 8) * (2.0f / 16777216.0f) - 1.0f) * scale;
}

static double neuron(const float *l1, const float *w, int x, int y)
{
    double sum = 0.0;
    for (int k = 0; k < L1_MAPS; k++, l1 += L1_SIDE * L1_SIDE, w += WPAIR) {
        sum += w[KSIDE * KSIDE];
        for (int ky = 0; ky < KSIDE; ky++)
            for (int kx = 0; kx < KSIDE; kx++)
                sum += (double)l1[(2 * y + ky) * L1_SIDE + 2 * x + kx] * w[ky * KSIDE + kx];
    }
    return 1.7159 * tanh(0.66666667 * sum);
}

static void check(const float *l1, const float *w, const float *out, int images, simt_wl_result_t *res)
{
    double worst = 0.0, span = 0.0;
    for (int img = 0; img < images; img++)
        for (int m = 0; m < L2_MAPS; m++)
            for (int p = 0; p < L2_SIDE * L2_SIDE; p++) {
                double ref = neuron(l1 + (size_t)img * L1_SIZE, w + m * L1_MAPS * WPAIR, p % L2_SIDE, p / L2_SIDE);
                double e = fabs(out[((size_t)img * L2_MAPS + m) * L2_SIDE * L2_SIDE + p] - ref);
                worst = e > worst || isnan(e) ? e : worst;
                span = fmax(span, fabs(ref));
            }
    res->passed = worst <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "%d images x %d maps of 5x5 neurons (max |out| %.3f), max abs err %.2e (tol %.0e)", images,
             L2_MAPS, span, worst, TOL);
}

static int launch(simt_gpu_t *gpu, simt_module_t *mod, int images, const simt_devptr_t *dev, simt_error_t *err)
{
    simt_launch_t l = {
        .grid = { L2_MAPS, (uint32_t)images, 1 },
        .block = { L2_SIDE, L2_SIDE, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]) };
    int rc = simt_launch_kernel(gpu, mod, "nn_second_layer", &l, args, 3, err);
    return rc != SIMT_OK ? rc : simt_synchronize(gpu, err);
}

static int run_nn(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                  simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 1998, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int images;
    if (strcmp(size, "small") == 0)
        images = 4;          /* 200 CTAs */
    else if (strcmp(size, "paper") == 0)
        images = 100;        /* 5000 CTAs; the paper gives no count */
    else
        return fail(err, "param size must be small or paper");
    uint32_t seed = (uint32_t)seed_l;
    size_t l1n = (size_t)images * L1_SIZE, l2n = (size_t)images * L2_SIZE;
    float *l1 = malloc(l1n * sizeof(float)), *w = malloc(W_SIZE * sizeof(float));
    float *out = malloc(l2n * sizeof(float));
    simt_devptr_t dev[3] = { 0 };
    int rc = SIMT_OK;
    if (!l1 || !w || !out) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    for (size_t i = 0; i < l1n; i++)
        l1[i] = uniform(&seed, 1.7159f);
    for (int i = 0; i < W_SIZE; i++)
        w[i] = uniform(&seed, 0.1f);
    if ((rc = simt_wl_upload(gpu, l1, l1n * sizeof(float), &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, w, W_SIZE * sizeof(float), &dev[1], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, l2n * sizeof(float), &dev[2], err)) != SIMT_OK ||
        (rc = launch(gpu, mod, images, dev, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[2], l2n * sizeof(float), err)) != SIMT_OK)
        goto done;
    check(l1, w, out, images, res);
done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(l1);
    free(w);
    free(out);
    return rc;
}

SIMT_WORKLOAD(nn, "neural network second layer, 5x5 conv over 6 maps, one 25-thread block per map",
              "workloads/nn/kernel.ptx", run_nn);
