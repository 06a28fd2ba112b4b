// lps: one Jacobi sweep of a 3D Laplace solver (7-point average) over an NX x NY x NZ grid, mirroring
// the GPGPU-Sim benchmark LPS (Giles' laplace3d): 16x8 CTAs tile the x-y plane and every thread walks
// its (i, j) column through all NZ planes, so each step reads the plane below, its own plane (four
// neighbours) and the plane above: no shared memory, memory-bound, the planes' reuse lives in L2.
// Boundary points copy their value through.
extern "C" __global__ void lps_step(int nx, int ny, int nz, const float *u1, float *u2)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    if (i >= nx || j >= ny)
        return;
    long plane = (long)nx * ny;
    long ind = i + (long)j * nx;
    int edge = i == 0 || i == nx - 1 || j == 0 || j == ny - 1;
#pragma unroll 1
    for (int k = 0; k < nz; k++, ind += plane) {
        if (edge || k == 0 || k == nz - 1) {
            u2[ind] = u1[ind];
        } else {
            float s = u1[ind - 1] + u1[ind + 1];
            s = s + u1[ind - nx];
            s = s + u1[ind + nx];
            s = s + u1[ind - plane];
            s = s + u1[ind + plane];
            u2[ind] = s * (1.0f / 6.0f);
        }
    }
}
