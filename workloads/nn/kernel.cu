// nn kernel: the second convolutional layer of a small digit-recognition network (executeSecondLayer-like).
// Block (5, 5) of 25 threads computes the 5x5 neurons of one layer-2 feature map (blockIdx.x, 50 maps) for
// one image (blockIdx.y): each neuron sums, over the 6 layer-1 maps of 13x13, a 5x5 window at stride 2
// times that (map, input map) pair's 25 weights plus its bias, then applies 1.7159 * tanh(2/3 * sum).
#define L1_MAPS 6
#define L1_SIDE 13
#define L2_MAPS 50
#define L2_SIDE 5
#define KSIDE 5
#define WPAIR (KSIDE * KSIDE + 1) /* 25 weights + bias per (layer-2 map, layer-1 map) */

extern "C" __global__ void nn_second_layer(const float *layer1, const float *weights, float *layer2)
{
    int map = blockIdx.x, img = blockIdx.y, x = threadIdx.x, y = threadIdx.y;
    const float *in = layer1 + (size_t)img * L1_MAPS * L1_SIDE * L1_SIDE + (2 * y) * L1_SIDE + 2 * x;
    const float *w = weights + map * L1_MAPS * WPAIR;
    float sum = 0.0f;
#pragma unroll 1
    for (int k = 0; k < L1_MAPS; k++, in += L1_SIDE * L1_SIDE, w += WPAIR) {
        sum += w[KSIDE * KSIDE];
#pragma unroll 1
        for (int ky = 0; ky < KSIDE; ky++)
            for (int kx = 0; kx < KSIDE; kx++)
                sum += in[ky * L1_SIDE + kx] * w[ky * KSIDE + kx];
    }
    layer2[((size_t)img * L2_MAPS + map) * L2_SIDE * L2_SIDE + y * L2_SIDE + x] =
        1.7159f * tanhf(0.66666667f * sum);
}
