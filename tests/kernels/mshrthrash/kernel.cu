// Tests: LCS on a Type III/IV micro-kernel in the style of the paper's Fig. 7(c)
// (reference 004 §2.2): each CTA sweeps its own region of `region` floats
// `iters` times, feeding each value `rounds` times into 8 independent
// recurrences (enough
// independent work that the oldest CTA's warps keep the issue slots busy
// while their data is in the L1, so GTO starves the youngest CTAs); the
// regions of two CTAs fit in the L1 data cache, those of four do not, so
// with every CTA resident the L1 thrashes and the few MSHRs fill.
extern "C" __global__ void mshrthrash(const float *in, float *out, int region, int iters,
                                      int rounds)
{
    const float *base = in + (size_t)blockIdx.x * region;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    float a4 = 0.0f, a5 = 0.0f, a6 = 0.0f, a7 = 0.0f;
    for (int it = 0; it < iters; it++)
        for (int i = threadIdx.x; i < region; i += blockDim.x) {
            float x = base[i];
            for (int r = 0; r < rounds; r++) {
                a0 = a0 * 0.5f + x;
                a1 = a1 * 0.25f + x;
                a2 = a2 * 0.125f + x;
                a3 = a3 * 0.75f + x;
                a4 = a4 * 0.5f - x;
                a5 = a5 * 0.25f - x;
                a6 = a6 * 0.125f - x;
                a7 = a7 * 0.75f - x;
            }
        }
    out[blockIdx.x * blockDim.x + threadIdx.x] =
        a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
