// bitonic: one compare-exchange stage (k, j) of a bitonic sorting network over a large array in global
// memory (the CUDA SDK sort extended past shared memory, as in the DWF thesis); threads whose partner
// index is lower skip, so small j splits warps by even/odd thread index.
extern "C" __global__ void bitonic_step(unsigned *keys, unsigned n, unsigned j, unsigned k)
{
    unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned p = i ^ j;
        if (p > i) {
            unsigned a = keys[i], b = keys[p];
            int up = (i & k) == 0;
            if ((a > b) == up) {
                keys[i] = b;
                keys[p] = a;
            }
        }
    }
}
