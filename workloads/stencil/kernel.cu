// stencil kernel: one Jacobi sweep of the 7-point 3D stencil
//   anext[x,y,z] = c1 * (a0[x-1] + a0[x+1] + a0[y-1] + a0[y+1] + a0[z-1] + a0[z+1]) - c0 * a0[x,y,z]
// over the interior of an nx x ny x nz grid (x fastest; the boundary is left as it is). A 32 x 16 block
// covers a 32 x 16 patch of (x, y) columns and each thread walks its column up z (coarsening along z),
// cells zb .. zb + zchunk - 1 with zb = 1 + blockIdx.z * zchunk: the z neighbours slide through three
// registers (below, centre, above), so each step loads one new z value plus the four x/y neighbours
// straight from global memory (no shared memory). Threads on the grid's x/y boundary return at once.
#define BX 32
#define BY 16

extern "C" __global__ void stencil_7pt(const float *__restrict__ a0, float *__restrict__ anext, int nx, int ny,
                                       int nz, int zchunk, float c0, float c1)
{
    const int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
    if (x < 1 || x > nx - 2 || y < 1 || y > ny - 2)
        return;
    const int zb = 1 + blockIdx.z * zchunk;
    const int ze = min(zb + zchunk, nz - 1);
    const int plane = nx * ny;
    int i = (zb * ny + y) * nx + x;
    float below = a0[i - plane], cur = a0[i], above;
#pragma unroll 2
    for (int z = zb; z < ze; z++, i += plane) {
        above = a0[i + plane];
        anext[i] = c1 * (below + above + a0[i - 1] + a0[i + 1] + a0[i - nx] + a0[i + nx]) - c0 * cur;
        below = cur;
        cur = above;
    }
}
