// The vecadd workload's kernel with device printf and assert, to run as
// `simt run vecadd --ptx` (tests/cli_test.sh): the output appears on
// stdout, a failed assert ends the run with exit status 3.
// Compiled with: nvcc -ptx -arch=sm_75 vecadd_printf.cu -o vecadd_printf.ptx
//            and -DFAIL_AT=100 -o vecadd_assert.ptx
#include <cassert>
#include <cstdio>

#ifndef FAIL_AT
#define FAIL_AT (1 << 30)
#endif

extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
        if (i < 2)
            printf("vecadd thread %d of %d\n", i, n);
        assert(i < FAIL_AT);
    }
}
