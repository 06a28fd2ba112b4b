// hotspot kernel: transient thermal simulation of a chip floorplan on a rows x cols grid of cells. Each cell
// follows dT/dt = (P + (T_N + T_S - 2T) / Ry + (T_E + T_W - 2T) / Rx + (T_amb - T) / Rz) / C, integrated with
// explicit Euler steps, where P is the cell's dynamic power plus a leakage term leak0 * exp(beta (T - T_amb))
// that grows with temperature; the kernel also keeps each cell's running peak temperature (peak[], in/out).
// One launch advances `steps` time steps as a pyramid: a 16 x 16 block loads a 16 x 16 window of
// temperature and power (its (16 - 2 steps)^2 output tile plus a halo of `steps` cells on each side) into
// shared memory, and every step shrinks the region that still holds valid values by one cell per side, so
// only the output tile is right after the last step. Outside the chip a neighbour is the cell itself
// (insulated border): the border branches clamp the neighbour indices to the window's valid part. A block
// reads the peaks of its halo cells but writes only its output tile's, so blocks never race on peak[].
#define BS 16

extern "C" __global__ void hotspot_calc_temp(const float *__restrict__ power, const float *__restrict__ temp_in,
                                             float *__restrict__ temp_out, float *__restrict__ peak, int cols,
                                             int rows, int steps, float step_div_cap, float rx_inv, float ry_inv,
                                             float rz_inv, float amb, float leak0, float leak_beta)
{
    __shared__ float t_cur[BS][BS];
    __shared__ float p_win[BS][BS];
    __shared__ float t_next[BS][BS];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int out_tile = BS - 2 * steps;
    // window origin on the chip (may be negative: the halo hangs over the border)
    const int x0 = blockIdx.x * out_tile - steps, y0 = blockIdx.y * out_tile - steps;
    const int gx = x0 + tx, gy = y0 + ty;

    // the part of the window that lies on the chip: [vx0, vx1] x [vy0, vy1] in window coordinates
    const int vx0 = x0 < 0 ? -x0 : 0, vy0 = y0 < 0 ? -y0 : 0;
    const int vx1 = x0 + BS - 1 >= cols ? cols - 1 - x0 : BS - 1;
    const int vy1 = y0 + BS - 1 >= rows ? rows - 1 - y0 : BS - 1;

    const bool on_chip = gx >= 0 && gx < cols && gy >= 0 && gy < rows;
    float t_max = 0.0f;
    if (on_chip) {
        t_cur[ty][tx] = temp_in[gy * cols + gx];
        p_win[ty][tx] = power[gy * cols + gx];
        t_max = peak[gy * cols + gx];
    }
    __syncthreads();

    // neighbour indices, clamped to the chip (an edge cell is its own neighbour)
    const int n = ty - 1 < vy0 ? vy0 : ty - 1;
    const int s = ty + 1 > vy1 ? vy1 : ty + 1;
    const int w = tx - 1 < vx0 ? vx0 : tx - 1;
    const int e = tx + 1 > vx1 ? vx1 : tx + 1;

    bool computed = false;
    float hottest = t_max; // running maximum of this cell's temperature, carried over from earlier launches
    for (int i = 0; i < steps; i++) {
        computed = false;
        // valid after step i: one more cell per side is stale
        if (tx >= i + 1 && tx <= BS - 2 - i && ty >= i + 1 && ty <= BS - 2 - i && tx >= vx0 && tx <= vx1 &&
            ty >= vy0 && ty <= vy1) {
            computed = true;
            const float t = t_cur[ty][tx];
            // dynamic power plus temperature-dependent leakage
            const float p = p_win[ty][tx] + leak0 * __expf(leak_beta * (t - amb));
            const float tn = t + step_div_cap * (p + (t_cur[s][tx] + t_cur[n][tx] - 2.0f * t) * ry_inv +
                                                 (t_cur[ty][e] + t_cur[ty][w] - 2.0f * t) * rx_inv +
                                                 (amb - t) * rz_inv);
            t_next[ty][tx] = tn;
            hottest = fmaxf(hottest, tn);
        }
        __syncthreads();
        if (i == steps - 1)
            break;
        if (computed)
            t_cur[ty][tx] = t_next[ty][tx];
        __syncthreads();
    }
    // only the output tile is valid after the last step
    if (computed && tx >= steps && tx < BS - steps && ty >= steps && ty < BS - steps) {
        temp_out[gy * cols + gx] = t_next[ty][tx];
        peak[gy * cols + gx] = hottest;
    }
}
