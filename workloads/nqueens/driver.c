/* nqueens driver: the host places queens in the first n - depth rows of an n x n board (row 0 in the left
 * half: mirror symmetry), shuffles those prefixes with the seed and gives one to each thread of
 * solve_nqueen; each thread's completion count, first completion (witness), its mirror image and the
 * certification flag, and every block's mirror-weighted total are compared exactly with a CPU search in
 * the same order.  The grand total must also equal the known number of n-queens solutions. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

/* must match kernel.cu */
#define THREADS 64
#define MAX_DEPTH 10
#define NO_WITNESS 0xffffffffffffffffull

typedef struct nq_prefix {
    uint32_t cols, ld, rd;   /* masks at the first searched row */
    uint64_t board;          /* column of row r in nibble r */
} nq_prefix_t;

typedef struct nq_host {
    int n, depth, nprefix, blocks;
    nq_prefix_t *pre;
    uint32_t *cols, *ld, *rd;                  /* inputs, one per thread slot */
    uint64_t *board;
    uint32_t *counts, *cert, *bsum;            /* results */
    uint64_t *wit, *mir;
} nq_host_t;

static const uint32_t known_total[17] = { 0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712,
                                          365596, 2279184, 14772512 };

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "nqueens: %s", msg);
    return SIMT_EINPUT;
}

/* Enumerates the prefixes of `rows` rows; with out == NULL it only counts them. */
static int prefixes(int n, int rows, int row, uint32_t c, uint32_t l, uint32_t r, uint64_t board,
                    nq_prefix_t *out, int k)
{
    if (row == rows) {
        if (out)
            out[k] = (nq_prefix_t){ c, l, r, board };
        return k + 1;
    }
    uint32_t f = ((1u << n) - 1) & ~(c | l | r);
    if (row == 0)
        f &= (1u << ((n + 1) / 2)) - 1;
    for (int col = 0; col < n; col++)
        if (f >> col & 1u) {
            uint32_t b = 1u << col;
            k = prefixes(n, rows, row + 1, c | b, (l | b) << 1, (r | b) >> 1,
                         board | (uint64_t)col << (4 * row), out, k);
        }
    return k;
}

/* CPU search in the kernel's order (lowest free column first); notes the first completion. */
static void search(int n, int left, uint32_t c, uint32_t l, uint32_t r, uint64_t path, int level,
                   uint32_t *count, uint64_t *first)
{
    uint32_t f = ((1u << n) - 1) & ~(c | l | r);
    for (int col = 0; col < n; col++) {
        if (!(f >> col & 1u))
            continue;
        uint64_t p = path | (uint64_t)col << (4 * level);
        if (left == 1) {
            if ((*count)++ == 0)
                *first = p;
        } else {
            uint32_t b = 1u << col;
            search(n, left - 1, c | b, (l | b) << 1, (r | b) >> 1, p, level + 1, count, first);
        }
    }
}

static int check(const nq_host_t *h, simt_wl_result_t *res)
{
    int bad = 0, prows = h->n - h->depth;
    uint64_t total = 0, solved = 0;
    uint32_t *bref = calloc((size_t)h->blocks, sizeof(uint32_t));
    if (!bref)
        return -1;
    for (int i = 0; i < h->blocks * THREADS; i++) {
        if (i >= h->nprefix)
            continue;
        uint32_t cnt = 0;
        uint64_t first = 0, wit = NO_WITNESS, mir = NO_WITNESS;
        search(h->n, h->depth, h->cols[i], h->ld[i], h->rd[i], 0, 0, &cnt, &first);
        if (cnt) {
            wit = h->board[i] | first << (4 * prows);
            mir = 0;
            for (int rw = 0; rw < h->n; rw++)
                mir |= (uint64_t)(h->n - 1 - (int)(wit >> (4 * rw) & 15)) << (4 * rw);
            solved++;
        }
        uint32_t w = 2 * (uint32_t)(h->board[i] & 15) + 1 == (uint32_t)h->n ? 1 : 2;
        bref[i / THREADS] += cnt * w;
        total += (uint64_t)cnt * w;
        if (h->counts[i] != cnt || h->wit[i] != wit || h->mir[i] != mir || h->cert[i] != (cnt ? 1u : 0u))
            bad++;
    }
    uint64_t gpu_total = 0;
    for (int b = 0; b < h->blocks; b++) {
        gpu_total += h->bsum[b];
        if (h->bsum[b] != bref[b])
            bad++;
    }
    free(bref);
    res->passed = bad == 0 && total == known_total[h->n] && gpu_total == total;
    snprintf(res->detail, sizeof res->detail,
             "%d-queens, %d prefix rows, %d prefixes (%llu with a solution) in %d blocks of %d: %llu solutions "
             "(known %u), %d mismatches (exact)",
             h->n, prows, h->nprefix, (unsigned long long)solved, h->blocks, THREADS,
             (unsigned long long)gpu_total, known_total[h->n], bad);
    return 0;
}

static void host_free(nq_host_t *h)
{
    free(h->pre);
    free(h->cols);
    free(h->ld);
    free(h->rd);
    free(h->board);
    free(h->counts);
    free(h->cert);
    free(h->bsum);
    free(h->wit);
    free(h->mir);
}

