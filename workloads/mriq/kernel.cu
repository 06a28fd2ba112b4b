// mriq kernel: the Q matrix of non-Cartesian MRI reconstruction. For every voxel position r (one thread
// per voxel) it accumulates Q(r) = sum over K-space samples k of |phi(k)|^2 * (cos, sin)(2 pi k . r), real
// part into qr and imaginary part into qi. The samples come from global memory as (kx, ky, kz, |phi|^2)
// quadruples, `count` of them per launch starting at sample `first`: the host launches the kernel once per
// chunk of samples and every launch adds its chunk's terms to qr/qi. The sample loop is unrolled 4 times
// (4 samples loaded, then their 4 terms); count must be a multiple of 4.
#define TWO_PI 6.2831853071795864769f
#define UNROLL 4

extern "C" __global__ void mriq_compute_q(const float *__restrict__ x, const float *__restrict__ y,
                                          const float *__restrict__ z, const float4 *__restrict__ kv, int first,
                                          int count, float *__restrict__ qr, float *__restrict__ qi)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    const float rx = x[v], ry = y[v], rz = z[v];
    float sr = qr[v], si = qi[v];
    const float4 *k = kv + first;
#pragma unroll 1
    for (int i = 0; i < count; i += UNROLL) {
        // the group's samples are fetched together, ahead of the arithmetic
        float4 s[UNROLL];
#pragma unroll
        for (int j = 0; j < UNROLL; j++)
            s[j] = k[i + j];
#pragma unroll
        for (int j = 0; j < UNROLL; j++) {
            const float arg = TWO_PI * (s[j].x * rx + s[j].y * ry + s[j].z * rz);
            sr += s[j].w * __cosf(arg);
            si += s[j].w * __sinf(arg);
        }
    }
    qr[v] = sr;
    qi[v] = si;
}
