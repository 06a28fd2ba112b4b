// conv kernels: a separable 2D convolution (radius 8, 17 taps) in two passes, as the CUDA SDK's
// convolutionSeparable: conv_rows filters along x, conv_cols along y.  One output pixel per thread, 16x8
// threads per CTA; each CTA stages its 16x8 tile plus the 8-pixel apron of its pass in shared memory
// (zero outside the image), so a CTA row reads 16 floats = 64 B of a 128 B line whose other half belongs
// to its x-neighbour CTA.  The 17 coefficients are in global memory (the host API has no constant upload),
// read by every thread at the same address (broadcast).
#define R 8
#define BX 16
#define BY 8

extern "C" __global__ void conv_rows(const float *in, float *out, const float *k, int w, int h)
{
    __shared__ float t[BY][BX + 2 * R]; // pixels x0 - R .. x0 + BX + R - 1 of each of the CTA's rows
    int tx = threadIdx.x, ty = threadIdx.y;
    int y = blockIdx.y * BY + ty;
    int x0 = blockIdx.x * BX;
    const float *row = in + (size_t)y * w;
    int g0 = x0 - R + tx, g1 = g0 + BX;
    t[ty][tx] = g0 >= 0 ? row[g0] : 0.0f;
    t[ty][tx + BX] = g1 < w ? row[g1] : 0.0f;
    __syncthreads();
    float s = 0.0f;
#pragma unroll 1
    for (int j = -R; j <= R; j++)
        s += k[R - j] * t[ty][tx + R + j];
    out[(size_t)y * w + x0 + tx] = s;
}

extern "C" __global__ void conv_cols(const float *in, float *out, const float *k, int w, int h)
{
    __shared__ float t[BY + 2 * R][BX]; // rows y0 - R .. y0 + BY + R - 1 of the CTA's 16 columns
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BX + tx;
    int y0 = blockIdx.y * BY;
#pragma unroll 1
    for (int i = 0; i < 3; i++) {
        int g = y0 - R + ty + i * BY;
        t[ty + i * BY][tx] = g >= 0 && g < h ? in[(size_t)g * w + x] : 0.0f;
    }
    __syncthreads();
    float s = 0.0f;
#pragma unroll 1
    for (int j = -R; j <= R; j++)
        s += k[R - j] * t[ty + R + j][tx];
    out[(size_t)(y0 + ty) * w + x] = s;
}
