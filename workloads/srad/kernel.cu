// srad kernels: one step of speckle-reducing anisotropic diffusion (SRAD) on 24x24 pixel tiles, one thread per
// pixel.  Derivatives use clamped indexing at the image border (a derivative across the border is 0).
//
// srad_cuda_1: the four directional derivatives of J, the instantaneous coefficient of variation q^2 and the
// diffusion coefficient c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))), clamped to [0, 1].  Each vertical or
// horizontal edge difference is computed once, by the pixel above or left of the edge, and deposited in the
// derivative planes of both pixels it borders (the tile's north row and west column take theirs from the
// halo in global memory).  The block also sums q^2 over its tile (the tile's mean ICOV) through a shared tree
// reduction; c is formed from the thread's q^2 after that, so the last shared access precedes the division,
// the clamp and the stores.  Writes c, the south and east differences (the north and west ones are their
// neighbours' negatives) and one q^2 sum per tile.
//
// srad_cuda_2, in the shape of Rodinia srad_v2's srad_cuda_2 with BLOCK_SIZE 24: five shared tiles (J; the c
// row below the tile and the c column right of it, each loaded by every thread of its row or column as
// Rodinia's does; c; the result), each load behind a barrier; then the divergence
// D = cN dN + cS dS + cW dW + cE dE (cN = cW = c at the pixel, cS and cE at the south and east neighbours, from
// the c tile or the border planes) from the four derivative planes in global memory, the update
// J + 0.25 lambda D (in double, Rodinia's literal) into the result tile, a barrier, and J written from it.
#define BS 24
#define NT (BS * BS)

// Sums the first NT entries of v (flattened BS x BS) into v[0]; every thread calls it.
__device__ __forceinline__ void tile_sum(float *v, int t)
{
    if (t < NT - 512)
        v[t] += v[t + 512];
    __syncthreads();
#pragma unroll 1
    for (int s = 256; s > 0; s >>= 1) {
        if (t < s)
            v[t] += v[t + s];
        __syncthreads();
    }
}

__device__ __forceinline__ void tile_sum2(float *u, float *v, int t)
{
    if (t < NT - 512) {
        u[t] += u[t + 512];
        v[t] += v[t + 512];
    }
    __syncthreads();
#pragma unroll 1
    for (int s = 256; s > 0; s >>= 1) {
        if (t < s) {
            u[t] += u[t + s];
            v[t] += v[t + s];
        }
        __syncthreads();
    }
}

extern "C" __global__ void srad_cuda_1(const float *J, float *C, float *DS, float *DE, float *q2sum, int rows,
                                       int cols, float q0sqr)
{
    __shared__ float jt[BS][BS]; // the J tile
    __shared__ float dn[BS][BS]; // J(north) - J, per pixel
    __shared__ float ds[BS][BS]; // J(south) - J
    __shared__ float dw[BS][BS]; // J(west) - J
    __shared__ float de[BS][BS]; // J(east) - J
    __shared__ float qq[BS][BS]; // q^2, then the tile's reduction
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * BS + tx;
    int r = blockIdx.y * BS + ty, c = blockIdx.x * BS + tx;
    int idx = r * cols + c;

    float jc = J[idx];
    jt[ty][tx] = jc;
    __syncthreads();

    float s, e;
    if (ty < BS - 1)
        s = jt[ty + 1][tx] - jc;
    else
        s = r + 1 < rows ? J[idx + cols] - jc : 0.0f;
    if (tx < BS - 1)
        e = jt[ty][tx + 1] - jc;
    else
        e = c + 1 < cols ? J[idx + 1] - jc : 0.0f;
    ds[ty][tx] = s;
    de[ty][tx] = e;
    if (ty < BS - 1)
        dn[ty + 1][tx] = -s;
    if (tx < BS - 1)
        dw[ty][tx + 1] = -e;
    if (ty == 0)
        dn[0][tx] = r > 0 ? J[idx - cols] - jc : 0.0f;
    if (tx == 0)
        dw[ty][0] = c > 0 ? J[idx - 1] - jc : 0.0f;
    __syncthreads();

    float n = dn[ty][tx], w = dw[ty][tx];
    s = ds[ty][tx];
    e = de[ty][tx];
    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = 0.5f * g2 - 0.0625f * (l * l);
    float den = 1.0f + 0.25f * l;
    float q2 = num / (den * den);
    qq[ty][tx] = q2;
    __syncthreads();
    tile_sum(&qq[0][0], t);
    if (t == 0)
        q2sum[blockIdx.y * gridDim.x + blockIdx.x] = qq[0][0];

    /* Registers and global memory only from here. */
    float d = (q2 - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float cc = 1.0f / (1.0f + d);
    cc = cc < 0.0f ? 0.0f : (cc > 1.0f ? 1.0f : cc);
    C[idx] = cc;
    DS[idx] = s;
    DE[idx] = e;
}

extern "C" __global__ void srad_cuda_2(const float *N, const float *S, const float *W, const float *E, float *J,
                                       const float *C, int cols, int rows, float lambda)
{
    __shared__ float south_c[BS][BS]; // c of the row below the tile, in every row (the tile's last row at the border)
    __shared__ float east_c[BS][BS];  // c of the column right of the tile, in every column (likewise)
    __shared__ float c_tile[BS][BS];  // c of the tile
    __shared__ float result[BS][BS];  // the updated J
    __shared__ float temp[BS][BS];    // J of the tile
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int base = cols * BS * by + BS * bx;
    int idx = base + cols * ty + tx;
    int south = by == gridDim.y - 1 ? BS - 1 : BS, east = bx == gridDim.x - 1 ? BS - 1 : BS;

    temp[ty][tx] = J[idx];
    __syncthreads();
    south_c[ty][tx] = C[base + cols * south + tx];
    __syncthreads();
    east_c[ty][tx] = C[base + cols * ty + east];
    __syncthreads();
    c_tile[ty][tx] = C[idx];
    __syncthreads();

    float cc = c_tile[ty][tx], cs, ce;
    if (ty == BS - 1 && tx == BS - 1) {
        cs = south_c[ty][tx];
        ce = east_c[ty][tx];
    } else if (tx == BS - 1) {
        cs = c_tile[ty + 1][tx];
        ce = east_c[ty][tx];
    } else if (ty == BS - 1) {
        cs = south_c[ty][tx];
        ce = c_tile[ty][tx + 1];
    } else {
        cs = c_tile[ty + 1][tx];
        ce = c_tile[ty][tx + 1];
    }
    /* divergence (cN = cW = c at the pixel), then the update with Rodinia's double-precision 0.25 */
    float d_sum = cc * N[idx] + cs * S[idx] + cc * W[idx] + ce * E[idx];
    result[ty][tx] = temp[ty][tx] + 0.25 * lambda * d_sum;
    __syncthreads();
    J[idx] = result[ty][tx]; /* the last shared access is this read */
}
