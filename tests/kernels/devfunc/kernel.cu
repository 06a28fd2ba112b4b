// Tests: non-inlined __device__ functions (2-3 args, return value, nested call) called uniformly and from divergent code.
__device__ __noinline__ int clamp_add(int a, int b)
{
    int s = (a + b) % 100003;              /* keep values bounded: result in [-50001, 50001] */
    if (s > 50001)
        s -= 100003;
    else if (s < -50001)
        s += 100003;
    return s;
}

/* Loop trip count k is data dependent, so the callee itself runs divergent. */
__device__ __noinline__ int mix(int a, int b, int k)
{
    int r = a;
    for (int j = 0; j < k; j++)
        r = clamp_add(r * 3 + j, b ^ j);
    return r;
}

extern "C" __global__ void devfunc(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = in[i];
    int r = mix(x, i, 2);                  /* every thread calls */
    if (x & 1)
        r = mix(r, x, x & 7);              /* only odd-valued threads call */
    else if ((threadIdx.x & 3) == 0)
        r = clamp_add(r, -x);              /* a different subset calls another function */
    out[i] = r;
}
