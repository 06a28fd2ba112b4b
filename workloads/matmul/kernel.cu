// matmul: naive f32 C = A * B, one output element per thread, no shared memory and no divergence
// (the DWF thesis's own "Matrix" benchmark).
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= M * N)
        return;
    int row = t / N, col = t % N;
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];
    C[t] = acc;
}
