// Tests: nested loops with a triangular inner bound: C = tril(A) * B for small int matrices, one thread per element.
extern "C" __global__ void tri_matmul(const int *A, const int *B, int *C, int m)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= m)
        return;
    int acc = 0;
    for (int k = 0; k <= row; k++) {          /* triangular: trip count depends on row */
        int a = A[row * m + k];
        for (int j = 0; j < (k & 3) + 1; j++) /* inner loop with varying trip count */
            acc += a * B[k * m + col] + j;
    }
    C[row * m + col] = acc;
}
