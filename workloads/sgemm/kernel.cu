// sgemm kernel: C = alpha * A * B^T + beta * C, all column-major: A is m x k (lda = m), B is n x k
// (ldb = n), C is m x n (ldc = m). A 128-thread block owns a 128 x 16 tile of C: thread t keeps the 16
// elements of row m0 + t (one strip across the tile's 16 columns) in registers. For every 8-wide slice of k
// each thread first fetches its 8 elements of A into registers (coalesced across the block), the block
// stages the 8 x 16 slice of B it needs in shared memory (one element per thread, 512 B), and after the
// barrier each thread does 8 x 16 multiply-adds against the staged slice. m must be a multiple of 128,
// n of 16 and k of 8.
#define TILE_M 128
#define TILE_N 16
#define TILE_K 8

extern "C" __global__ void sgemm_nt(const float *__restrict__ A, int lda, const float *__restrict__ B, int ldb,
                                    float *__restrict__ C, int ldc, int k, float alpha, float beta)
{
    __shared__ float bs[TILE_K][TILE_N];
    const int t = threadIdx.x;
    const int m0 = blockIdx.x * TILE_M, n0 = blockIdx.y * TILE_N;
    const float *a = A + m0 + t;
    const float *b = B + n0 + (t % TILE_N) + (t / TILE_N) * ldb;
    float c[TILE_N];
#pragma unroll
    for (int j = 0; j < TILE_N; j++)
        c[j] = 0.0f;

    for (int k0 = 0; k0 < k; k0 += TILE_K) {
        // this slice's A row segment is fetched before the barrier, so its loads overlap the B staging
        float av[TILE_K];
#pragma unroll
        for (int kk = 0; kk < TILE_K; kk++)
            av[kk] = a[kk * lda];
        bs[t / TILE_N][t % TILE_N] = *b;
        b += TILE_K * ldb;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TILE_K; kk++) {
#pragma unroll
            for (int j = 0; j < TILE_N; j++)
                c[j] += av[kk] * bs[kk][j];
        }
        a += TILE_K * lda;
        __syncthreads();
    }

    float *cp = C + m0 + t + n0 * ldc;
#pragma unroll
    for (int j = 0; j < TILE_N; j++)
        cp[j * ldc] = alpha * c[j] + beta * cp[j * ldc];
}
