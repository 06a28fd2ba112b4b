// nw kernels: Needleman-Wunsch global alignment score matrix, tile by tile (needle_cuda_shared_1/2-like).
// The (n+1) x (n+1) score matrix (row 0 and column 0 hold the gap penalties) is cut into 32x32 tiles; tiles on
// one anti-diagonal of tiles are independent, so the host launches one grid per tile anti-diagonal:
// needle_shared_1 for the upper-left ones (diagonal k < nblk: tiles (row k - b, column b)), needle_shared_2 for
// the lower-right ones (k >= nblk: tiles (row nblk - 1 - b, column k - nblk + 1 + b)).  A 32-thread CTA
// stages its tile's similarity scores and the north row / west column of the scores in shared memory, sweeps
// the tile's 63 cell anti-diagonals (thread t owns column t; a barrier after each), and writes the tile back.
#define BS 32

__device__ __forceinline__ void nw_tile(int (*temp)[BS + 1], int (*ref)[BS], const int *sim, int *score, int cols,
                                        int penalty, int brow, int bcol)
{
    int tx = threadIdx.x;
    size_t corner = (size_t)brow * BS * cols + (size_t)bcol * BS; /* the cell north-west of the tile */
    const int *s = sim + corner + cols + 1;
    int *out = score + corner;

    for (int i = 0; i < BS; i++)
        ref[i][tx] = s[(size_t)i * cols + tx];
    if (tx == 0)
        temp[0][0] = out[0];
    temp[0][tx + 1] = out[tx + 1];
    temp[tx + 1][0] = out[(size_t)(tx + 1) * cols];
    __syncthreads();

#pragma unroll 1
    for (int d = 0; d < 2 * BS - 1; d++) {
        int i = d - tx; /* this thread's row on cell anti-diagonal d */
        if (i >= 0 && i < BS) {
            int v = temp[i][tx] + ref[i][tx];
            v = max(v, temp[i + 1][tx] - penalty);
            v = max(v, temp[i][tx + 1] - penalty);
            temp[i + 1][tx + 1] = v;
        }
        __syncthreads();
    }

    for (int i = 1; i <= BS; i++)
        out[(size_t)i * cols + tx + 1] = temp[i][tx + 1];
}

/* Upper-left tile anti-diagonal k (0 <= k < nblk), k + 1 CTAs. */
extern "C" __global__ void needle_shared_1(const int *sim, int *score, int cols, int penalty, int k, int nblk)
{
    __shared__ int temp[BS + 1][BS + 1];
    __shared__ int ref[BS][BS];
    (void)nblk;
    nw_tile(temp, ref, sim, score, cols, penalty, k - (int)blockIdx.x, blockIdx.x);
}

/* Lower-right tile anti-diagonal k (nblk <= k < 2 nblk - 1), 2 nblk - 1 - k CTAs. */
extern "C" __global__ void needle_shared_2(const int *sim, int *score, int cols, int penalty, int k, int nblk)
{
    __shared__ int temp[BS + 1][BS + 1];
    __shared__ int ref[BS][BS];
    nw_tile(temp, ref, sim, score, cols, penalty, nblk - 1 - (int)blockIdx.x, k - nblk + 1 + (int)blockIdx.x);
}
