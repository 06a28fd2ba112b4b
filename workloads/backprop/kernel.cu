// backprop layer-forward kernel: each 16x16 CTA takes a 48-input x 48-hidden tile of the weight matrix, forms
// the products w*x in __shared__ memory, reduces them over the inputs to one partial sum per hidden unit, and
// then (no shared memory any more) applies the momentum weight update of the previous backward pass to its tile.
#define TILE 48             /* WIDTH = HEIGHT = 48: inputs and hidden units per tile */
#define BDIM 16             /* blockDim = (16, 16) */
#define SUB (TILE / BDIM)   /* each thread owns a SUB x SUB sub-tile */

extern "C" __global__ void backprop_layerforward(const float *input, float *weights, float *oldw,
                                                 const float *delta, float *partial, int hid,
                                                 float eta, float momentum)
{
    __shared__ float input_node[TILE];
    __shared__ float weight_matrix[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tid = ty * BDIM + tx;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;

    if (tid < TILE)
        input_node[tid] = input[row0 + tid];
    __syncthreads();

    float x[SUB], w[SUB][SUB];
    for (int i = 0; i < SUB; i++) {
        int r = ty + i * BDIM;
        x[i] = input_node[r];
        for (int j = 0; j < SUB; j++) {
            int c = tx + j * BDIM;
            w[i][j] = weights[(row0 + r) * hid + col0 + c];
            weight_matrix[r][c] = w[i][j] * x[i];
        }
    }
    __syncthreads();

    /* Halve the live rows 48 -> 24 -> 12 -> 6 -> 3; the last three are summed by one thread per column. */
    for (int s = TILE / 2; s >= 3; s /= 2) {
        for (int k = tid; k < s * TILE; k += BDIM * BDIM) {
            int r = k / TILE, c = k % TILE;
            weight_matrix[r][c] += weight_matrix[r + s][c];
        }
        __syncthreads();
    }
    if (tid < TILE) {
        float sum = weight_matrix[0][tid] + weight_matrix[1][tid] + weight_matrix[2][tid];
        partial[blockIdx.y * hid + col0 + tid] = sum;
    }

    /* Epilogue, registers and global memory only: w += dw, dw = eta * delta * x + momentum * dw_old. */
    for (int i = 0; i < SUB; i++) {
        int r = ty + i * BDIM;
        for (int j = 0; j < SUB; j++) {
            int c = tx + j * BDIM;
            int idx = (row0 + r) * hid + col0 + c;
            float dw = eta * delta[col0 + c] * x[i] + momentum * oldw[idx];
            weights[idx] = w[i][j] + dw;
            oldw[idx] = dw;
        }
    }
}
