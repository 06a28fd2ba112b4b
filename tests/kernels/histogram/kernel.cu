// Tests: 256-bin histograms with atomicAdd: directly in global memory, and privatised in __shared__ then merged.
#define BINS 256

extern "C" __global__ void hist_global(const unsigned char *data, unsigned *hist, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[data[i]], 1u);
}

extern "C" __global__ void hist_shared(const unsigned char *data, unsigned *hist, int n)
{
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned c = local[b];
        if (c != 0)
            atomicAdd(&hist[b], c);
    }
}
