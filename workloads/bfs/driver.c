/* bfs driver: a seeded random connected undirected graph in CSR form, searched level by level from node 0
 * by relaunching bfs_expand + bfs_commit until no node changes; the costs must equal a CPU queue BFS exactly. */
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define BLOCK 512u
#define EXTRA_EDGES_PER_NODE 2 /* plus one tree edge per node: average degree about 6, like graph1MW_6 */

typedef struct graph {
    int n, m;          /* nodes, directed adjacency entries */
    int *row_start;    /* n + 1 */
    int *adj;          /* m */
} graph_t;

static int fail(simt_error_t *err, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "bfs: %s", msg);
    return SIMT_EINPUT;
}

static void free_graph(graph_t *g)
{
    free(g->row_start);
    free(g->adj);
}

/* Node v > 0 links to a random earlier node (so the graph is connected), plus random extra edges. */
static int make_graph(graph_t *g, int n, uint32_t seed)
{
    int edges = (n - 1) + EXTRA_EDGES_PER_NODE * n;
    int *src = malloc((size_t)edges * sizeof(int)), *dst = malloc((size_t)edges * sizeof(int));
    g->n = n;
    g->m = 2 * edges;
    g->row_start = calloc((size_t)n + 1, sizeof(int));
    g->adj = malloc((size_t)g->m * sizeof(int));
    if (!src || !dst || !g->row_start || !g->adj) {
        free(src);
        free(dst);
        return -1;
    }
    for (int e = 0; e < edges; e++) {
        int v = e < n - 1 ? e + 1 : (int)(simt_wl_rand(&seed) % (uint32_t)n);
        int u = e < n - 1 ? (int)(simt_wl_rand(&seed) % (uint32_t)v)
                          : (int)(simt_wl_rand(&seed) % (uint32_t)n);
        src[e] = u;
        dst[e] = v;
        g->row_start[u + 1]++;
        g->row_start[v + 1]++;
    }
    for (int v = 0; v < n; v++)
        g->row_start[v + 1] += g->row_start[v];
    int *fill = malloc((size_t)n * sizeof(int));
    if (!fill) {
        free(src);
        free(dst);
        return -1;
    }
    memcpy(fill, g->row_start, (size_t)n * sizeof(int));
    for (int e = 0; e < edges; e++) {
        g->adj[fill[src[e]]++] = dst[e];
        g->adj[fill[dst[e]]++] = src[e];
    }
    free(fill);
    free(src);
    free(dst);
    return 0;
}

/* CPU reference: queue BFS from node 0; returns the number of levels, or -1 when out of memory. */
static int cpu_bfs(const graph_t *g, int *cost)
{
    int *queue = malloc((size_t)g->n * sizeof(int));
    int head = 0, tail = 0, depth = 0;
    if (!queue)
        return -1;
    for (int v = 0; v < g->n; v++)
        cost[v] = -1;
    cost[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int v = queue[head++];
        for (int e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
            int w = g->adj[e];
            if (cost[w] < 0) {
                cost[w] = cost[v] + 1;
                depth = cost[w] > depth ? cost[w] : depth;
                queue[tail++] = w;
            }
        }
    }
    free(queue);
    return depth + 1;
}

/* dev: row_start, adj, frontier, updating, visited, cost, changed. */
enum { D_ROW, D_ADJ, D_FRONT, D_UPD, D_VIS, D_COST, D_CHG, D_COUNT };

static int upload(simt_gpu_t *gpu, const graph_t *g, int *cost, simt_devptr_t *dev, simt_error_t *err)
{
    size_t n = (size_t)g->n;
    unsigned char one = 1;
    int rc;
    for (size_t v = 0; v < n; v++)
        cost[v] = v == 0 ? 0 : -1;
    if ((rc = simt_wl_upload(gpu, g->row_start, (n + 1) * sizeof(int), &dev[D_ROW], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, g->adj, (size_t)g->m * sizeof(int), &dev[D_ADJ], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, cost, n * sizeof(int), &dev[D_COST], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, sizeof(int), &dev[D_CHG], err)) != SIMT_OK)
        return rc;
    for (int k = D_FRONT; k <= D_VIS; k++)
        if ((rc = simt_malloc(gpu, n, &dev[k], err)) != SIMT_OK ||
            (rc = simt_memset(gpu, dev[k], 0, n, err)) != SIMT_OK)
            return rc;
    if ((rc = simt_memcpy_htod(gpu, dev[D_FRONT], &one, 1, err)) != SIMT_OK)
        return rc;
    return simt_memcpy_htod(gpu, dev[D_VIS], &one, 1, err);
}

