// alloca in device code (CUDA 12.1+): PTX alloca with cvta.local.
// Compiled with: nvcc -ptx -arch=sm_75 alloca.cu -o alloca.ptx
// Tests: tests/ptx/test_nvcc13.c.
extern "C" __global__ void alloca_k(int *out, int n)
{
    int *p = (int *)alloca(n * sizeof(int));
    for (int i = 0; i < n; i++)
        p[i] = i * i + (int)threadIdx.x;
    out[threadIdx.x] = p[threadIdx.x % n];
}
