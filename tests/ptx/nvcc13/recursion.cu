// Recursion as nvcc 13 emits it (a call graph with cycles).
// Compiled with: nvcc -ptx -arch=sm_75 recursion.cu -o recursion.ptx
// Tests: tests/ptx/test_nvcc13.c.
__device__ __noinline__ int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ int is_odd(unsigned n);

__device__ __noinline__ int is_even(unsigned n)
{
    int local[4] = { (int)n, 1, 2, 3 };   // a frame in local memory
    return n == 0 ? local[1] : is_odd(n - 1) * local[1];
}

__device__ __noinline__ int is_odd(unsigned n)
{
    return n == 0 ? 0 : is_even(n - 1);
}

__device__ __noinline__ int depth(int n)
{
    volatile int pad[64];                   // 256 bytes of frame per level
    pad[n & 63] = n;
    return n == 0 ? 0 : 1 + depth(n - 1) + pad[n & 63] - n;
}

extern "C" __global__ void recursion_k(int *out, int limit)
{
    int t = threadIdx.x;
    out[3 * t + 0] = fib(t % 12);           // divergent recursion depth
    out[3 * t + 1] = is_even((unsigned)t);
    out[3 * t + 2] = depth(limit);
}
