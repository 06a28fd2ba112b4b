// Addresses in initializers, indirect calls, warpSize (WARP_SZ) and long
// template names, as nvcc 13 emits them.
// Compiled with: nvcc -ptx -arch=sm_75 funcptr.cu -o funcptr.ptx
// Tests: tests/ptx/test_nvcc13.c.
__device__ int table[4] = { 10, 20, 30, 40 };
__device__ int *second = &table[1];             // generic(table)+4
struct rec { int a; int *p; };
__device__ rec r = { 7, &table[3] };            // {7, generic(table)+12}

__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int square(int x) { return x * x; }
__device__ __noinline__ int negate(int x) { return -x; }
typedef int (*op_t)(int);
__device__ op_t ops[3] = { twice, square, negate };

template <typename A, typename B, typename C, int N>
struct Level { A a; B b; C c; };

template <typename T>
__device__ __noinline__ int deep(int x) { return x + (int)sizeof(T); }

typedef Level<Level<Level<int, float, double, 1>, Level<char, short, long, 2>, Level<unsigned, unsigned char, unsigned short, 3>, 4>,
              Level<Level<int, float, double, 5>, Level<char, short, long, 6>, Level<unsigned, unsigned char, unsigned short, 7>, 8>,
              Level<Level<int, float, double, 9>, Level<char, short, long, 10>, Level<unsigned, unsigned char, unsigned short, 11>, 12>, 13> Big;

extern "C" __global__ void funcptr_k(int *out, const int *sel)
{
    int t = threadIdx.x;
    int w = t / warpSize;                      // WARP_SZ
    out[4 * t + 0] = *second + r.p[0] + r.a;   // 20 + 40 + 7
    out[4 * t + 1] = ops[sel[w] % 3](t);       // one function per warp
    out[4 * t + 2] = deep<Big>(t);
    out[4 * t + 3] = warpSize;
}

// Lanes of one warp calling three different functions through a pointer.
extern "C" __global__ void funcptr_div_k(int *out)
{
    int t = threadIdx.x;
    out[t] = ops[(t * 7) % 3](t) + ops[t % 2](1);
}
