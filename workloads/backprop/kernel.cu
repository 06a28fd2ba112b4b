// backprop layer-forward kernel in the shape of Rodinia's bpnn_layerforward_CUDA with the paper's Table 3
// change (WIDTH = HEIGHT = 48): the shared arrays are declared 48 and 48x48, but the CTA is still 16x16 and
// each thread owns one element, so a CTA uses input_node[0..15] and the 16x16 corner of weight_matrix (the
// rest is allocated and idle, as in the paper's build).  Each CTA takes 16 input units x the 16 hidden units;
// the weights carry Rodinia's bias row and column (a (in + 1) x (hid + 1) matrix, element (i, j) of the
// block at (16 by + ty + 1, tx + 1)).  Steps: tx == 0 loads the input, every thread forms w * x, a
// power-of-two tree adds rows (ty % 2^i == 0 adds row ty + 2^i / 2; log2(HEIGHT) = 5 steps, the fifth
// adding row 16, which holds zeros), the tree's rows are written back over the weights (Rodinia writes
// weight_matrix back to input_hidden_cuda), and the tx == 0 threads write the CTA's 16 column sums, read
// transposed as Rodinia does (weight_matrix[0][ty]).
// Our own code.  Rows are 16 per CTA (not HEIGHT * by) so that the inputs stay dense and in bounds.
#define HEIGHT 48 /* Table 3: backprop.h HEIGHT 16 -> 48 */
#define WIDTH 48  /* Table 3: backprop.h WIDTH 16 -> 48 */
#define BDIM 16   /* blockDim = (16, 16), unchanged by the paper */

extern "C" __global__ void backprop_layerforward(const float *input, float *weights, float *partial, int hid)
{
    __shared__ float input_node[HEIGHT];
    __shared__ float weight_matrix[HEIGHT][WIDTH];
    int by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = BDIM * by + ty + 1; /* + 1: the bias row */
    int index = (hid + 1) * row + tx + 1;

    if (tx == 0)
        input_node[ty] = input[row];
    /* The paper's loop runs log2(HEIGHT) = 5 steps (log2 48 = 5.58); the fifth adds row 16 into row 0.
     * Rodinia leaves that row unwritten (stale shared memory); ours holds zeros so the sum is defined. */
    if (ty == 0)
        weight_matrix[BDIM][tx] = 0.0f;
    __syncthreads();
    weight_matrix[ty][tx] = weights[index];
    __syncthreads();
    weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
    __syncthreads();
    /* Rodinia's loop: step i adds row ty + 2^i / 2 into rows ty % 2^i == 0, the bound and the stride
     * computed with the fast log2 and power intrinsics as there, kept rolled as the paper's build ran it
     * (the PTX of a 2010s nvcc; ours would otherwise fold the intrinsics and unroll). */
#pragma unroll 1
    for (int i = 1; i <= __log2f(HEIGHT); i++) {
        int power_two = __powf(2, i);
        if (ty % power_two == 0)
            weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
        __syncthreads();
    }
    weights[index] = weight_matrix[ty][tx];
    __syncthreads();
    if (tx == 0)
        partial[by * hid + ty] = weight_matrix[0][ty];
}
