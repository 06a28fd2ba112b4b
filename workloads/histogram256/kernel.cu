// histogram256 kernel: a 384-bin histogram of 12-bit samples (bin = sample * 384 / 4096), four 16-bit samples
// per 8-byte load.  Each of the block's six warps counts into its own sub-histogram in __shared__ memory with
// shared atomics (fewer collisions than one block-wide histogram); after the whole grid-stride pass the block
// merges the six sub-histograms bin by bin and writes its partial histogram, so shared memory is in use from
// the first instruction to the last store.
#define BINS 384
#define WARPS 6
#define NT (WARPS * 32)

__device__ __forceinline__ unsigned bin_of(unsigned sample)
{
    return ((sample & 0xfffu) * BINS) >> 12;
}

extern "C" __global__ void histogram256_kernel(const uint2 *data, int nquads, unsigned *partial)
{
    __shared__ unsigned hist[WARPS * BINS];
    int t = threadIdx.x;
    for (int i = t; i < WARPS * BINS; i += NT)
        hist[i] = 0;
    __syncthreads();

    unsigned *mine = hist + (t >> 5) * BINS;
    for (int i = blockIdx.x * NT + t; i < nquads; i += gridDim.x * NT) {
        uint2 q = data[i];
        atomicAdd(&mine[bin_of(q.x)], 1u);
        atomicAdd(&mine[bin_of(q.x >> 16)], 1u);
        atomicAdd(&mine[bin_of(q.y)], 1u);
        atomicAdd(&mine[bin_of(q.y >> 16)], 1u);
    }
    __syncthreads();

    for (int b = t; b < BINS; b += NT) {
        unsigned s = 0;
        for (int w = 0; w < WARPS; w++)
            s += hist[w * BINS + b];
        partial[blockIdx.x * BINS + b] = s;
    }
}
