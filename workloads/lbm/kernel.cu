// lbm kernel: one time step of a D3Q19 lattice-Boltzmann fluid (BGK collision, Smagorinsky sub-grid model)
// on an NX x ny x nz grid, pull scheme. One 128-thread block per x-row (grid = ny x nz), one thread per
// cell. Distributions are stored row-blocked: row r = y + ny * z holds its 19 directions one after the
// other, 128 floats each, f[(r * 19 + q) * NX + x], so a warp's accesses are contiguous and a neighbour in
// x or y is a constant offset from the cell's own row; only the z neighbours need a run-time offset.
//   obstacle cell: no streaming, the 19 local values are reflected (dst[q] = src[opposite(q)]);
//   fluid cell:    pull f_q from the neighbour at cell - e_q, density and velocity (an inflow cell forces
//                  the velocity), a Smagorinsky eddy-viscosity relaxation time from the non-equilibrium
//                  momentum flux, then BGK relaxation towards the second-order equilibrium.
// The domain border is obstacle, so a fluid cell's neighbours are always inside the grid.
// NX and the kernel's name can be set before this file is included: workloads/lbm004 builds it with
// Parboil's 100-cell rows (NX 100, lbm004_stream_collide).
#ifndef NX
#define NX 128
#endif
#ifndef LBM_KERNEL
#define LBM_KERNEL lbm_stream_collide
#endif
#define Q 19
#define ROWF (Q * NX) /* floats per row */
#define FLUID 0
#define OBSTACLE 1
#define INFLOW 2

// Direction q: (ex, ey, ez). 0 rest; 1..6 faces; 7..18 edges. opposite(q) is q+1 / q-1 in pairs.
#define W0 (1.0f / 3.0f)
#define W1 (1.0f / 18.0f)
#define W2 (1.0f / 36.0f)

extern "C" __global__ void LBM_KERNEL(const float *__restrict__ src, float *__restrict__ dst,
                                              const unsigned char *__restrict__ flag, int ny, float tau0,
                                              float csmag2)
{
    const int x = threadIdx.x;
    const int r = blockIdx.x + ny * blockIdx.y; // row index (y + ny * z)
    const unsigned char kind = flag[r * NX + x];
    const float *s = src + (size_t)r * ROWF + x;
    float *d = dst + (size_t)r * ROWF + x;

    if (kind == OBSTACLE) {
        // bounce-back in place: swap every direction with its opposite
        d[0] = s[0];
#pragma unroll
        for (int q = 1; q < Q; q += 2) {
            float a = s[q * NX], b = s[(q + 1) * NX];
            d[q * NX] = b;
            d[(q + 1) * NX] = a;
        }
        return;
    }

    // pull: f_q comes from the neighbour at cell - e_q (x: +-1 float, y: +-1 row, z: +-ny rows)
    const float *zm = s - (size_t)ny * ROWF, *zp = s + (size_t)ny * ROWF;
#define PULL(base, q, ex, ey) base[(q) * NX - (ex) - (ey) * ROWF]
    float f0 = PULL(s, 0, 0, 0);
    float f1 = PULL(s, 1, 1, 0), f2 = PULL(s, 2, -1, 0);
    float f3 = PULL(s, 3, 0, 1), f4 = PULL(s, 4, 0, -1);
    float f5 = PULL(zm, 5, 0, 0), f6 = PULL(zp, 6, 0, 0);
    float f7 = PULL(s, 7, 1, 1), f8 = PULL(s, 8, -1, -1);
    float f9 = PULL(s, 9, 1, -1), f10 = PULL(s, 10, -1, 1);
    float f11 = PULL(zm, 11, 1, 0), f12 = PULL(zp, 12, -1, 0);
    float f13 = PULL(zp, 13, 1, 0), f14 = PULL(zm, 14, -1, 0);
    float f15 = PULL(zm, 15, 0, 1), f16 = PULL(zp, 16, 0, -1);
    float f17 = PULL(zp, 17, 0, 1), f18 = PULL(zm, 18, 0, -1);
#undef PULL

    float rho = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8 + f9 + f10 + f11 + f12 + f13 + f14 + f15 + f16 +
                f17 + f18;
    const float inv = 1.0f / rho;
    float ux, uy, uz;
    if (kind == INFLOW) {
        ux = 0.0f;
        uy = 0.0f;
        uz = 0.01f;
    } else {
        ux = (f1 - f2 + f7 - f8 + f9 - f10 + f11 - f12 + f13 - f14) * inv;
        uy = (f3 - f4 + f7 - f8 - f9 + f10 + f15 - f16 + f17 - f18) * inv;
        uz = (f5 - f6 + f11 - f12 - f13 + f14 + f15 - f16 - f17 + f18) * inv;
    }
    // Smagorinsky sub-grid model: the non-equilibrium momentum flux Pi - Pi_eq sets a local relaxation time
    const float p3 = rho * (1.0f / 3.0f);
    float nxx = f1 + f2 + f7 + f8 + f9 + f10 + f11 + f12 + f13 + f14 - p3 - rho * ux * ux;
    float nyy = f3 + f4 + f7 + f8 + f9 + f10 + f15 + f16 + f17 + f18 - p3 - rho * uy * uy;
    float nzz = f5 + f6 + f11 + f12 + f13 + f14 + f15 + f16 + f17 + f18 - p3 - rho * uz * uz;
    float nxy = f7 + f8 - f9 - f10 - rho * ux * uy;
    float nxz = f11 + f12 - f13 - f14 - rho * ux * uz;
    float nyz = f15 + f16 - f17 - f18 - rho * uy * uz;
    float qn = sqrtf(2.0f * (nxx * nxx + nyy * nyy + nzz * nzz + 2.0f * (nxy * nxy + nxz * nxz + nyz * nyz)));
    const float omega = 2.0f / (tau0 + sqrtf(tau0 * tau0 + 18.0f * csmag2 * qn * inv));
    const float usq = 1.5f * (ux * ux + uy * uy + uz * uz);
    // relax towards feq = w rho (1 + 3 eu + 4.5 eu^2 - 1.5 u^2)
#define RELAX(q, f, w, eu)                                                                 \
    {                                                                                      \
        float e_ = (eu);                                                                   \
        float feq_ = (w) * rho * (1.0f + 3.0f * e_ + 4.5f * e_ * e_ - usq);                \
        d[(q) * NX] = f + omega * (feq_ - f);                                              \
    }
    RELAX(0, f0, W0, 0.0f);
    RELAX(1, f1, W1, ux);
    RELAX(2, f2, W1, -ux);
    RELAX(3, f3, W1, uy);
    RELAX(4, f4, W1, -uy);
    RELAX(5, f5, W1, uz);
    RELAX(6, f6, W1, -uz);
    RELAX(7, f7, W2, ux + uy);
    RELAX(8, f8, W2, -ux - uy);
    RELAX(9, f9, W2, ux - uy);
    RELAX(10, f10, W2, -ux + uy);
    RELAX(11, f11, W2, ux + uz);
    RELAX(12, f12, W2, -ux - uz);
    RELAX(13, f13, W2, ux - uz);
    RELAX(14, f14, W2, -ux + uz);
    RELAX(15, f15, W2, uy + uz);
    RELAX(16, f16, W2, -uy - uz);
    RELAX(17, f17, W2, uy - uz);
    RELAX(18, f18, W2, -uy + uz);
#undef RELAX
}