static int host_alloc(nq_host_t *h, uint32_t seed)
{
    int prows = h->n - h->depth;
    h->nprefix = prefixes(h->n, prows, 0, 0, 0, 0, 0, NULL, 0);
    if (h->blocks == 0)
        h->blocks = (h->nprefix + THREADS - 1) / THREADS;
    if (h->nprefix > h->blocks * THREADS)
        return -1;
    size_t slots = (size_t)h->blocks * THREADS;
    h->pre = malloc((size_t)h->nprefix * sizeof *h->pre);
    h->cols = calloc(slots, sizeof(uint32_t));
    h->ld = calloc(slots, sizeof(uint32_t));
    h->rd = calloc(slots, sizeof(uint32_t));
    h->board = calloc(slots, sizeof(uint64_t));
    h->counts = malloc(slots * sizeof(uint32_t));
    h->cert = malloc(slots * sizeof(uint32_t));
    h->wit = malloc(slots * sizeof(uint64_t));
    h->mir = malloc(slots * sizeof(uint64_t));
    h->bsum = malloc((size_t)h->blocks * sizeof(uint32_t));
    if (!h->pre || !h->cols || !h->ld || !h->rd || !h->board || !h->counts || !h->cert || !h->wit ||
        !h->mir || !h->bsum)
        return -1;
    prefixes(h->n, prows, 0, 0, 0, 0, 0, h->pre, 0);
    for (int i = h->nprefix - 1; i > 0; i--) { /* seeded shuffle of the prefixes over the threads */
        int j = (int)(simt_wl_rand(&seed) % (uint32_t)(i + 1));
        nq_prefix_t tmp = h->pre[i];
        h->pre[i] = h->pre[j];
        h->pre[j] = tmp;
    }
    for (int i = 0; i < h->nprefix; i++) {
        h->cols[i] = h->pre[i].cols;
        h->ld[i] = h->pre[i].ld;
        h->rd[i] = h->pre[i].rd;
        h->board[i] = h->pre[i].board;
    }
    return 0;
}

/* Device buffers: 0 cols, 1 ld, 2 rd, 3 board, 4 counts, 5 witness, 6 mirror, 7 certified, 8 block sums. */
static int device_run(simt_gpu_t *gpu, simt_module_t *mod, nq_host_t *h, simt_devptr_t *d, simt_error_t *err)
{
    size_t slots = (size_t)h->blocks * THREADS, w4 = slots * 4, w8 = slots * 8;
    int rc;
    if ((rc = simt_wl_upload(gpu, h->cols, w4, &d[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, h->ld, w4, &d[1], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, h->rd, w4, &d[2], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, h->board, w8, &d[3], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, w4, &d[4], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, w8, &d[5], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, w8, &d[6], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, w4, &d[7], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, (size_t)h->blocks * 4, &d[8], err)) != SIMT_OK)
        return rc;
    simt_launch_t l = {
        .grid = { (uint32_t)h->blocks, 1, 1 },
        .block = { THREADS, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    int nprefix = h->nprefix, n = h->n, depth = h->depth;
    simt_arg_t args[] = { SIMT_ARG(d[0]), SIMT_ARG(d[1]), SIMT_ARG(d[2]), SIMT_ARG(d[3]),
                          SIMT_ARG(nprefix), SIMT_ARG(n), SIMT_ARG(depth), SIMT_ARG(d[4]),
                          SIMT_ARG(d[5]), SIMT_ARG(d[6]), SIMT_ARG(d[7]), SIMT_ARG(d[8]) };
    if ((rc = simt_launch_kernel(gpu, mod, "solve_nqueen", &l, args, 12, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, h->counts, d[4], w4, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, h->wit, d[5], w8, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, h->mir, d[6], w8, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, h->cert, d[7], w4, err)) != SIMT_OK)
        return rc;
    return simt_memcpy_dtoh(gpu, h->bsum, d[8], (size_t)h->blocks * 4, err);
}

static int run_nqueens(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                       simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 96, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    nq_host_t h;
    memset(&h, 0, sizeof h);
    if (strcmp(size, "small") == 0) {
        h.n = 11;        /* 5 prefix rows: 4,565 prefixes, 72 blocks */
        h.depth = 6;
    } else if (strcmp(size, "paper") == 0) {
        /* 000 Table 4: NQU launches 24,576 threads (384 blocks) and runs 1,282,747 thread instructions, 52 a
         * thread: nearly every thread is idle.  8-queens, 2 prefix rows: 21 prefixes (18 with a solution)
         * in 384 blocks; the 24,555 idle threads run the 62 instructions of the reduction and the exit. */
        h.n = 8;
        h.depth = 6;
        h.blocks = 384;
    } else {
        return fail(err, "param size must be small or paper");
    }
    if (h.depth > MAX_DEPTH)
        return fail(err, "search depth exceeds the kernel's stack");
    simt_devptr_t d[9] = { 0 };
    int rc = SIMT_OK;
    if (host_alloc(&h, (uint32_t)seed_l) != 0)
        rc = fail(err, "host out of memory or more prefixes than threads");
    else if ((rc = device_run(gpu, mod, &h, d, err)) == SIMT_OK && check(&h, res) != 0)
        rc = fail(err, "host out of memory");
    rc = simt_wl_release(gpu, d, 9, rc, err);
    host_free(&h);
    return rc;
}

SIMT_WORKLOAD(nqueens, "n-queens counting, per-thread backtracking stacks in shared memory, block reduction",
              "workloads/nqueens/kernel.ptx", run_nqueens);
