// dct8x8 kernels: orthonormal 8x8 2D DCT-II (forward) and DCT-III (inverse) over an image, tile by tile.
// Tiled kernels (blockDim = (8, W/8, H/8)): each thread loads an 8-pixel column segment into a padded __shared__
// tile, the row pass transforms 8-element rows in place, and the column pass reads its segment back into
// registers (the last shared access), transforms it there and stores it to global memory.
// Float tiles are H x (W+1) floats; the 16-bit tile is 32 x 34 shorts in 13-bit fixed-point arithmetic.
// dct_direct (blockDim = (8, 8)) computes each coefficient as two 8-term sums over an 8x8 shared block.

#define COL_FRAC 2 /* fixed point: extra fraction bits kept between the row and the column pass */
#define COEF_BITS 13

template <typename T> struct Coef;
template <> struct Coef<float> { /* c_k cos(k pi / 16) with c_0 = sqrt(1/8), c_k = 1/2 */
    static constexpr float a = 0.353553391f, c1 = 0.490392640f, c2 = 0.461939766f, c3 = 0.415734806f,
                           c5 = 0.277785117f, c6 = 0.191341716f, c7 = 0.097545161f;
};
template <> struct Coef<int> { /* the same, rounded to 13 fraction bits */
    static constexpr int a = 2896, c1 = 4017, c2 = 3784, c3 = 3406, c5 = 2276, c6 = 1567, c7 = 799;
};

/* Forward 8-point DCT in place, even/odd split: X[2m] from sums, X[2m+1] from differences. */
template <typename T> __device__ void fdct8(T v[8])
{
    typedef Coef<T> K;
    T s0 = v[0] + v[7], s1 = v[1] + v[6], s2 = v[2] + v[5], s3 = v[3] + v[4];
    T d0 = v[0] - v[7], d1 = v[1] - v[6], d2 = v[2] - v[5], d3 = v[3] - v[4];
    v[0] = K::a * (s0 + s1 + s2 + s3);
    v[4] = K::a * (s0 - s1 - s2 + s3);
    v[2] = K::c2 * (s0 - s3) + K::c6 * (s1 - s2);
    v[6] = K::c6 * (s0 - s3) - K::c2 * (s1 - s2);
    v[1] = K::c1 * d0 + K::c3 * d1 + K::c5 * d2 + K::c7 * d3;
    v[3] = K::c3 * d0 - K::c7 * d1 - K::c1 * d2 - K::c5 * d3;
    v[5] = K::c5 * d0 - K::c1 * d1 + K::c7 * d2 + K::c3 * d3;
    v[7] = K::c7 * d0 - K::c5 * d1 + K::c3 * d2 - K::c1 * d3;
}

/* Inverse 8-point DCT in place: even part from X[2m], odd part from X[2m+1]. */
template <typename T> __device__ void idct8(T v[8])
{
    typedef Coef<T> K;
    T e0 = K::a * (v[0] + v[4]) + K::c2 * v[2] + K::c6 * v[6];
    T e1 = K::a * (v[0] - v[4]) + K::c6 * v[2] - K::c2 * v[6];
    T e2 = K::a * (v[0] - v[4]) - K::c6 * v[2] + K::c2 * v[6];
    T e3 = K::a * (v[0] + v[4]) - K::c2 * v[2] - K::c6 * v[6];
    T o0 = K::c1 * v[1] + K::c3 * v[3] + K::c5 * v[5] + K::c7 * v[7];
    T o1 = K::c3 * v[1] - K::c7 * v[3] - K::c1 * v[5] - K::c5 * v[7];
    T o2 = K::c5 * v[1] - K::c1 * v[3] + K::c7 * v[5] + K::c3 * v[7];
    T o3 = K::c7 * v[1] - K::c5 * v[3] + K::c3 * v[5] - K::c1 * v[7];
    v[0] = e0 + o0; v[7] = e0 - o0;
    v[1] = e1 + o1; v[6] = e1 - o1;
    v[2] = e2 + o2; v[5] = e2 - o2;
    v[3] = e3 + o3; v[4] = e3 - o3;
}

template <bool INV, typename T> __device__ void xform8(T v[8])
{
    if (INV)
        idct8(v);
    else
        fdct8(v);
}

__device__ int round_shift(int v, int sh)
{
    return (v + (1 << (sh - 1))) >> sh;
}

