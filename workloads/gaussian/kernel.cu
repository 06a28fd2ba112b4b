// gaussian kernels: Gaussian elimination without pivoting of an n x n system, one pivot step per launch pair.
// gauss_fan1 (512 threads per block, one thread per row below the pivot) computes the multiplier column
// m[r][t] = a[r][t] / a[t][t]; gauss_fan2 (16x16 blocks) subtracts m[r][t] * row t from every row below the
// pivot, right-hand side included.  Mirrors Rodinia gaussian's Fan1/Fan2.

extern "C" __global__ void gauss_fan1(const float *a, float *m, int n, int t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n - 1 - t)
        return;
    int row = i + t + 1;
    m[row * n + t] = a[row * n + t] / a[t * n + t];
}

extern "C" __global__ void gauss_fan2(float *a, float *b, const float *m, int n, int t)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n - 1 - t || col >= n - t)
        return;
    int row = i + t + 1, c = col + t;
    float mult = m[row * n + t];
    a[row * n + c] -= mult * a[t * n + c];
    if (col == 0)
        b[row] -= mult * b[t];
}
