// fdtd3d kernel: 25-point 3D finite-difference stencil (radius 4 along x, y and z) over a volume padded by
// RADIUS on every side.  Each CTA owns a 32 x blockDim.y column of the volume and marches along z: the z
// neighbours live in per-thread registers (a queue of 2 * RADIUS + 1 values), the current xy plane with
// its halo in a __shared__ tile sized for blockDim.y up to MAX_BDY (launched with 32 x 4 = 128 threads).
#define RADIUS 4
#define BDX 32
#define MAX_BDY 16

extern "C" __global__ void fdtd3d_step(float *out, const float *in, const float *coef, int dimx, int dimy,
                                       int dimz)
{
    __shared__ float tile[MAX_BDY + 2 * RADIUS][BDX + 2 * RADIUS];
    int tx = threadIdx.x, ty = threadIdx.y, bdy = blockDim.y;
    int gx = blockIdx.x * BDX + tx, gy = blockIdx.y * bdy + ty;
    int sy = dimx + 2 * RADIUS;                 /* padded row stride */
    size_t sz = (size_t)sy * (dimy + 2 * RADIUS); /* padded plane stride */
    bool row_in = gy < dimy + RADIUS, col_in = gx < dimx + RADIUS; /* within the padded volume */
    bool inside = row_in && col_in;
    bool valid = gx < dimx && gy < dimy;                           /* an output point */
    bool above = ty < RADIUS && col_in;                            /* loads the top halo */
    bool below = ty < RADIUS && col_in && gy + bdy < dimy + RADIUS; /* loads the bottom halo */
    bool left = tx < RADIUS && row_in;                             /* loads the left halo */
    bool right = left && gx + BDX < dimx + RADIUS;                 /* loads the right halo */
    size_t idx = (size_t)(gy + RADIUS) * sy + gx + RADIUS; /* plane z = -RADIUS */
    int lx = tx + RADIUS, ly = ty + RADIUS;

    float c[RADIUS + 1];
    for (int i = 0; i <= RADIUS; i++)
        c[i] = coef[i];
    /* The state one plane before z = 0; each iteration first shifts it by one plane. */
    float behind[RADIUS], infront[RADIUS];
    float current = inside ? in[idx + (RADIUS - 1) * sz] : 0.0f; /* plane -1 */
    behind[RADIUS - 1] = 0.0f;                                   /* shifted out unread */
    for (int i = 0; i < RADIUS - 1; i++)                          /* planes -2 .. -RADIUS */
        behind[i] = inside ? in[idx + (RADIUS - 2 - i) * sz] : 0.0f;
    for (int i = 0; i < RADIUS; i++)                              /* planes 0 .. RADIUS - 1 */
        infront[i] = inside ? in[idx + (RADIUS + i) * sz] : 0.0f;
    idx += RADIUS * sz; /* plane 0 */

    for (int z = 0; z < dimz; z++) {
        for (int i = RADIUS - 1; i > 0; i--)
            behind[i] = behind[i - 1];
        behind[0] = current;
        current = infront[0];
        for (int i = 0; i < RADIUS - 1; i++)
            infront[i] = infront[i + 1];
        infront[RADIUS - 1] = inside ? in[idx + RADIUS * sz] : 0.0f;

        __syncthreads(); /* the previous plane's tile is no longer read */
        if (above)
            tile[ty][lx] = in[idx - RADIUS * sy];
        if (below)
            tile[ly + bdy][lx] = in[idx + bdy * sy];
        if (left)
            tile[ly][tx] = in[idx - RADIUS];
        if (right)
            tile[ly][lx + BDX] = in[idx + BDX];
        if (inside)
            tile[ly][lx] = current;
        __syncthreads();

        float value = c[0] * current;
        for (int i = 1; i <= RADIUS; i++)
            value += c[i] * (infront[i - 1] + behind[i - 1] + tile[ly - i][lx] + tile[ly + i][lx] +
                             tile[ly][lx - i] + tile[ly][lx + i]);
        if (valid)
            out[idx] = value;
        idx += sz;
    }
}
