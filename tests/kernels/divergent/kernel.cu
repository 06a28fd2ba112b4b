// Tests: data-dependent divergence: nested if/else, a loop with per-thread trip count and early exits, early return.
extern "C" __global__ void divergent(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    if (v % 7 == 0) {            /* early return for some threads */
        out[i] = -1;
        return;
    }
    int r;
    if (threadIdx.x & 1) {
        if (v > 0)
            r = v * 3;
        else
            r = -v + 11;
    } else {
        if ((v & 3) == 2)
            r = v ^ 0x55;
        else
            r = v - (int)threadIdx.x;
    }
    /* Collatz-style loop: trip count depends on the data; break on a marker value */
    unsigned x = (unsigned)(v & 0x3ff) + 1u;
    int steps = 0;
    while (x != 1u && steps < 200) {
        if (x % 5u == 3u && steps > 4)
            break;                   /* divergent early exit */
        x = (x & 1u) ? 3u * x + 1u : x >> 1;
        steps++;
    }
    out[i] = r + steps * 1000;
}
