/* nw driver: two seeded residue sequences (24 letters) of length n = 32 * nblk and a seeded symmetric 24x24
 * similarity matrix give the (n+1)^2 similarity matrix sim[i][j] = S[a[i-1]][b[j-1]]; row 0 and column 0 of
 * the score matrix hold -penalty * index.  nw1 runs needle_shared_1 over the nblk upper-left tile
 * anti-diagonals from the borders alone; nw2 starts from a score matrix whose upper-left tiles hold the CPU's
 * scores and runs needle_shared_2 over the nblk - 1 lower-right anti-diagonals.  Every cell is compared exactly
 * with the CPU's dynamic-programming matrix, which the CPU computes up to the last tile anti-diagonal the GPU
 * runs (cells after it must keep their uploaded zeros).
 * At paper size each workload runs one wide tile anti-diagonal (paper_ctas CTAs) of a larger matrix: the CPU's
 * scores of every tile on an earlier anti-diagonal are uploaded, as nw2 does for the upper-left half. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BS 32        /* tile side = threads per CTA (kernel.cu) */
#define LETTERS 24

typedef struct nw_desc {
    const char *name, *kernel;
    int lower;       /* 0: upper-left tiles (needle_shared_1), 1: lower-right tiles (needle_shared_2) */
    int small_nblk, paper_nblk;
    int paper_ctas;  /* paper size: only the one anti-diagonal of this many tiles runs on the GPU */
} nw_desc_t;

/* Paper sizes: 000 Table 4's 3,184 (NW1) and 3,168 (NW2) threads are 16 (bw + 1) and 16 bw with bw = 198: the
 * average threads per launch of Rodinia's launch loops (i = 1..bw and bw-1..1 CTAs of 32) on a 198-tile
 * matrix, and its IPC (25.3) is that of launches wider than the GPU's 14 SMs.  So the paper size runs one
 * launch that wide: 116 CTAs (3,712 threads, +16.6% and +17.2%), which also puts our thread instructions
 * (our kernel runs 1,171 a thread where the paper's runs 1,753) within 25% of the paper's (-22%); 100 CTAs
 * would match the threads and miss the instructions by 33% (docs/workloads.md). */
static const nw_desc_t NW1 = { "nw1", "needle_shared_1", 0, 4, 116, 116 };
static const nw_desc_t NW2 = { "nw2", "needle_shared_2", 1, 4, 117, 116 };

static int fail(simt_error_t *err, const nw_desc_t *d, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "%s: %s", d->name, msg);
    return SIMT_EINPUT;
}

static int imax(int a, int b) { return a > b ? a : b; }

/* The last column of row i >= 1 whose tile lies on an anti-diagonal <= k (0: none): tile row (i - 1) / BS
 * reaches tile column k - (i - 1) / BS.  It never grows with i, so a row's cells up to it depend only on cells
 * of the row above that are up to that row's end. */
static int row_end(int i, int k, int cols)
{
    int t = k - (i - 1) / BS;
    if (t < 0)
        return 0;
    return (t + 1) * BS < cols - 1 ? (t + 1) * BS : cols - 1;
}

/* The CPU's score matrix over the borders and the tiles on anti-diagonals 0..k, the only cells the run
 * uploads or compares (the rest of ref is left unwritten). */
static void reference(const int *sim, int *ref, int cols, int penalty, int k)
{
    for (int i = 0; i < cols; i++) {
        ref[i] = -penalty * i;
        ref[(size_t)i * cols] = -penalty * i;
    }
    for (int i = 1; i < cols; i++) {
        int end = row_end(i, k, cols);
        for (int j = 1; j <= end; j++) {
            size_t c = (size_t)i * cols + j;
            ref[c] = imax(imax(ref[c - cols - 1] + sim[c], ref[c - 1] - penalty), ref[c - cols] - penalty);
        }
    }
}

