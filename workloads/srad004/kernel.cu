// srad004: the first SRAD kernel (directional derivatives and diffusion coefficient) with 16x16 CTAs, the
// shape the CTA-scheduling paper runs (SRAD, 1 kernel, 16384 CTAs): each CTA stages its 16x16 tile of
// the image J plus a one-pixel halo (clamped at the image border, as Rodinia's srad_v2 clamps) in shared
// memory, then every thread computes its pixel's four differences, the instantaneous coefficient of
// variation q^2 and the diffusion coefficient c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))) clamped to
// [0, 1], and stores c and the four differences (5 coalesced 64 B row stores per warp row).
#define BS 16

extern "C" __global__ void srad004_coef(const float *J, float *C, float *dN, float *dS, float *dW, float *dE,
                                        int rows, int cols, float q0sqr)
{
    __shared__ float t[BS + 2][BS + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * BS + tx, y = blockIdx.y * BS + ty;
    const int idx = y * cols + x;
    t[ty + 1][tx + 1] = J[idx];
    if (ty == 0)
        t[0][tx + 1] = J[max(y - 1, 0) * cols + x];
    if (ty == BS - 1)
        t[BS + 1][tx + 1] = J[min(y + 1, rows - 1) * cols + x];
    if (tx == 0)
        t[ty + 1][0] = J[y * cols + max(x - 1, 0)];
    if (tx == BS - 1)
        t[ty + 1][BS + 1] = J[y * cols + min(x + 1, cols - 1)];
    __syncthreads();
    float jc = t[ty + 1][tx + 1];
    float n = t[ty][tx + 1] - jc, s = t[ty + 2][tx + 1] - jc;
    float w = t[ty + 1][tx] - jc, e = t[ty + 1][tx + 2] - jc;
    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);
    c = c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c;
    C[idx] = c;
    dN[idx] = n;
    dS[idx] = s;
    dW[idx] = w;
    dE[idx] = e;
}
