/* btree driver: builds a b+tree (512 key slots per node, nodes half to fully filled) over seeded sorted
 * distinct keys, runs one range query per 512-thread block and checks each query's first record and
 * length exactly against a CPU binary search over the sorted keys. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define FAN 512                 /* must match kernel.cu */
#define NODE_INTS (1 + 2 * FAN) /* struct knode: count, keys[FAN], child[FAN] */
#define RANGE 3000              /* query widths up to this many key units, like Rodinia's "j 6000 3000" */

typedef struct tree {
    int *nodes;   /* nnodes * NODE_INTS */
    int nnodes, cap, height, root;
} tree_t;

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "btree: %s", msg);
    return SIMT_EINPUT;
}

/* Random fill between FAN/2 and FAN, capped at what is left. */
static int fill(uint32_t *seed, int left)
{
    int f = FAN / 2 + (int)(simt_wl_rand(seed) % (FAN / 2 + 1));
    return f < left ? f : left;
}

/* Appends nodes over `n` (key, child) pairs; returns how many, with each node's min key and index in
 * keys/child (reused as the next level's input). */
static int build_level(tree_t *tr, int *keys, int *child, int n, uint32_t *seed)
{
    int made = 0;
    for (int i = 0; i < n;) {
        int f = fill(seed, n - i), id = tr->nnodes++;
        int *nd = tr->nodes + (size_t)id * NODE_INTS;
        nd[0] = f;
        memcpy(nd + 1, keys + i, (size_t)f * sizeof(int));
        memcpy(nd + 1 + FAN, child + i, (size_t)f * sizeof(int));
        keys[made] = keys[i];
        child[made++] = id;
        i += f;
    }
    return made;
}

/* Leaves hold (key, record index); internal levels are built until one root remains. */
static int build_tree(tree_t *tr, const int *sorted, int n, uint32_t seed)
{
    int *keys = malloc((size_t)n * sizeof(int)), *child = malloc((size_t)n * sizeof(int));
    tr->cap = 2 * (n / (FAN / 2) + 1) + 2;
    tr->nodes = calloc((size_t)tr->cap * NODE_INTS, sizeof(int));
    if (!keys || !child || !tr->nodes) {
        free(keys);
        free(child);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        keys[i] = sorted[i];
        child[i] = i;
    }
    int level = build_level(tr, keys, child, n, &seed);
    tr->height = 0;
    while (level > 1) {
        level = build_level(tr, keys, child, level, &seed);
        tr->height++;
    }
    tr->root = child[0];
    free(keys);
    free(child);
    return 0;
}

