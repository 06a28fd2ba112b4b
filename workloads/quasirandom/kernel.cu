// quasirandom kernel: Sobol-type low-discrepancy points. Point i of dimension d is the XOR of the direction
// numbers v[d][b] over the set bits b of the Gray code of i, scaled to a float in [0, 1). A 128 x 3 block:
// threadIdx.y picks a group of DG dimensions, and every thread generates points i, i + S, i + 2S, ... of its
// group's dimensions, S = gridDim.x * 128 = 2^log2s. The first point takes the full XOR loop over the Gray
// code's bits (a data-dependent branch per bit); each next one is the previous XOR v[c] XOR v[log2s - 1],
// where c is the lowest zero bit of i at or above bit log2s (the Gray codes of i and i + 2^s differ in
// exactly those two bits). Output is dimension-major: out[d * n + i].
#define DG 6    // dimensions per thread (3 groups: 18 dimensions)
#define BITS 32 // direction numbers per dimension

extern "C" __global__ void quasirandom_gen(float *__restrict__ out, const unsigned *__restrict__ dirs, int n,
                                           int log2s)
{
    const int stride = 1 << log2s;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int dim0 = threadIdx.y * DG;
    const unsigned *v = dirs + dim0 * BITS;
    unsigned r[DG], vs[DG];
    const unsigned g = (unsigned)i ^ ((unsigned)i >> 1);
#pragma unroll
    for (int d = 0; d < DG; d++) {
        r[d] = 0;
        vs[d] = v[d * BITS + log2s - 1];
    }
#pragma unroll 1
    for (int b = 0; b < BITS; b++)
        if (g & (1u << b)) {
#pragma unroll
            for (int d = 0; d < DG; d++)
                r[d] ^= v[d * BITS + b];
        }
    float *o = out + (size_t)dim0 * n;
    for (; i < n; i += stride) {
#pragma unroll
        for (int d = 0; d < DG; d++)
            o[(size_t)d * n + i] = (float)(r[d] >> 8) * (1.0f / 16777216.0f);
        const int c = __ffs(~(i | (stride - 1))) - 1;
#pragma unroll
        for (int d = 0; d < DG; d++)
            r[d] ^= v[d * BITS + c] ^ vs[d];
    }
}
