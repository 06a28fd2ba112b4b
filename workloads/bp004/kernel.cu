// bp004: the two kernels of Rodinia's backprop training step in the shape the CTA-scheduling paper runs
// (BP, 2 kernels of 16x16 CTAs stacked along y, one CTA per 16 input units x 16 hidden units):
// bp004_layerforward forms w * x for its 16x16 weight block in shared memory and sums the 16 rows with a
// power-of-two tree (ty % 2s == 0 adds row ty + s), writing one partial sum per hidden unit per CTA;
// bp004_adjust_weights applies the momentum update w += dw, dw = eta * delta * x + momentum * dw_old,
// one weight per thread with no reuse (write-heavy).  Our own code; the weights are hid = 16 columns wide,
// so a CTA row is 16 four-byte words (64 B).
#define BS 16

extern "C" __global__ void bp004_layerforward(const float *input, const float *w, float *partial, int hid)
{
    __shared__ float in_node[BS];
    __shared__ float wm[BS][BS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r = blockIdx.y * BS + ty;
    if (tx == 0)
        in_node[ty] = input[r];
    __syncthreads();
    wm[ty][tx] = w[r * hid + tx] * in_node[ty];
    __syncthreads();
#pragma unroll 1
    for (int s = 1; s < BS; s *= 2) {
        if (ty % (2 * s) == 0)
            wm[ty][tx] += wm[ty + s][tx];
        __syncthreads();
    }
    if (ty == 0)
        partial[blockIdx.y * hid + tx] = wm[0][tx];
}

extern "C" __global__ void bp004_adjust_weights(const float *delta, const float *ly, float *w, float *oldw, int hid,
                                                float eta, float momentum)
{
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r = blockIdx.y * BS + ty;
    const int idx = r * hid + tx;
    float dw = eta * delta[tx] * ly[r] + momentum * oldw[idx];
    w[idx] += dw;
    oldw[idx] = dw;
}
