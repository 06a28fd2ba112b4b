// textures: texture and surface objects end to end (docs/textures.md).
// Compiled with nvcc -ptx -arch=sm_75; the driver creates the objects with
// the simtlab host API (simt_tex_create, simt_surf_create).
#include <cuda_runtime.h>

// Resample a w x h float image to W x H with normalized coordinates,
// bilinear filtering and wrap addressing; the sample positions are shifted
// by (ox, oy) texels of the output grid, so some cross the edges.
extern "C" __global__ void resample(cudaTextureObject_t img, float *out, int W,
                                    int H, float ox, float oy)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;
    float u = (x + ox) / W, v = (y + oy) / H;
    out[y * W + x] = tex2D<float>(img, u, v);
}

// tex2Dgather of channel 0 at texel-space (x + 0.5, y + 0.5) + (dx, dy).
extern "C" __global__ void gather(cudaTextureObject_t img, float4 *out, int W,
                                  int H, float dx, float dy)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;
    out[y * W + x] = tex2Dgather<float4>(img, x + 0.5f + dx, y + 0.5f + dy, 0);
}

// Integer fetches from linear memory of uchar4 texels read as normalized
// floats: the sum of the four channels.
extern "C" __global__ void fetch(cudaTextureObject_t t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 v = tex1Dfetch<float4>(t, i);
    out[i] = v.x + v.y + v.z + v.w;
}

// Point samples of a layered 2D texture and a 3D texture.
extern "C" __global__ void volume(cudaTextureObject_t layered,
                                  cudaTextureObject_t vol, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = (i % 7) + 0.5f, y = (i / 7 % 5) + 0.5f, z = (i % 3) + 0.5f;
    out[2 * i] = tex2DLayered<float>(layered, x, y, i % 4);
    out[2 * i + 1] = tex3D<float>(vol, x, y, z);
}

// A 3-tap horizontal box filter from surface `in` to surface `out`, whose
// reads clamp at the row ends.
extern "C" __global__ void blur(cudaSurfaceObject_t in, cudaSurfaceObject_t out,
                                int W, int H)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;
    float a, b, c;
    surf2Dread(&a, in, (x - 1) * 4, y, cudaBoundaryModeClamp);
    surf2Dread(&b, in, x * 4, y, cudaBoundaryModeClamp);
    surf2Dread(&c, in, (x + 1) * 4, y, cudaBoundaryModeClamp);
    surf2Dwrite((a + b + c) / 3.0f, out, x * 4, y);
}