/* One level: expand then commit; *changed tells whether another level follows. */
static int level(simt_gpu_t *gpu, simt_module_t *mod, int n, const simt_devptr_t *dev, int *changed,
                 simt_error_t *err)
{
    simt_launch_t l = {
        .grid = { ((uint32_t)n + BLOCK - 1) / BLOCK, 1, 1 },
        .block = { BLOCK, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    simt_arg_t ex[] = { SIMT_ARG(dev[D_ROW]), SIMT_ARG(dev[D_ADJ]), SIMT_ARG(dev[D_FRONT]),
                        SIMT_ARG(dev[D_UPD]), SIMT_ARG(dev[D_VIS]), SIMT_ARG(dev[D_COST]), SIMT_ARG(n) };
    simt_arg_t co[] = { SIMT_ARG(dev[D_FRONT]), SIMT_ARG(dev[D_UPD]), SIMT_ARG(dev[D_VIS]),
                        SIMT_ARG(dev[D_CHG]), SIMT_ARG(n) };
    int rc;
    if ((rc = simt_memset(gpu, dev[D_CHG], 0, sizeof(int), err)) != SIMT_OK ||
        (rc = simt_launch_kernel(gpu, mod, "bfs_expand", &l, ex, 7, err)) != SIMT_OK ||
        (rc = simt_launch_kernel(gpu, mod, "bfs_commit", &l, co, 5, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK)
        return rc;
    return simt_memcpy_dtoh(gpu, changed, dev[D_CHG], sizeof(int), err);
}

static void check(const int *gpu_cost, const int *ref, int n, int levels, int launches, simt_wl_result_t *res)
{
    int bad = -1;
    for (int v = 0; v < n && bad < 0; v++)
        if (gpu_cost[v] != ref[v])
            bad = v;
    res->passed = bad < 0;
    if (res->passed)
        snprintf(res->detail, sizeof res->detail,
                 "%d nodes, %d BFS levels, %d launches of 2 kernels, all costs exact", n, levels, launches);
    else
        snprintf(res->detail, sizeof res->detail, "%d nodes: cost[%d]=%d expected %d", n, bad,
                 gpu_cost[bad], ref[bad]);
}

static int run_bfs(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                   simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 6001, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int n;
    if (strcmp(size, "small") == 0)
        n = 4000;            /* 8 CTAs */
    else if (strcmp(size, "paper") == 0)
        n = 1000000;         /* 1954 CTAs of 512, like graph1MW_6 */
    else
        return fail(err, "param size must be small or paper");
    graph_t g = { 0, 0, NULL, NULL };
    int *cost = malloc((size_t)n * sizeof(int)), *ref = malloc((size_t)n * sizeof(int));
    simt_devptr_t dev[D_COUNT] = { 0 };
    int rc = SIMT_OK, changed = 1, launches = 0, levels = -1;
    if (!cost || !ref || make_graph(&g, n, (uint32_t)seed_l) != 0 || (levels = cpu_bfs(&g, ref)) < 0) {
        rc = fail(err, "host out of memory");
        goto done;
    }
    if ((rc = upload(gpu, &g, cost, dev, err)) != SIMT_OK)
        goto done;
    while (changed && launches <= n) {
        if ((rc = level(gpu, mod, n, dev, &changed, err)) != SIMT_OK)
            goto done;
        launches++;
    }
    if ((rc = simt_memcpy_dtoh(gpu, cost, dev[D_COST], (size_t)n * sizeof(int), err)) != SIMT_OK)
        goto done;
    check(cost, ref, n, levels, launches, res);
done:
    rc = simt_wl_release(gpu, dev, D_COUNT, rc, err);
    free_graph(&g);
    free(cost);
    free(ref);
    return rc;
}

SIMT_WORKLOAD(bfs, "level-synchronous BFS over a random CSR graph, one thread per node",
              "workloads/bfs/kernel.ptx", run_bfs);
