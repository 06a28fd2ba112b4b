// nqueens kernel: counts the n-queens solutions below host-made prefixes.  The host places queens in the
// first rows (row 0 in the left half only: mirror symmetry) and hands each thread one prefix as its column,
// left-diagonal and right-diagonal bit masks.  The thread runs an iterative depth-first search over the
// remaining `depth` rows (at most MAX_DEPTH) with its stack of masks in __shared__ memory, one column of
// four [level][thread] arrays, counting completions and noting the first one found (the witness).  A
// shared-memory tree reduction gives the block's mirror-weighted total.  The thread then finishes in
// registers: it certifies the witness (no two queens attack), forms its mirror image and writes its outputs.
#define THREADS 64
#define MAX_DEPTH 10
#define NO_WITNESS 0xffffffffffffffffull

extern "C" __global__ void solve_nqueen(const unsigned *pre_cols, const unsigned *pre_ld, const unsigned *pre_rd,
                                        const unsigned long long *pre_board, int nprefix, int n, int depth,
                                        unsigned *counts, unsigned long long *witness,
                                        unsigned long long *mirror, unsigned *certified, unsigned *block_sums)
{
    __shared__ unsigned cols[MAX_DEPTH][THREADS];  /* columns taken at each level */
    __shared__ unsigned ldiag[MAX_DEPTH][THREADS]; /* left diagonals, shifted to the level's row */
    __shared__ unsigned rdiag[MAX_DEPTH][THREADS]; /* right diagonals, shifted to the level's row */
    __shared__ unsigned freec[MAX_DEPTH][THREADS]; /* columns still to try at each level */
    __shared__ unsigned sum[THREADS];              /* per-thread weighted counts, then the reduction */
    int t = threadIdx.x;
    int idx = blockIdx.x * THREADS + t;
    unsigned full = (1u << n) - 1;
    int prows = n - depth;
    unsigned count = 0, weight = 0;
    unsigned long long board = 0, wit = NO_WITNESS;

    if (idx < nprefix) {
        board = pre_board[idx];
        unsigned c0 = (unsigned)(board & 15);
        weight = 2 * c0 + 1 == (unsigned)n ? 1 : 2; /* the middle column of an odd board is its own mirror */
        unsigned c = pre_cols[idx], l = pre_ld[idx], r = pre_rd[idx];
        cols[0][t] = c;
        ldiag[0][t] = l;
        rdiag[0][t] = r;
        freec[0][t] = full & ~(c | l | r);
        int d = 0;
        while (d >= 0) {
            unsigned f = freec[d][t];
            if (f == 0) {
                d--;
                continue;
            }
            unsigned bit = f & (0u - f);
            freec[d][t] = f ^ bit;
            if (d == depth - 1) {
                if (count++ == 0) { /* first completion: read the path back off the stack */
                    unsigned long long w = (unsigned long long)(__ffs(bit) - 1) << (4 * d);
                    for (int k = 0; k < d; k++)
                        w |= (unsigned long long)(__ffs(cols[k + 1][t] ^ cols[k][t]) - 1) << (4 * k);
                    wit = w;
                }
                continue;
            }
            c = cols[d][t] | bit;
            l = (ldiag[d][t] | bit) << 1;
            r = (rdiag[d][t] | bit) >> 1;
            d++;
            cols[d][t] = c;
            ldiag[d][t] = l;
            rdiag[d][t] = r;
            freec[d][t] = full & ~(c | l | r);
        }
    }
    sum[t] = count * weight;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s)
            sum[t] += sum[t + s];
        __syncthreads();
    }
    unsigned block_total = t == 0 ? sum[0] : 0;

    /* From here on registers and global memory only. */
    if (idx < nprefix) {
        unsigned ok = 0;
        unsigned long long mir = NO_WITNESS;
        if (wit != NO_WITNESS) {
            board |= wit << (4 * prows);
            ok = 1;
            mir = 0;
            for (int i = 0; i < n; i++) {
                int ci = (int)((board >> (4 * i)) & 15);
                mir |= (unsigned long long)(n - 1 - ci) << (4 * i);
                for (int j = i + 1; j < n; j++) {
                    int cj = (int)((board >> (4 * j)) & 15);
                    int dc = ci > cj ? ci - cj : cj - ci;
                    if (dc == 0 || dc == j - i)
                        ok = 0;
                }
            }
        } else {
            board = NO_WITNESS;
        }
        counts[idx] = count;
        witness[idx] = board;
        mirror[idx] = mir;
        certified[idx] = ok;
    }
    if (t == 0)
        block_sums[blockIdx.x] = block_total;
}
