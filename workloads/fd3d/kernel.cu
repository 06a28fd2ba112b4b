// fd3d: one application of an 8th-order (radius 4) finite-difference 3D Laplacian
//   out = C0 * cur + sum_k C_k * (the 6 neighbours at distance k),
// in the shape of the SDK's 3D finite-difference kernel (3DFD) as the CTA-scheduling paper runs it:
// 16x16 CTAs tile the x-y plane, each thread walks its column up z with the 4 planes behind and the 4
// ahead in registers, and the current plane (with a 4-point halo on each side, 24x24 floats) is staged
// in shared memory between two barriers per plane.  The volume is padded by 4 points on every side, so
// the interior DIMX x dimy x dimz needs no bounds test.  The row width is a compile-time constant (a
// template argument): with it the halo rows are immediate offsets, which keeps the kernel at 40 registers
// (48 with a run-time width).  Two widths, two workloads: fd3d_step (480 points, 3DFD's 30x30 CTAs) and
// fdtd_step (384 points, FDTD's 24x24 CTAs).
#define R 4
#define BX 16
#define BY 16
/* 8th-order central-difference weights of the second derivative (times 1/h^2 = 1), per axis; c0 is
 * the three axes' centre weights together.  Literals, as the SDK keeps them in constant memory. */
#define C0 (-3.0f * 205.0f / 72.0f)
#define C1 (8.0f / 5.0f)
#define C2 (-1.0f / 5.0f)
#define C3 (8.0f / 315.0f)
#define C4 (-1.0f / 560.0f)

template <int DIMX>
__device__ __forceinline__ void fd3d_body(const float *__restrict__ in, float *__restrict__ out, int dimy, int dimz)
{
    const int px = DIMX + 2 * R; /* padded row */
    __shared__ float tile[BY + 2 * R][BX + 2 * R];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int stride = px * (dimy + 2 * R); /* one padded plane */
    const int ix = blockIdx.x * BX + tx + R, iy = blockIdx.y * BY + ty + R;
    int i = iy * px + ix; /* plane 0 */
    float b3 = in[i], b2 = in[i + stride], b1 = in[i + 2 * stride], b0 = in[i + 3 * stride];
    float cur = in[i + 4 * stride];
    float f0 = in[i + 5 * stride], f1 = in[i + 6 * stride], f2 = in[i + 7 * stride], f3;
    i += R * stride;
#pragma unroll 1
    for (int iz = 0; iz < dimz; iz++, i += stride) {
        f3 = in[i + R * stride];
        __syncthreads(); /* the previous plane's tile is no longer read */
        tile[ty + R][tx + R] = cur;
        if (tx < R) {
            tile[ty + R][tx] = in[i - R];
            tile[ty + R][tx + BX + R] = in[i + BX];
        }
        if (ty < R) {
            tile[ty][tx + R] = in[i - R * px];
            tile[ty + BY + R][tx + R] = in[i + BY * px];
        }
        __syncthreads();
        float div = C0 * cur;
        div += C1 * (f0 + b0 + tile[ty + R][tx + R - 1] + tile[ty + R][tx + R + 1] + tile[ty + R - 1][tx + R] +
                     tile[ty + R + 1][tx + R]);
        div += C2 * (f1 + b1 + tile[ty + R][tx + R - 2] + tile[ty + R][tx + R + 2] + tile[ty + R - 2][tx + R] +
                     tile[ty + R + 2][tx + R]);
        div += C3 * (f2 + b2 + tile[ty + R][tx + R - 3] + tile[ty + R][tx + R + 3] + tile[ty + R - 3][tx + R] +
                     tile[ty + R + 3][tx + R]);
        div += C4 * (f3 + b3 + tile[ty + R][tx + R - 4] + tile[ty + R][tx + R + 4] + tile[ty + R - 4][tx + R] +
                     tile[ty + R + 4][tx + R]);
        out[i] = div;
        b3 = b2, b2 = b1, b1 = b0, b0 = cur;
        cur = f0, f0 = f1, f1 = f2, f2 = f3;
    }
}

extern "C" __global__ void fd3d_step(const float *__restrict__ in, float *__restrict__ out, int dimy, int dimz)
{
    fd3d_body<480>(in, out, dimy, dimz);
}

extern "C" __global__ void fdtd_step(const float *__restrict__ in, float *__restrict__ out, int dimy, int dimz)
{
    fd3d_body<384>(in, out, dimy, dimz);
}
