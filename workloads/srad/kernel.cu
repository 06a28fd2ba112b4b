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
// srad_cuda_2: the divergence D = cN dN + cS dS + cW dW + cE dE (cN = cW = c at the pixel, cS and cE at the
// south and east neighbours) written as the edge fluxes fS = c(south) dS and fE = c(east) dE, each computed
// once by the pixel that owns the edge: D = fS - fS(north) + fE - fE(west).  The block sums D and D^2 over its
// tile (the update's mean and energy) through two shared tree reductions; then, registers and global memory
// only, J += lambda / 4 * D.
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

extern "C" __global__ void srad_cuda_2(float *J, const float *C, const float *DS, const float *DE, float *dsum,
                                       float *d2sum, int rows, int cols, float lambda)
{
    __shared__ float ct[BS][BS]; // the c tile
    __shared__ float fs[BS][BS]; // flux through the pixel's south edge, c(south) * dS
    __shared__ float fe[BS][BS]; // flux through the east edge, c(east) * dE
    __shared__ float rs[BS][BS]; // D, then its tile sum
    __shared__ float rq[BS][BS]; // D^2, then its tile sum
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * BS + tx;
    int r = blockIdx.y * BS + ty, c = blockIdx.x * BS + tx;
    int idx = r * cols + c;

    float cc = C[idx];
    ct[ty][tx] = cc;
    __syncthreads();

    float dS = DS[idx], dE = DE[idx];
    float cs, ce;
    if (ty < BS - 1)
        cs = ct[ty + 1][tx];
    else
        cs = r + 1 < rows ? C[idx + cols] : 0.0f; /* dS is 0 on the last row */
    if (tx < BS - 1)
        ce = ct[ty][tx + 1];
    else
        ce = c + 1 < cols ? C[idx + 1] : 0.0f;
    float fS = cs * dS, fE = ce * dE;
    fs[ty][tx] = fS;
    fe[ty][tx] = fE;
    __syncthreads();

    float fN, fW;
    if (ty > 0)
        fN = fs[ty - 1][tx];
    else
        fN = r > 0 ? cc * DS[idx - cols] : 0.0f;
    if (tx > 0)
        fW = fe[ty][tx - 1];
    else
        fW = c > 0 ? cc * DE[idx - 1] : 0.0f;
    float D = (fS - fN) + (fE - fW);
    rs[ty][tx] = D;
    rq[ty][tx] = D * D;
    __syncthreads();
    tile_sum2(&rs[0][0], &rq[0][0], t);
    if (t == 0) {
        int b = blockIdx.y * gridDim.x + blockIdx.x;
        dsum[b] = rs[0][0];
        d2sum[b] = rq[0][0];
    }

    /* Registers and global memory only from here. */
    J[idx] = J[idx] + 0.25f * lambda * D;
}
