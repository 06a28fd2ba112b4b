// mum: exact-match lookup of short queries in a suffix trie of a reference sequence, in the shape of
// MUMmerGPU (the GPGPU-Sim benchmark MUM) as the CTA-scheduling paper runs it: 1D CTAs of 256, one query
// per thread.  The CTA first stages its 256 queries (QL bases each, one byte per base, base-major so a
// warp's shared accesses fall in distinct banks: 10,240 B) in shared memory; then every thread walks the
// trie from the root, fetching each node (four child indices, an int4) through the texture cache, until
// its query ends or the next base has no child.  The walk is pointer chasing: each fetch's address comes
// from the previous one, and the threads of a warp diverge as their matches end at different depths.
#define NT 256
#define QL 40 /* bases per query */

extern "C" __global__ void mum_match(cudaTextureObject_t trie, const unsigned char *queries, int *match_len,
                                     int *match_node)
{
    __shared__ unsigned char q[QL][NT];
    const int tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * NT * QL;
    /* coalesced copy: the CTA's queries lie query-major in global memory */
#pragma unroll 1
    for (int i = tid; i < NT * QL; i += NT)
        q[i % QL][i / QL] = queries[base + i];
    __syncthreads();
    int node = 0, len = 0;
#pragma unroll 1
    for (; len < QL; len++) {
        int4 c = tex1Dfetch<int4>(trie, node);
        int b = q[len][tid];
        int next = b == 0 ? c.x : b == 1 ? c.y : b == 2 ? c.z : c.w;
        if (next == 0)
            break;
        node = next;
    }
    const int g = blockIdx.x * NT + tid;
    match_len[g] = len;
    match_node[g] = node;
}
