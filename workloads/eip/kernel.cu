// eip: Monte Carlo estimate of pi with points generated inline by each thread, in the shape of the SDK's
// MonteCarloEstimatePiInlineP as the CTA-scheduling paper runs it (EIP, 2 launches): eip_points, 1D CTAs
// of 256, each thread draws `npts` points in the unit square from its own xorwow generator and counts
// those inside the quarter circle, then the CTA sums its counts in shared memory; eip_reduce, one CTA,
// sums the per-CTA counts.  The generator's five state words live in a per-thread array indexed by a
// rotating position (as a curandState lives in local memory), so every draw is two local loads and a
// local store through the L1, whose footprint grows with the resident warps.
#define NT 256

__device__ __forceinline__ unsigned int eip_next(unsigned int *st, int &k, unsigned int &d)
{
    unsigned int t = st[k], s = st[k == 0 ? 4 : k - 1];
    t ^= t >> 2;
    t ^= t << 1;
    t ^= s ^ (s << 4);
    st[k] = t;
    k = k == 4 ? 0 : k + 1;
    d += 362437u;
    return t + d;
}

extern "C" __global__ void eip_points(unsigned int *state, int *cta_hits, int npts, int nthreads)
{
    __shared__ int sum[NT];
    const int tid = threadIdx.x, g = blockIdx.x * NT + tid;
    unsigned int st[5], d = 0;
    for (int j = 0; j < 5; j++)
        st[j] = state[j * nthreads + g];
    int k = 0, hits = 0;
#pragma unroll 1
    for (int p = 0; p < npts; p++) {
        float x = (float)(eip_next(st, k, d) >> 8) * (1.0f / 16777216.0f);
        float y = (float)(eip_next(st, k, d) >> 8) * (1.0f / 16777216.0f);
        hits += __fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y)) <= 1.0f;
    }
    /* save the generator, rotated so that position 0 is the next word to update */
    for (int j = 0; j < 5; j++)
        state[j * nthreads + g] = st[(k + j) % 5];
    sum[tid] = hits;
    __syncthreads();
#pragma unroll 1
    for (int s = NT / 2; s > 0; s >>= 1) {
        if (tid < s)
            sum[tid] += sum[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        cta_hits[blockIdx.x] = sum[0];
}

extern "C" __global__ void eip_reduce(const int *cta_hits, int nctas, unsigned long long *total)
{
    __shared__ unsigned long long sum[NT];
    const int tid = threadIdx.x;
    unsigned long long s = 0;
    for (int i = tid; i < nctas; i += NT)
        s += (unsigned long long)cta_hits[i];
    sum[tid] = s;
    __syncthreads();
#pragma unroll 1
    for (int h = NT / 2; h > 0; h >>= 1) {
        if (tid < h)
            sum[tid] += sum[tid + h];
        __syncthreads();
    }
    if (tid == 0)
        *total = sum[0];
}
