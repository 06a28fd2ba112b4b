// kmeans kernel: the assignment step of k-means (kmeansPoint-like).  A CTA of 576 threads stages the K = 16
// centroids of F = 36 features (576 floats, one per thread) in shared memory; each thread takes one point
// (features stored feature-major, so a warp's loads coalesce), finds the nearest centroid by squared Euclidean
// distance (lowest index on ties) and writes its membership; the CTA then counts the memberships that changed
// with a shared-memory tree reduction and writes that count for the host's convergence test.
#define NT 576 /* threads per CTA */
#define K 16   /* clusters */
#define F 36   /* features per point; K * F == NT */

extern "C" __global__ void kmeans_point(const float *feat, const float *clusters, int *membership,
                                        int *block_delta, int npoints)
{
    __shared__ float cent[K * F];
    __shared__ int changed[NT];
    int tid = threadIdx.x;
    int p = blockIdx.x * NT + tid;

    cent[tid] = clusters[tid];
    __syncthreads();

    int flag = 0;
    if (p < npoints) {
        float best = 3.402823466e38f; /* FLT_MAX */
        int idx = 0;
#pragma unroll 1
        for (int c = 0; c < K; c++) {
            /* the point's features are re-read (L1) per centroid, as kmeansPoint re-fetches them */
            const float *x = feat + p;
            const float *m = cent + c * F;
            float d = 0.0f;
#pragma unroll 4
            for (int f = 0; f < F; f++) {
                float diff = x[(size_t)f * npoints] - m[f];
                d = __fmaf_rn(diff, diff, d);
            }
            if (d < best) {
                best = d;
                idx = c;
            }
        }
        flag = membership[p] != idx;
        membership[p] = idx;
    }

    /* changed-membership count: fold 576 -> 512, then halve */
    changed[tid] = flag;
    __syncthreads();
    if (tid < NT - 512)
        changed[tid] += changed[tid + 512];
    __syncthreads();
#pragma unroll 1
    for (int s = 256; s > 0; s >>= 1) {
        if (tid < s)
            changed[tid] += changed[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        block_delta[blockIdx.x] = changed[0];
}
