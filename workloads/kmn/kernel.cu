// kmn: the assignment step of k-means as Rodinia's kmeansPoint runs it in the CTA-scheduling paper (KMN):
// 1D CTAs of 256 threads, one point per thread, the points stored point-major (row p holds the point's F
// features, 136 B at F = 34), so a warp's load of feature l touches 32 different lines and every thread
// re-reads its own row once per cluster: the reuse is per thread and lives in the L1 only while few
// warps compete for it (8 warps' rows are about 34 KB). The centroids are read from global memory (the
// host API has no constant upload), the same address across a warp.
extern "C" __global__ void kmn_point(const float *feat, const float *clusters, int *membership, int npoints,
                                     int nfeat, int nclusters)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    const float *x = feat + (size_t)p * nfeat;
    float best = 3.402823466e38f; /* FLT_MAX */
    int idx = 0;
#pragma unroll 1
    for (int c = 0; c < nclusters; c++) {
        const float *m = clusters + c * nfeat;
        float d = 0.0f;
#pragma unroll 1
        for (int l = 0; l < nfeat; l++) {
            float diff = x[l] - m[l];
            d = __fmaf_rn(diff, diff, d);
        }
        if (d < best) {
            best = d;
            idx = c;
        }
    }
    membership[p] = idx;
}
