// cp kernel: Coulombic potential on one plane of a 3D lattice, as Parboil's cp (cenergy): every thread sums
// q / r over all atoms for UNROLLX lattice points spaced BX apart along x (so a warp's points stay
// contiguous), 16x8 threads per CTA, a CTA covering 128x8 points.  Compute-bound: per atom and thread one
// broadcast load (every thread reads the same atom), then UNROLLX reciprocal square roots and multiply-adds
// from registers.  Atoms are float4 (x, y, z, q) in global memory (Parboil keeps them in constant memory;
// the host API has no constant upload).  The result is added to the energy plane, as Parboil accumulates it
// over atom chunks.
#define BX 16
#define BY 8
#define UNROLLX 8

extern "C" __global__ void cp_energy(const float4 *atoms, int natoms, float *energy, int w, float spacing,
                                     float z)
{
    int xi = blockIdx.x * BX * UNROLLX + threadIdx.x;
    int yi = blockIdx.y * BY + threadIdx.y;
    float x = spacing * xi, y = spacing * yi;
    float e[UNROLLX];
#pragma unroll
    for (int u = 0; u < UNROLLX; u++)
        e[u] = 0.0f;
    for (int a = 0; a < natoms; a++) {
        float4 at = atoms[a];
        float dy = y - at.y, dz = z - at.z;
        float dyz2 = dy * dy + dz * dz;
        float dx = x - at.x;
#pragma unroll
        for (int u = 0; u < UNROLLX; u++) {
            e[u] += at.w * rsqrtf(dx * dx + dyz2);
            dx += spacing * BX;
        }
    }
    float *out = energy + (size_t)yi * w + xi;
#pragma unroll
    for (int u = 0; u < UNROLLX; u++)
        out[u * BX] += e[u];
}
