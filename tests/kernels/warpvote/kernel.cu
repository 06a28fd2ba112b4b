// Tests: warp shuffles (down/idx/xor) and votes (ballot/any/all/activemask/popc), full warps and a partial last warp.
#define FULL 0xffffffffu
#define NOUT 8

/* Launched with a block size that is a multiple of 32 and an exact grid: all warps full. */
extern "C" __global__ void warp_full(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[i];

    int sum = v;                                   /* shfl.down tree: lane 0 gets the warp sum */
    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_down_sync(FULL, sum, off);
    sum = __shfl_sync(FULL, sum, 0);               /* broadcast lane 0 */

    int src = __shfl_sync(FULL, v, v & 31);        /* data-dependent source lane */

    int mx = v;                                    /* xor butterfly all-reduce max */
    for (int m = 1; m < 32; m <<= 1)
        mx = max(mx, __shfl_xor_sync(FULL, mx, m));

    unsigned ball = __ballot_sync(FULL, v > 0);
    int any = __any_sync(FULL, v % 97 == 0);
    int all = __all_sync(FULL, v > -1000);
    unsigned act = __activemask();

    int *o = out + i * NOUT;
    o[0] = sum;
    o[1] = src;
    o[2] = mx;
    o[3] = (int)ball;
    o[4] = __popc(ball & ((1u << lane) - 1u));     /* rank of this lane among the voters */
    o[5] = any;
    o[6] = all;
    o[7] = (int)act;
}

/* Launched with a block size that is NOT a multiple of 32: the last warp of each block is partial.
 * Every thread of the block runs straight-line code, so the masks come from __activemask(). */
extern "C" __global__ void warp_partial(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[i];
    unsigned mask = __activemask();
    int cnt = __popc(mask);                        /* lanes 0..cnt-1 exist */

    int sum = v;
    for (int off = 16; off > 0; off >>= 1) {
        int t = __shfl_down_sync(mask, sum, off);
        if (lane + off < cnt)                      /* ignore lanes that do not exist */
            sum += t;
    }
    sum = __shfl_sync(mask, sum, 0);

    unsigned ball = __ballot_sync(mask, v & 1);
    int any = __any_sync(mask, v > 900);
    int all = __all_sync(mask, v >= 0);

    int *o = out + i * NOUT;
    o[0] = sum;
    o[1] = (int)mask;
    o[2] = cnt;
    o[3] = (int)ball;
    o[4] = __popc(ball);
    o[5] = any;
    o[6] = all;
    o[7] = __shfl_sync(mask, v, cnt - 1);          /* broadcast from the last existing lane */
}
