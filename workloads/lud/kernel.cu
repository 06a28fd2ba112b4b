// lud kernel: the trailing-matrix update of a blocked right-looking LU factorisation (lud_internal-like).
// After step s has factored the diagonal 22x22 block and solved the perimeter strips (the row strip right of
// it holds U, the column strip below it holds L), every trailing block (r, c) does A[r][c] -= L[r] * U[c]: a
// 22x22 CTA stages its 22x22 piece of the row strip and of the column strip in two shared arrays, then each
// thread forms its element's 22-term dot product from them and updates the matrix.
#define BS 22

extern "C" __global__ void lud_internal(float *m, int n, int offset)
{
    __shared__ float peri_row[BS][BS]; /* U: rows offset..offset+BS-1, this block's columns */
    __shared__ float peri_col[BS][BS]; /* L: this block's rows, columns offset..offset+BS-1 */
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = offset + (blockIdx.y + 1) * BS + ty;
    int col = offset + (blockIdx.x + 1) * BS + tx;

    peri_row[ty][tx] = m[(size_t)(offset + ty) * n + col];
    peri_col[ty][tx] = m[(size_t)row * n + offset + tx];
    __syncthreads();

    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < BS; k++)
        sum += peri_col[ty][k] * peri_row[k][tx];
    m[(size_t)row * n + col] -= sum;
}
