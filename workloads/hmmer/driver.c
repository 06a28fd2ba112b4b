/* hmmer driver: profile-HMM Viterbi-like scoring of random protein sequences, one per thread;
 * best score and the position where it ends checked exactly against the same recurrence on the CPU. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BLOCK 768u     /* the thesis machine's 768 threads per core, one block per core */
#define NRES 20        /* must match kernel.cu */
#define NTRANS 8
#define STATE_INTS (2 * NRES + NTRANS)
#define NEG_INF (-1000000)
#define MIN_LEN 5
#define MAX_LEN 60

typedef struct hmm_input {
    int nseq, nstates;
    unsigned char *seq;
    int *info;  /* offset of each sequence, then its length */
    int *prof;  /* nstates records of STATE_INTS ints */
} hmm_input_t;

static int rng_range(uint32_t *s, int lo, int hi) /* uniform in [lo, hi] */
{
    return lo + (int)(simt_wl_rand(s) % (uint32_t)(hi - lo + 1));
}

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "hmmer: %s", msg);
    return SIMT_EINPUT;
}

static void free_input(hmm_input_t *in)
{
    free(in->seq);
    free(in->info);
    free(in->prof);
}

static void fill(int *v, int n, uint32_t *seed, int lo, int hi)
{
    for (int i = 0; i < n; i++)
        v[i] = rng_range(seed, lo, hi);
}

/* Random profile and sequences; returns 0, or -1 when out of host memory. */
static int make_input(hmm_input_t *in, uint32_t seed)
{
    int n = in->nseq, m = in->nstates;
    in->info = malloc(2 * (size_t)n * sizeof(int));
    in->seq = malloc((size_t)n * MAX_LEN);
    in->prof = malloc((size_t)m * STATE_INTS * sizeof(int));
    if (!in->info || !in->seq || !in->prof)
        return -1;
    int pos = 0;
    for (int s = 0; s < n; s++) {
        in->info[s] = pos;
        in->info[n + s] = rng_range(&seed, MIN_LEN, MAX_LEN);
        for (int i = 0; i < in->info[n + s]; i++)
            in->seq[pos++] = (unsigned char)rng_range(&seed, 0, NRES - 1);
    }
    for (int k = 0; k < m; k++) {
        int *st = in->prof + k * STATE_INTS;
        fill(st, NRES, &seed, -4, 6);                 /* match emissions */
        fill(st + NRES, NRES, &seed, -3, 3);          /* insert emissions */
        fill(st + 2 * NRES, NTRANS - 1, &seed, -8, -1);
        st[STATE_INTS - 1] = rng_range(&seed, -6, -2); /* entry */
    }
    return 0;
}

static int imax(int a, int b)
{
    return a > b ? a : b;
}

/* CPU reference for sequence s: the kernel's recurrence; rows are caller scratch of nstates ints. */
static void ref_score(const hmm_input_t *in, int s, int *mr, int *ir, int *dr, int *score, int *hit)
{
    const unsigned char *q = in->seq + in->info[s];
    int m_n = in->nstates, best = NEG_INF, best_at = -1, prev_r = 0;
    for (int k = 0; k < m_n; k++)
        mr[k] = ir[k] = dr[k] = NEG_INF;
    for (int i = 0; i < in->info[in->nseq + s]; i++) {
        int r = q[i];
        int diag_m = 0, diag_i = NEG_INF, diag_d = NEG_INF, left_m = NEG_INF, left_d = NEG_INF;
        for (int k = 0; k < m_n; k++) {
            const int *st = in->prof + k * STATE_INTS, *t = st + 2 * NRES;
            int om = mr[k], oi = ir[k], od = dr[k];
            int sc = imax(imax(diag_m + t[0], diag_i + t[1]), imax(diag_d + t[2], t[7]));
            int m = sc + st[r];
            if (r < 8)
                m += prev_r < 8 ? (t[6] & 3) : -1;
            else if (r < 14)
                m += st[NRES + r] >> 1;
            else
                m += st[NRES + prev_r];
            int ii = imax(om + t[3], oi + t[4]) + st[NRES + r];
            int d = imax(left_m + t[5], left_d + t[6]);
            if (m > best) {
                best = m;
                best_at = i;
            }
            mr[k] = m;
            ir[k] = ii;
            dr[k] = d;
            diag_m = om;
            diag_i = oi;
            diag_d = od;
            left_m = m;
            left_d = d;
        }
        prev_r = r;
    }
    *score = best;
    *hit = best_at;
}

