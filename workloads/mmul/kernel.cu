// mmul kernel: tiled f32 matrix multiply C = A * B through 16x16 shared-memory tiles, one output element per
// thread, 16x16 threads per CTA, as the CUDA SDK's matrixMul: each CTA walks the K dimension one tile pair at
// a time (A's tile from its row band, B's from its column band), two barriers per step.  A is hA x wA, B is
// wA x wB, all row-major; every dimension is a multiple of 16.
#define TS 16

extern "C" __global__ void mmul(const float *A, const float *B, float *C, int wA, int wB)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    const float *a = A + (size_t)row * wA + tx;
    const float *b = B + (size_t)ty * wB + col;
    float s = 0.0f;
    for (int k0 = 0; k0 < wA; k0 += TS) {
        As[ty][tx] = a[k0];
        Bs[ty][tx] = b[(size_t)k0 * wB];
        __syncthreads();
#pragma unroll 2
        for (int k = 0; k < TS; k++)
            s += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(size_t)row * wB + col] = s;
}
