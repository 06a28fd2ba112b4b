// stn: one sweep of the 7-point 3D stencil
//   anext[x,y,z] = c1 * (a0[x-1] + a0[x+1] + a0[y-1] + a0[y+1] + a0[z-1] + a0[z+1]) - c0 * a0[x,y,z]
// in the shape of Parboil's block2D_hybrid_coarsen_x as the CTA-scheduling paper runs it (STN): 32x4
// CTAs, each thread owning two x points 32 apart (so a CTA row covers 64 floats), walking up z with the
// z neighbours in registers and the current x-y plane (plus a one-point halo) staged in shared memory
// between two barriers per plane. Grid-boundary points are not written (the host copies a0 first).
#define TX 32
#define TY 4
#define SW (2 * TX + 2)

extern "C" __global__ void stn_7pt(const float *__restrict__ a0, float *__restrict__ anext, int nx, int ny,
                                   int nz, float c0, float c1)
{
    __shared__ float sh[TY + 2][SW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x0 = blockIdx.x * 2 * TX + tx, x1 = x0 + TX;
    const int y = blockIdx.y * TY + ty;
    const int plane = nx * ny;
    /* clamped indices keep halo loads inside the grid; clamped values are only used by points that
     * are not written */
    const int xl = max(blockIdx.x * 2 * TX - 1, 0), xr = min(blockIdx.x * 2 * TX + 2 * TX, nx - 1);
    const int yd = max(y - 1, 0), yu = min(y + 1, ny - 1);
    const int w0 = x0 > 0 && x0 < nx - 1 && y > 0 && y < ny - 1;
    const int w1 = x1 > 0 && x1 < nx - 1 && y > 0 && y < ny - 1;
    int i0 = y * nx + x0, i1 = y * nx + x1;
    float b0 = a0[i0], b1 = a0[i1];
    float c0v = a0[i0 + plane], c1v = a0[i1 + plane];
#pragma unroll 1
    for (int z = 1; z < nz - 1; z++) {
        int p = z * plane;
        float t0 = a0[i0 + p + plane], t1 = a0[i1 + p + plane];
        sh[ty + 1][tx + 1] = c0v;
        sh[ty + 1][tx + 1 + TX] = c1v;
        if (tx == 0)
            sh[ty + 1][0] = a0[p + y * nx + xl];
        if (tx == TX - 1)
            sh[ty + 1][SW - 1] = a0[p + y * nx + xr];
        if (ty == 0) {
            sh[0][tx + 1] = a0[p + yd * nx + x0];
            sh[0][tx + 1 + TX] = a0[p + yd * nx + x1];
        }
        if (ty == TY - 1) {
            sh[TY + 1][tx + 1] = a0[p + yu * nx + x0];
            sh[TY + 1][tx + 1 + TX] = a0[p + yu * nx + x1];
        }
        __syncthreads();
        if (w0)
            anext[i0 + p] = c1 * (sh[ty + 1][tx] + sh[ty + 1][tx + 2] + sh[ty][tx + 1] + sh[ty + 2][tx + 1] +
                                  b0 + t0) - c0 * c0v;
        if (w1)
            anext[i1 + p] = c1 * (sh[ty + 1][tx + TX] + sh[ty + 1][tx + TX + 2] + sh[ty][tx + TX + 1] +
                                  sh[ty + 2][tx + TX + 1] + b1 + t1) - c0 * c1v;
        __syncthreads();
        b0 = c0v, b1 = c1v;
        c0v = t0, c1v = t1;
    }
}
