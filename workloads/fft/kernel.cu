// fft: radix-2 decimation-in-time complex FFT over several arrays in global memory (SPLASH-2 FFT as
// the DWF thesis runs it): a bit-reversal copy, then one launch per butterfly stage; grid-stride loops,
// twiddles from a table, almost no divergence.
extern "C" __global__ void fft_bitrev(const float2 *in, float2 *out, int log2n, int total)
{
    int stride = gridDim.x * blockDim.x;
    unsigned mask = (1u << log2n) - 1u;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        unsigned pos = (unsigned)i & mask;
        unsigned rev = __brev(pos) >> (32 - log2n);
        out[((unsigned)i & ~mask) | rev] = in[i];
    }
}

/* Stage with half-span 2^s: butterfly b of array a pairs pos and pos + 2^s inside its group. */
extern "C" __global__ void fft_stage(float2 *data, const float2 *tw, int log2n, int s, int nbfly)
{
    int stride = gridDim.x * blockDim.x;
    unsigned half = 1u << s;
    for (int b = blockIdx.x * blockDim.x + threadIdx.x; b < nbfly; b += stride) {
        unsigned a = (unsigned)b >> (log2n - 1);
        unsigned j = (unsigned)b & ((1u << (log2n - 1)) - 1u);
        unsigned pos = j & (half - 1u);
        unsigned i0 = (a << log2n) + ((j >> s) << (s + 1)) + pos;
        float2 w = tw[pos << (log2n - 1 - s)];
        float2 u = data[i0], v = data[i0 + half];
        float2 t = make_float2(v.x * w.x - v.y * w.y, v.x * w.y + v.y * w.x);
        data[i0] = make_float2(u.x + t.x, u.y + t.y);
        data[i0 + half] = make_float2(u.x - t.x, u.y - t.y);
    }
}
