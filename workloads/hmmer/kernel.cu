// hmmer: profile-HMM Viterbi-like scoring, one sequence per thread (the P7Viterbi inner loop of SPEC
// 456.hmmer as the DWF thesis runs it): data-dependent trip count, residue-class if/else, max-selection,
// table lookups whose addresses depend on each thread's residue, per-thread DP rows (memory divergence).
#define NRES 20        /* residue alphabet; classes: [0,8) hydrophobic, [8,14) polar, [14,20) charged */
#define NTRANS 8       /* per state: MM IM DM MI II MD DD entry */
#define STATE_INTS (2 * NRES + NTRANS) /* one profile state: match emissions, insert emissions, transitions */
#define NEG_INF (-1000000)

/* prof: nstates records of STATE_INTS ints.  info: in, the offset of each sequence then its length;
 * out (in place, to keep register pressure at 40 for 768-thread blocks), the best score then the
 * sequence position where it ends.  dp: {match, insert, delete, unused} per state, one row per thread. */
/* __launch_bounds__(768): every launch uses 768-thread CTAs (as the DWF
 * thesis runs it), and a register file of 32768 (fermi-gtx480) holds one
 * such CTA only at 42 registers or fewer: the bound tells the compiler so
 * (.maxntid), and our pipeline caps the kernel and spills like ptxas. */
extern "C" __global__ void __launch_bounds__(768) hmmer_viterbi(const unsigned char *seq, int *info, const int *prof,
                                         int nstates, int nseq, int4 *dp)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nseq)
        return;
    const unsigned char *q = seq + info[s];
    int len = info[nseq + s];
    int4 *row = dp + (size_t)s * nstates;
    for (int k = 0; k < nstates; k++)
        row[k] = make_int4(NEG_INF, NEG_INF, NEG_INF, 0);
    int best = NEG_INF, best_at = -1, prev_r = 0;
    for (int i = 0; i < len; i++) {        /* data-dependent trip count */
        int r = *q++;
        int diag_m = 0, diag_i = NEG_INF, diag_d = NEG_INF; /* previous row, state k-1 */
        int left_m = NEG_INF, left_d = NEG_INF;              /* this row, state k-1 */
#pragma unroll 1
        for (int k = 0; k < nstates; k++) {
            const int *st = prof + k * STATE_INTS, *t = st + 2 * NRES;
            int4 old = row[k];
            int sc = max(max(diag_m + t[0], diag_i + t[1]), max(diag_d + t[2], t[7]));
            int m = sc + st[r];                       /* divergent address: depends on r */
            if (r < 8) {                              /* hydrophobic */
                if (prev_r < 8)
                    m += t[6] & 3;                    /* run of hydrophobics: small bonus */
                else
                    m -= 1;
            } else if (r < 14) {                      /* polar: half the insert emission */
                m += st[NRES + r] >> 1;
            } else {                                  /* charged: insert emission of the previous residue */
                m += st[NRES + prev_r];
            }
            int ii = max(old.x + t[3], old.y + t[4]) + st[NRES + r];
            int d = max(left_m + t[5], left_d + t[6]);
            if (m > best) {                           /* max-selection: remember where the best hit ends */
                best = m;
                best_at = i;
            }
            row[k] = make_int4(m, ii, d, 0);
            diag_m = old.x;
            diag_i = old.y;
            diag_d = old.z;
            left_m = m;
            left_d = d;
        }
        prev_r = r;
    }
    info[s] = best;
    info[nseq + s] = best_at;
}