static int run_nw(const nw_desc_t *d, simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                  simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l, pen_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 1970, 1, 0x7fffffffL, &seed_l, err) != 0 ||
        simt_wl_param_int(params, "penalty", 10, 0, 1000, &pen_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int nblk, k0, k1; /* the GPU runs tile anti-diagonals k0..k1; the CPU's scores fill those before k0 */
    if (strcmp(size, "small") == 0) {
        nblk = d->small_nblk;
        k0 = d->lower ? nblk : 0;
        k1 = d->lower ? 2 * nblk - 2 : nblk - 1;
    } else if (strcmp(size, "paper") == 0) {
        nblk = d->paper_nblk;
        k0 = k1 = d->lower ? 2 * nblk - 1 - d->paper_ctas : d->paper_ctas - 1;
    } else {
        return fail(err, d, "param size must be small or paper");
    }

    int n = nblk * BS, cols = n + 1, penalty = (int)pen_l;
    size_t cells = (size_t)cols * cols, bytes = cells * sizeof(int);
    uint32_t seed = (uint32_t)seed_l;
    int *a = malloc((size_t)n * sizeof(int)), *b = malloc((size_t)n * sizeof(int));
    /* init is uploaded, then holds what the GPU gives back */
    int *sim = calloc(cells, sizeof(int)), *ref = malloc(bytes), *init = calloc(cells, sizeof(int));
    simt_devptr_t dev[2] = { 0 };
    int rc = SIMT_OK;
    if (!a || !b || !sim || !ref || !init) {
        rc = fail(err, d, "host out of memory");
        goto done;
    }
    int S[LETTERS][LETTERS];
    for (int i = 0; i < LETTERS; i++)
        for (int j = 0; j <= i; j++)
            S[i][j] = S[j][i] = i == j ? 4 + (int)(simt_wl_rand(&seed) % 8u) : (int)(simt_wl_rand(&seed) % 8u) - 4;
    for (int i = 0; i < n; i++) {
        a[i] = (int)(simt_wl_rand(&seed) % LETTERS);
        b[i] = (int)(simt_wl_rand(&seed) % LETTERS);
    }
    for (int i = 1; i < cols; i++) {
        const int *row = S[a[i - 1]];
        for (int j = 1; j < cols; j++)
            sim[(size_t)i * cols + j] = row[b[j - 1]];
    }
    reference(sim, ref, cols, penalty, k1);
    /* Upload: the borders, plus the CPU's scores of the tiles before anti-diagonal k0 (nw2: the upper-left half). */
    for (int i = 0; i < cols; i++) {
        init[i] = ref[i];
        init[(size_t)i * cols] = ref[(size_t)i * cols];
    }
    for (int i = 1; i < cols; i++)
        memcpy(init + (size_t)i * cols + 1, ref + (size_t)i * cols + 1, (size_t)row_end(i, k0 - 1, cols) * sizeof(int));
    if ((rc = simt_wl_upload(gpu, sim, bytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, init, bytes, &dev[1], err)) != SIMT_OK)
        goto done;
    int launches = 0, ctas = 0;
    for (int k = k0; k <= k1; k++) {
        int grid = d->lower ? 2 * nblk - 1 - k : k + 1;
        simt_launch_t l = {
            .grid = { (uint32_t)grid, 1, 1 },
            .block = { BS, 1, 1 },
            .dynamic_shared_bytes = 0,
            .stream = 0,
        };
        simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(cols),
                              SIMT_ARG(penalty), SIMT_ARG(k), SIMT_ARG(nblk) };
        if ((rc = simt_launch_kernel(gpu, mod, d->kernel, &l, args, 6, err)) != SIMT_OK ||
            (rc = simt_synchronize(gpu, err)) != SIMT_OK)
            goto done;
        launches++;
        ctas += grid;
    }
    int *out = init; /* tiles after anti-diagonal k1 were uploaded as zeros and must stay so */
    if ((rc = simt_memcpy_dtoh(gpu, out, dev[1], bytes, err)) != SIMT_OK)
        goto done;
    size_t bad = 0, first = 0;
    int first_want = 0;
    for (int i = 0; i < cols; i++) {
        int end = i == 0 ? cols - 1 : row_end(i, k1, cols);
        for (int j = 0; j < cols; j++) {
            size_t c = (size_t)i * cols + j;
            int want = j <= end ? ref[c] : 0;
            if (out[c] != want && bad++ == 0) {
                first = c;
                first_want = want;
            }
        }
    }
    res->passed = bad == 0;
    snprintf(res->detail, sizeof res->detail,
             "%s: %dx%d alignment (penalty %d), %d launch%s of %s, %d CTAs (%d threads), %zu of %zu cells "
             "differ from the CPU matrix (exact)%s",
             d->name, n, n, penalty, launches, launches == 1 ? "" : "es", d->kernel, ctas, ctas * BS, bad, cells, bad ? ", first at" : "");
    if (bad) {
        size_t len = strlen(res->detail);
        snprintf(res->detail + len, sizeof res->detail - len, " (%zu, %zu): %d vs %d", first / cols,
                 first % cols, out[first], first_want);
    }
done:
    rc = simt_wl_release(gpu, dev, 2, rc, err);
    free(a);
    free(b);
    free(sim);
    free(ref);
    free(init);
    return rc;
}

static int run_nw1(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                   simt_error_t *err)
{
    return run_nw(&NW1, gpu, mod, params, res, err);
}

static int run_nw2(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                   simt_error_t *err)
{
    return run_nw(&NW2, gpu, mod, params, res, err);
}

SIMT_WORKLOAD(nw1, "Needleman-Wunsch upper-left tile diagonals, 32 threads, temp 33x33 + ref 32x32 (8452 B)",
              "workloads/nw/kernel.ptx", run_nw1);
SIMT_WORKLOAD(nw2, "Needleman-Wunsch lower-right tile diagonals, 32 threads, temp 33x33 + ref 32x32 (8452 B)",
              "workloads/nw/kernel.ptx", run_nw2);
