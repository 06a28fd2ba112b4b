// Tests: double precision: fma (Horner), division, sqrt, Newton iteration, min/max/abs and int<->double conversion.
extern "C" __global__ void dpmath(const double *x, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double v = x[i];

    /* Horner, fused: p(v) = ((((0.5v - 1.25)v + 2)v - 0.75)v + 3.5 */
    double p = 0.5;
    p = fma(p, v, -1.25);
    p = fma(p, v, 2.0);
    p = fma(p, v, -0.75);
    p = fma(p, v, 3.5);

    /* Newton iteration for the cube root, data-dependent convergence exit */
    double y = v > 1.0 ? v : 1.0;
    int it = 0;
    for (; it < 60; it++) {
        double ny = y - (y * y * y - v) / (3.0 * y * y);
        if (fabs(ny - y) <= 1e-15 * ny) {
            y = ny;
            break;
        }
        y = ny;
    }

    double q = sqrt(v) / (1.0 + v);
    double m = fmax(fmin(p, 10.0), -10.0) + (double)(i % 17) * 0.125;

    double *o = out + 4 * i;
    o[0] = p;
    o[1] = y;
    o[2] = q;
    o[3] = m;
}