/* Float tile of W x H pixels, row stride W + 1 in shared memory; `stride` is the image row stride. */
template <int W, int H, bool INV>
__device__ void dct_tile_f32(float *tile, float *dst, const float *src, int stride)
{
    const int S = W + 1;
    int col = threadIdx.y * 8 + threadIdx.x, row0 = threadIdx.z * 8;
    size_t g = (size_t)(blockIdx.y * H + row0) * stride + blockIdx.x * W + col;
    float v[8];
    for (int i = 0; i < 8; i++)
        tile[(row0 + i) * S + col] = src[g + (size_t)i * stride];
    __syncthreads();

    float *rp = tile + (row0 + threadIdx.x) * S + threadIdx.y * 8; /* row pass: one 8-element row */
    for (int i = 0; i < 8; i++)
        v[i] = rp[i];
    xform8<INV>(v);
    for (int i = 0; i < 8; i++)
        rp[i] = v[i];
    __syncthreads();

    for (int i = 0; i < 8; i++) /* column pass: the last shared access */
        v[i] = tile[(row0 + i) * S + col];
    xform8<INV>(v);
    for (int i = 0; i < 8; i++)
        dst[g + (size_t)i * stride] = v[i];
}

/* The CUDA SDK's factoring of the 8-point transforms (dct1/dct2): constants sqrt(2) cos(k pi / 16) and one
 * 1/sqrt(8) normalising multiply per output, done in place on 8 elements `step` apart in shared memory. */
#define SQ_A 1.387039845f    /* sqrt(2) cos(1 pi / 16) */
#define SQ_B 1.306562965f    /* sqrt(2) cos(2 pi / 16) */
#define SQ_C 1.175875602f    /* sqrt(2) cos(3 pi / 16) */
#define SQ_D 0.785694958f    /* sqrt(2) cos(5 pi / 16) */
#define SQ_E 0.541196100f    /* sqrt(2) cos(6 pi / 16) */
#define SQ_F 0.275899379f    /* sqrt(2) cos(7 pi / 16) */
#define SQ_NORM 0.353553391f /* 1 / sqrt(8) */

__device__ void fdct8_inplace(float *p, int step)
{
    float x0 = p[0], x1 = p[step], x2 = p[2 * step], x3 = p[3 * step];
    float x4 = p[4 * step], x5 = p[5 * step], x6 = p[6 * step], x7 = p[7 * step];
    float s07 = x0 + x7, s16 = x1 + x6, s25 = x2 + x5, s34 = x3 + x4;
    float d07 = x0 - x7, d61 = x6 - x1, d25 = x2 - x5, d43 = x4 - x3;
    float e0 = s07 + s34, e1 = s07 - s34, e2 = s16 + s25, e3 = s16 - s25;
    p[0] = SQ_NORM * (e0 + e2);
    p[2 * step] = SQ_NORM * (SQ_B * e1 + SQ_E * e3);
    p[4 * step] = SQ_NORM * (e0 - e2);
    p[6 * step] = SQ_NORM * (SQ_E * e1 - SQ_B * e3);
    p[step] = SQ_NORM * (SQ_A * d07 - SQ_C * d61 + SQ_D * d25 - SQ_F * d43);
    p[3 * step] = SQ_NORM * (SQ_C * d07 + SQ_F * d61 - SQ_A * d25 + SQ_D * d43);
    p[5 * step] = SQ_NORM * (SQ_D * d07 + SQ_A * d61 + SQ_F * d25 - SQ_C * d43);
    p[7 * step] = SQ_NORM * (SQ_F * d07 + SQ_D * d61 + SQ_C * d25 + SQ_A * d43);
}

__device__ void idct8_inplace(float *p, int step)
{
    float v0 = p[0], v1 = p[step], v2 = p[2 * step], v3 = p[3 * step];
    float v4 = p[4 * step], v5 = p[5 * step], v6 = p[6 * step], v7 = p[7 * step];
    float sp = v0 + v4, sm = v0 - v4, q = SQ_B * v2 + SQ_E * v6, r = SQ_E * v2 - SQ_B * v6;
    float e0 = sp + q, e3 = sp - q, e1 = sm + r, e2 = sm - r;
    float o0 = SQ_A * v1 + SQ_C * v3 + SQ_D * v5 + SQ_F * v7;
    float o1 = SQ_C * v1 - SQ_F * v3 - SQ_A * v5 - SQ_D * v7;
    float o2 = SQ_D * v1 - SQ_A * v3 + SQ_F * v5 + SQ_C * v7;
    float o3 = SQ_F * v1 - SQ_D * v3 + SQ_C * v5 - SQ_A * v7;
    p[0] = SQ_NORM * (e0 + o0);
    p[7 * step] = SQ_NORM * (e0 - o0);
    p[step] = SQ_NORM * (e1 + o1);
    p[6 * step] = SQ_NORM * (e1 - o1);
    p[2 * step] = SQ_NORM * (e2 + o2);
    p[5 * step] = SQ_NORM * (e2 - o2);
    p[3 * step] = SQ_NORM * (e3 + o3);
    p[4 * step] = SQ_NORM * (e3 - o3);
}

/* dct1/dct2 in the SDK's CUDAkernel2DCT / CUDAkernel2IDCT shape: 32 x 16 float tile, row stride 33; each thread
 * loads an 8-pixel column segment, transforms one row in place, then its column in place, and copies the column
 * back out of shared memory after a third barrier (that copy holds the last shared accesses).  Image offsets
 * are 32-bit and the per-row ones unsigned (i * stride with an unsigned i), as the SDK's. */
