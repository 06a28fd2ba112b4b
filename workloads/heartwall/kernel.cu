// heartwall kernel, one block per heart-wall sample point, in the shape of Rodinia heartwall's kernel: the launch
// for frame 0 only builds each point's template (Rodinia's "generate templates based on the first frame only":
// thread 0 records the point's frame-0 location, and the block copies the TR x TR window around the point out of
// the frame into the point's template in global memory, 128 elements a round); the launches for
// later frames track the point by template matching in shared memory.  The paper ran one frame (000 Table 3,
// frame_processed 5 -> 1), so its heartwall executes the frame-0 branch only; our small size runs frames 0 and 1
// so that the tracking is checked too.  Tracking: the block loads the central TS x TS of the point's template and
// the WS x WS search window around it from the new frame into shared memory; warp 0 finds the template's mean and
// norm with shuffles while two more warps build integral images of the window and of its squares (box sums for
// every candidate offset in four reads); then every thread scores up to three of the NO x NO candidate offsets by
// normalized cross-correlation (centred template . window / (|template| |window - its mean|)), a shared tree
// reduction finds the best one, thread 0 refines it to sub-pixel precision with a parabola through the
// correlation surface's neighbours, and the block writes its result record and the whole correlation surface from
// shared memory at the end.  Our own code; the 11x11 tracking template (Rodinia's is the whole 51x51 against an
// 81x81 area) is what fills exactly 000 Table 1's 11,872 B in 8 arrays.
#define NT 128                /* threads per block */
#define TR 51                 /* stored template side (Rodinia's 2 tSize + 1, tSize = 25) */
#define TS 11                 /* tracking template side: the stored template's centre */
#define RAD 8                 /* search radius: offsets -RAD..RAD on each axis */
#define NO (2 * RAD + 1)      /* offsets per axis */
#define WS (TS + 2 * RAD)     /* search window side */
#define NREC 5                /* result record: template mean, 1/|template|, score, y, x */
#define FULL 0xffffffffu

