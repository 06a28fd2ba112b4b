// Tests: block sum of ints via a __shared__ tree reduction with __syncthreads() in a loop; one partial per block.
#define MAX_BLOCK 256 /* launch with a power-of-two blockDim.x <= MAX_BLOCK */

extern "C" __global__ void reduce_sum(const int *in, int *partial, int n)
{
    __shared__ int buf[MAX_BLOCK];
    unsigned tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    buf[tid] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) { /* runtime bound: a real loop with a barrier */
        if (tid < s)
            buf[tid] += buf[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = buf[0];
}
