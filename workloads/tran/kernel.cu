// tran kernel: f32 matrix transpose through a shared-memory tile, as the CUDA SDK's transpose
// (transposeCoalesced / NoBankConflicts): each 16x16 CTA reads a 16x16 tile of the w x h row-major input
// with coalesced 64 B rows, stores it in a [16][17] shared tile (the padding column keeps the column read
// free of bank conflicts), and after a barrier writes the tile's columns as rows of the h x w output, so
// both the loads and the stores are coalesced.  w and h are multiples of 16.
#define TS 16

extern "C" __global__ void tran(const float *in, float *out, int w, int h)
{
    __shared__ float tile[TS][TS + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TS + tx, y = blockIdx.y * TS + ty;
    tile[ty][tx] = in[(size_t)y * w + x];
    __syncthreads();
    int ox = blockIdx.y * TS + tx, oy = blockIdx.x * TS + ty; // output column, row
    out[(size_t)oy * h + ox] = tile[tx][ty];
}