/* First index whose key is >= k (strict: > k). */
static int cpu_bound(const int *sorted, int n, int k, int strict)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strict ? sorted[mid] <= k : sorted[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void check(const int *sorted, int n, const int *range, const int *result, int nq, const tree_t *tr,
                  simt_wl_result_t *res)
{
    int bad = -1, exp_start = 0, exp_len = 0;
    long total = 0;
    for (int q = 0; q < nq && bad < 0; q++) {
        exp_start = cpu_bound(sorted, n, range[2 * q], 0);
        exp_len = cpu_bound(sorted, n, range[2 * q + 1], 1) - exp_start;
        total += exp_len;
        if (result[2 * q] != exp_start || result[2 * q + 1] != exp_len)
            bad = q;
    }
    res->passed = bad < 0;
    if (res->passed)
        snprintf(res->detail, sizeof res->detail,
                 "%d keys, %d nodes, %d internal levels, %d range queries (%ld records), all exact", n,
                 tr->nnodes, tr->height, nq, total);
    else
        snprintf(res->detail, sizeof res->detail,
                 "query %d [%d, %d]: start %d len %d, expected %d len %d", bad, range[2 * bad],
                 range[2 * bad + 1], result[2 * bad], result[2 * bad + 1], exp_start, exp_len);
}

/* Sorted distinct keys with gaps 2..17 (so key + 1 is never a key), and queries whose ends overhang the key range a little. */
static void make_inputs(int *sorted, int n, int *range, int nq, uint32_t *seed)
{
    sorted[0] = 1000;
    for (int i = 1; i < n; i++)
        sorted[i] = sorted[i - 1] + 2 + (int)(simt_wl_rand(seed) % 16u);
    uint32_t span = (uint32_t)(sorted[n - 1] - sorted[0]) + 2 * RANGE;
    for (int q = 0; q < nq; q++) {
        range[2 * q] = sorted[0] - RANGE + (int)(simt_wl_rand(seed) % span);
        range[2 * q + 1] = range[2 * q] + (int)(simt_wl_rand(seed) % RANGE);
    }
}

/* The first four queries hit the edge cases: wholly below the keys, wholly above, and a range start and
 * a range end just past the last key of the first leaf (the "next leaf's first record" path). */
static void set_edge_queries(int *range, const int *sorted, int n, const tree_t *tr)
{
    int last = sorted[tr->nodes[0] - 1]; /* node 0 is the first leaf */
    int edges[8] = { sorted[0] - RANGE, sorted[0] - 1, sorted[n - 1] + 1, sorted[n - 1] + RANGE,
                     last + 1, last + 1 + RANGE / 2, last - RANGE / 2, last + 1 };
    memcpy(range, edges, sizeof edges);
}

static int launch(simt_gpu_t *gpu, simt_module_t *mod, const tree_t *tr, int nq, const simt_devptr_t *dev,
                  simt_error_t *err)
{
    simt_launch_t l = {
        .grid = { (uint32_t)nq, 1, 1 },
        .block = { FAN, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(tr->nnodes), SIMT_ARG(tr->height),
                          SIMT_ARG(dev[1]), SIMT_ARG(dev[2]) };
    int rc = simt_launch_kernel(gpu, mod, "btree_find_range", &l, args, 5, err);
    return rc != SIMT_OK ? rc : simt_synchronize(gpu, err);
}

static int run_btree(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                     simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 508, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int n, nq;
    if (strcmp(size, "small") == 0) {
        n = 200000;          /* 2 internal levels */
        nq = 24;
    } else if (strcmp(size, "paper") == 0) {
        n = 1000000;         /* Rodinia's mil.txt size and its 6000 findRangeK queries */
        nq = 6000;
    } else {
        return fail(err, "param size must be small or paper");
    }
    uint32_t seed = (uint32_t)seed_l;
    tree_t tr = { NULL, 0, 0, 0, 0 };
    int *sorted = malloc((size_t)n * sizeof(int)), *range = malloc((size_t)nq * 2 * sizeof(int));
    int *cursor = malloc((size_t)nq * 2 * sizeof(int)); /* the root twice in, (start, length) out */
    simt_devptr_t dev[3] = { 0 };
    int rc = SIMT_OK;
    if (!sorted || !range || !cursor) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    make_inputs(sorted, n, range, nq, &seed);
    if (build_tree(&tr, sorted, n, seed) != 0) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    set_edge_queries(range, sorted, n, &tr);
    for (int i = 0; i < 2 * nq; i++)
        cursor[i] = tr.root;
    size_t qbytes = (size_t)nq * 2 * sizeof(int);
    if ((rc = simt_wl_upload(gpu, tr.nodes, (size_t)tr.nnodes * NODE_INTS * sizeof(int), &dev[0], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, range, qbytes, &dev[1], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, cursor, qbytes, &dev[2], err)) != SIMT_OK ||
        (rc = launch(gpu, mod, &tr, nq, dev, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, cursor, dev[2], qbytes, err)) != SIMT_OK)
        goto done;
    check(sorted, n, range, cursor, nq, &tr, res);
done:
    rc = simt_wl_release(gpu, dev, 3, rc, err);
    free(tr.nodes);
    free(sorted);
    free(range);
    free(cursor);
    return rc;
}

SIMT_WORKLOAD(btree, "b+tree range queries, one 512-thread block per query (findRangeK)",
              "workloads/btree/kernel.ptx", run_btree);
