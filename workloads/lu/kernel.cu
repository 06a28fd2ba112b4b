// lu: each thread LU-factors its own dense 16x16 block in place with partial pivoting (the per-block
// factorisation of SPLASH-2 blocked LU, one block per thread as in the DWF thesis): pivot choices,
// row swaps, zero-multiplier skips and singular columns make warps diverge.
#define B 16

extern "C" __global__ void lu_factor(float *mats, int *perm, int nmat)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nmat)
        return;
    float *a = mats + (size_t)t * B * B;
    int *pv = perm + (size_t)t * B;
    for (int i = 0; i < B; i++)
        pv[i] = i;
    for (int k = 0; k < B; k++) {
        int p = k;
        float best = fabsf(a[k * B + k]);
        for (int i = k + 1; i < B; i++) {
            float v = fabsf(a[i * B + k]);
            if (v > best) {
                best = v;
                p = i;
            }
        }
        if (p != k) {                         /* divergent: each thread's own pivot row */
            for (int c = 0; c < B; c++) {
                float tmp = a[k * B + c];
                a[k * B + c] = a[p * B + c];
                a[p * B + c] = tmp;
            }
            int tp = pv[k];
            pv[k] = pv[p];
            pv[p] = tp;
        }
        float piv = a[k * B + k];
        if (piv == 0.0f)                      /* singular column: nothing to eliminate */
            continue;
        float inv = 1.0f / piv;
        for (int i = k + 1; i < B; i++) {
            float l = a[i * B + k] * inv;
            a[i * B + k] = l;
            if (l != 0.0f) {                  /* skip rows that are already zero in this column */
                for (int c = k + 1; c < B; c++)
                    a[i * B + c] -= l * a[k * B + c];
            }
        }
    }
}