template <bool INV> __device__ void dct_tile_sdk(float *tile, float *dst, const float *src, int stride)
{
    const int W = 32, H = 16, S = W + 1;
    int col = threadIdx.y * 8 + threadIdx.x, row0 = threadIdx.z * 8;
    int g = (blockIdx.y * H + row0) * stride + blockIdx.x * W + col;
    src += g;
    dst += g;
    float *bl = tile + row0 * S + col;
    for (unsigned int i = 0; i < 8; i++) /* unsigned 32-bit image offsets i * stride, as the SDK's */
        bl[i * S] = src[i * stride];
    __syncthreads();
    float *rp = tile + (row0 + threadIdx.x) * S + threadIdx.y * 8; /* row pass: one 8-element row */
    if (INV)
        idct8_inplace(rp, 1);
    else
        fdct8_inplace(rp, 1);
    __syncthreads();
    if (INV) /* column pass */
        idct8_inplace(bl, S);
    else
        fdct8_inplace(bl, S);
    __syncthreads();
    for (unsigned int i = 0; i < 8; i++) /* the last shared accesses */
        dst[i * stride] = bl[i * S];
}

/* 16-bit tile of 32 x 32 pixels, row stride 34 shorts; 13-bit coefficients, COL_FRAC bits kept between passes. */
template <bool INV> __device__ void dct_tile_s16(short *tile, short *dst, const short *src, int stride)
{
    const int W = 32, S = W + 2;
    int col = threadIdx.y * 8 + threadIdx.x, row0 = threadIdx.z * 8;
    size_t g = (size_t)(blockIdx.y * W + row0) * stride + blockIdx.x * W + col;
    int v[8];
    for (int i = 0; i < 8; i++)
        tile[(row0 + i) * S + col] = src[g + (size_t)i * stride];
    __syncthreads();

    short *rp = tile + (row0 + threadIdx.x) * S + threadIdx.y * 8;
    for (int i = 0; i < 8; i++)
        v[i] = rp[i];
    xform8<INV>(v);
    for (int i = 0; i < 8; i++)
        rp[i] = (short)round_shift(v[i], COEF_BITS - COL_FRAC);
    __syncthreads();

    for (int i = 0; i < 8; i++) /* the last shared access */
        v[i] = tile[(row0 + i) * S + col];
    xform8<INV>(v);
    for (int i = 0; i < 8; i++)
        dst[g + (size_t)i * stride] = (short)round_shift(v[i], COEF_BITS + COL_FRAC);
}

extern "C" __global__ void dct2d_fwd(float *dst, const float *src, int stride)
{
    __shared__ float tile[16 * 33];
    dct_tile_sdk<false>(tile, dst, src, stride);
}

extern "C" __global__ void dct2d_inv(float *dst, const float *src, int stride)
{
    __shared__ float tile[16 * 33];
    dct_tile_sdk<true>(tile, dst, src, stride);
}

extern "C" __global__ void dct2d_fwd_8k(float *dst, const float *src, int stride)
{
    __shared__ float tile[32 * 65];
    dct_tile_f32<64, 32, false>(tile, dst, src, stride);
}

extern "C" __global__ void dct2d_inv_8k(float *dst, const float *src, int stride)
{
    __shared__ float tile[32 * 65];
    dct_tile_f32<64, 32, true>(tile, dst, src, stride);
}

extern "C" __global__ void dct_short_fwd(short *dst, const short *src, int stride)
{
    __shared__ short tile[32 * 34];
    dct_tile_s16<false>(tile, dst, src, stride);
}

extern "C" __global__ void dct_short_inv(short *dst, const short *src, int stride)
{
    __shared__ short tile[32 * 34];
    dct_tile_s16<true>(tile, dst, src, stride);
}

/* One 8x8 block per CTA, one coefficient per thread: X[v][u] = sum_y C[v][y] sum_x C[u][x] p[y][x];
 * cosm is the 8x8 DCT matrix C[k][n] = c_k cos((2n + 1) k pi / 16) in global memory. */
extern "C" __global__ void dct_direct(float *dst, const float *src, const float *cosm, int stride)
{
    __shared__ float blk[8][8];
    int u = threadIdx.x, v = threadIdx.y;
    size_t g = (size_t)(blockIdx.y * 8 + v) * stride + blockIdx.x * 8 + u;
    blk[v][u] = src[g];
    __syncthreads();
    float r = 0.0f;
    for (int x = 0; x < 8; x++)
        r += cosm[u * 8 + x] * blk[v][x];
    __syncthreads();
    blk[v][u] = r;
    __syncthreads();
    float c = 0.0f;
    for (int y = 0; y < 8; y++)
        c += cosm[v * 8 + y] * blk[y][u];
    dst[g] = c;
}
