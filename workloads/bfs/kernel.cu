// bfs kernels: level-synchronous breadth-first search over a CSR graph, one thread per node.
// bfs_expand visits the current frontier's neighbours (cost = level + 1, mark them in `updating`);
// bfs_commit turns the updating mask into the next frontier and raises `changed`.  The host relaunches
// the pair until no node changes.  Mirrors the GPGPU-Sim/Rodinia BFS Kernel/Kernel2 pair (512 threads).

extern "C" __global__ void bfs_expand(const int *row_start, const int *adj, unsigned char *frontier,
                                      unsigned char *updating, const unsigned char *visited,
                                      int *cost, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !frontier[v])
        return;
    frontier[v] = 0;
    int next = cost[v] + 1;
    int end = row_start[v + 1];
    for (int e = row_start[v]; e < end; e++) {
        int w = adj[e];
        if (!visited[w]) {
            cost[w] = next;
            updating[w] = 1;
        }
    }
}

extern "C" __global__ void bfs_commit(unsigned char *frontier, unsigned char *updating,
                                      unsigned char *visited, int *changed, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !updating[v])
        return;
    frontier[v] = 1;
    visited[v] = 1;
    *changed = 1;
    updating[v] = 0;
}
