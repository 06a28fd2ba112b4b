// vadd kernel: f32 vector addition C = A + B, one element per thread, 1D CTAs of 256 threads with a tail
// guard, as the CUDA SDK's vectorAdd.  Streaming: two coalesced loads and one store per thread, no reuse.
extern "C" __global__ void vadd(const float *A, const float *B, float *C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        C[i] = A[i] + B[i];
}