extern "C" __global__ void heartwall_track(int frame_no, const float *frame, int width, const int *point_y,
                                           const int *point_x, float *templates, int *loc, float *record,
                                           float *surface)
{
    __shared__ float tmpl[TS][TS];         // the template, then centred on its mean
    __shared__ float win[WS][WS];          // the search window
    __shared__ float ii[WS + 1][WS + 1];   // integral image of the window
    __shared__ float ii2[WS + 1][WS + 1];  // integral image of the window's squares
    __shared__ float ncc[NO][NO];          // the correlation surface
    __shared__ float best_val[NT];         // argmax reduction: scores
    __shared__ int best_idx[NT];           // argmax reduction: offset indices
    __shared__ float rec[NREC];            // the block's result record
    int t = threadIdx.x, p = blockIdx.x;
    float *tp = templates + p * TR * TR; /* this point's template, row-major */

    if (frame_no == 0) {
        /* the point's location at frame 0, then its template: element e is (row e / TR, column e % TR); the
           point's coordinates are read each round, as Rodinia reads them through its per-point record;
           row-major, our frames' order (Rodinia's frames and templates are column-major: in both, consecutive
           threads copy consecutive pixels) */
        if (t == 0) {
            loc[2 * p] = point_y[p];
            loc[2 * p + 1] = point_x[p];
        }
        for (int e = t; e < TR * TR; e += NT) {
            int row = e / TR, col = e % TR;
            int fy = point_y[p] - TR / 2 + row, fx = point_x[p] - TR / 2 + col;
            tp[row * TR + col] = frame[fy * width + fx];
        }
        return;
    }

    int py = point_y[p], px = point_x[p];
    for (int k = t; k < TS * TS; k += NT)
        tmpl[k / TS][k % TS] = tp[(TR / 2 - TS / 2 + k / TS) * TR + TR / 2 - TS / 2 + k % TS];
    for (int k = t; k < WS * WS; k += NT)
        win[k / WS][k % WS] = frame[(py - WS / 2 + k / WS) * width + px - WS / 2 + k % WS];
    __syncthreads();

    if (t < 32) {
        /* template mean and norm of the centred template */
        float s = 0.0f;
        for (int k = t; k < TS * TS; k += 32)
            s += tmpl[k / TS][k % TS];
        for (int o = 16; o > 0; o >>= 1)
            s += __shfl_xor_sync(FULL, s, o);
        float mean = s * (1.0f / (TS * TS)), s2 = 0.0f;
        for (int k = t; k < TS * TS; k += 32) {
            float d = tmpl[k / TS][k % TS] - mean;
            s2 += d * d;
        }
        for (int o = 16; o > 0; o >>= 1)
            s2 += __shfl_xor_sync(FULL, s2, o);
        if (t == 0) {
            rec[0] = mean;
            rec[1] = s2 > 0.0f ? rsqrtf(s2) : 0.0f;
        }
    } else if (t < 32 + WS + 1) {
        /* row r of both integral images: prefix sums along the window's row r - 1, offset by the window's
           centre pixel (box variances do not change; the sums stay small) */
        int r = t - 32;
        float a = 0.0f, b = 0.0f, shift = win[WS / 2][WS / 2];
        ii[r][0] = 0.0f;
        ii2[r][0] = 0.0f;
        for (int c = 0; c < WS; c++) {
            float v = r > 0 ? win[r - 1][c] - shift : 0.0f;
            a += v;
            b += v * v;
            ii[r][c + 1] = a;
            ii2[r][c + 1] = b;
        }
    }
    __syncthreads();
    if (t < WS + 1) {
        /* column t: prefix sums down the rows */
        for (int r = 1; r <= WS; r++) {
            ii[r][t] += ii[r - 1][t];
            ii2[r][t] += ii2[r - 1][t];
        }
    }
    for (int k = t; k < TS * TS; k += NT)
        tmpl[k / TS][k % TS] -= rec[0];
    __syncthreads();

    float inv_t = rec[1];
    float best = -2.0f;
    int bi = 0;
    for (int k = t; k < NO * NO; k += NT) {
        int oy = k / NO, ox = k % NO;
        float cross = 0.0f;
        for (int i = 0; i < TS; i++)
#pragma unroll
            for (int j = 0; j < TS; j++)
                cross += tmpl[i][j] * win[oy + i][ox + j];
        float s = ii[oy + TS][ox + TS] - ii[oy][ox + TS] - ii[oy + TS][ox] + ii[oy][ox];
        float s2 = ii2[oy + TS][ox + TS] - ii2[oy][ox + TS] - ii2[oy + TS][ox] + ii2[oy][ox];
        float var = s2 - s * s * (1.0f / (TS * TS));
        float score = var > 1e-6f ? cross * inv_t * rsqrtf(var) : 0.0f;
        ncc[oy][ox] = score;
        if (score > best) {
            best = score;
            bi = k;
        }
    }
    best_val[t] = best;
    best_idx[t] = bi;
    __syncthreads();
    for (int s = NT / 2; s > 0; s >>= 1) {
        if (t < s) {
            float v = best_val[t + s];
            int i = best_idx[t + s];
            if (v > best_val[t] || (v == best_val[t] && i < best_idx[t])) {
                best_val[t] = v;
                best_idx[t] = i;
            }
        }
        __syncthreads();
    }

    if (t == 0) {
        /* sub-pixel peak: a parabola through the peak and its two neighbours on each axis */
        int k = best_idx[0], oy = k / NO, ox = k % NO;
        float s0 = best_val[0], fy = 0.0f, fx = 0.0f;
        if (oy > 0 && oy < NO - 1) {
            float a = ncc[oy - 1][ox], b = ncc[oy + 1][ox], den = a - 2.0f * s0 + b;
            if (den < 0.0f)
                fy = fminf(0.5f, fmaxf(-0.5f, 0.5f * (a - b) / den));
        }
        if (ox > 0 && ox < NO - 1) {
            float a = ncc[oy][ox - 1], b = ncc[oy][ox + 1], den = a - 2.0f * s0 + b;
            if (den < 0.0f)
                fx = fminf(0.5f, fmaxf(-0.5f, 0.5f * (a - b) / den));
        }
        rec[2] = s0;
        rec[3] = (float)(py + oy - RAD) + fy;
        rec[4] = (float)(px + ox - RAD) + fx;
    }
    __syncthreads();
    if (t < NREC)
        record[p * NREC + t] = rec[t];
    for (int k = t; k < NO * NO; k += NT)
        surface[p * NO * NO + k] = ncc[k / NO][k % NO];
}
