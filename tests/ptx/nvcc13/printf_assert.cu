// Device printf and assert as nvcc 13 emits them (vprintf, __assertfail).
// Compiled with: nvcc -ptx -arch=sm_75 printf_assert.cu -o printf_assert.ptx
// Tests: tests/ptx/test_nvcc13.c.
#include <cassert>
#include <cstdio>

extern "C" __global__ void printf_k(const int *in)
{
    int t = threadIdx.x;
    int v = in[t];
    if (t % 2 == 0)
        printf("t%d v=%d u=%u x=%x %5.2f [%s] %c %lld %%\n", t, v, (unsigned)v,
               v, v * 0.5, "str", 'a' + t, (long long)v << 33);
    else
        printf("odd %03d %-4d|%e\n", t, v, (double)v);
}

extern "C" __global__ void assert_k(const int *in)
{
    int t = threadIdx.x;
    printf("before %d\n", t);
    assert(in[t] < 100);
}