/* Compares every sequence's score and hit position; fills res. */
static void check(const hmm_input_t *in, const int *score, const int *hit, int *rows,
                  simt_wl_result_t *res)
{
    int bad = -1, rs = 0, rh = 0;
    long long total = 0;
    for (int s = 0; s < in->nseq && bad < 0; s++) {
        ref_score(in, s, rows, rows + in->nstates, rows + 2 * in->nstates, &rs, &rh);
        total += rs;
        if (score[s] != rs || hit[s] != rh)
            bad = s;
    }
    res->passed = bad < 0;
    if (res->passed)
        snprintf(res->detail, sizeof res->detail,
                 "%d sequences (len %d..%d) x %d states, score sum %lld, all scores and hits exact",
                 in->nseq, MIN_LEN, MAX_LEN, in->nstates, total);
    else
        snprintf(res->detail, sizeof res->detail,
                 "sequence %d: score %d hit %d, expected %d hit %d", bad, score[bad], hit[bad], rs, rh);
}

static int launch(simt_gpu_t *gpu, simt_module_t *mod, const hmm_input_t *in,
                  const simt_devptr_t *dev, simt_error_t *err)
{
    simt_launch_t l = {
        .grid = { ((uint32_t)in->nseq + BLOCK - 1) / BLOCK, 1, 1 },
        .block = { BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(in->nstates),
                          SIMT_ARG(in->nseq), SIMT_ARG(dev[3]) };
    int rc = simt_launch_kernel(gpu, mod, "hmmer_viterbi", &l, args, 6, err);
    return rc != SIMT_OK ? rc : simt_synchronize(gpu, err);
}

/* dev: sequences, info (overwritten with the results), profile, DP rows (int4 per state and sequence). */
static int upload_all(simt_gpu_t *gpu, const hmm_input_t *in, simt_devptr_t *dev, simt_error_t *err)
{
    size_t n = (size_t)in->nseq;
    size_t prof = (size_t)in->nstates * STATE_INTS * sizeof(int);
    int rc;
    if ((rc = simt_wl_upload(gpu, in->seq, (size_t)(in->info[n - 1] + in->info[2 * n - 1]), &dev[0], err)) ||
        (rc = simt_wl_upload(gpu, in->info, 2 * n * sizeof(int), &dev[1], err)) ||
        (rc = simt_wl_upload(gpu, in->prof, prof, &dev[2], err)))
        return rc;
    return simt_malloc(gpu, (size_t)in->nstates * n * 4 * sizeof(int), &dev[3], err);
}

static int run_hmmer(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                     simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 456, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    hmm_input_t in = { 0 };
    if (strcmp(size, "small") == 0) {
        in.nseq = 3 * (int)BLOCK;
        in.nstates = 12;
    } else if (strcmp(size, "paper") == 0) {
        in.nseq = 16 * (int)BLOCK; /* 12,288 threads, one block per core */
        in.nstates = 24;
    } else {
        return fail(err, "param size must be small or paper");
    }
    simt_devptr_t dev[4] = { 0 };
    int *out = malloc(2 * (size_t)in.nseq * sizeof(int));
    int *rows = malloc(3 * (size_t)in.nstates * sizeof(int));
    int rc = SIMT_OK;
    if (!out || !rows || make_input(&in, (uint32_t)seed_l) != 0) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    if ((rc = upload_all(gpu, &in, dev, err)) != SIMT_OK ||
        (rc = launch(gpu, mod, &in, dev, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, out, dev[1], 2 * (size_t)in.nseq * sizeof(int), err)) != SIMT_OK)
        goto done;
    check(&in, out, out + in.nseq, rows, res);
done:
    rc = simt_wl_release(gpu, dev, 4, rc, err);
    free_input(&in);
    free(out);
    free(rows);
    return rc;
}

SIMT_WORKLOAD(hmmer, "profile-HMM Viterbi scoring, one sequence per thread (DWF HMMer)",
              "workloads/hmmer/kernel.ptx", run_hmmer);
