// btree kernel: b+tree range queries, one query per 512-thread block (findRangeK-like).  Each level of the
// tree is searched in parallel over the node's key slots by two cursors (range start and range end) kept in
// global memory (cursor[q], initially the root twice); at the leaves the block overwrites cursor[q] with the
// query's result: (first record index, number of records).
#define FAN 512 /* key slots per node = threads per block */

struct knode {
    int count;      /* keys in use */
    int keys[FAN];  /* sorted; internal: smallest key under child[i] */
    int child[FAN]; /* internal: node index; leaf: record index of keys[i] */
};

/* Slot t routes key k when it is the last slot whose key is <= k (slot 0 also takes keys below keys[0]). */
__device__ __forceinline__ bool routes(const knode *nd, int t, int k)
{
    int cnt = nd->count;
    const int *key = nd->keys + t;
    return t < cnt && (t == 0 || key[0] <= k) && (t + 1 == cnt || key[1] > k);
}

/* Record index of the first key of leaf `nd` that is >= k (strict: > k); past the leaf's end, the next one's. */
__device__ __forceinline__ bool bound(const knode *nd, int t, int k, bool strict, int *rec)
{
    int cnt = nd->count;
    if (t >= cnt)
        return false;
    int key = nd->keys[t];
    bool here = strict ? key > k : key >= k;
    bool before = t == 0 || (strict ? nd->keys[t - 1] <= k : nd->keys[t - 1] < k);
    if (here && before) {
        *rec = nd->child[t];
        return true;
    }
    if (!here && t + 1 == cnt) {
        *rec = nd->child[t] + 1;
        return true;
    }
    return false;
}

extern "C" __global__ void btree_find_range(const knode *nodes, int nnodes, int height, const int2 *range,
                                            int2 *cursor)
{
    int q = blockIdx.x, t = threadIdx.x;
    int lo = range[q].x, hi = range[q].y;
#pragma unroll 1
    for (int level = 0; level < height; level++) {
        const knode *a = &nodes[cursor[q].x], *b = &nodes[cursor[q].y];
        bool take_a = routes(a, t, lo) && a->child[t] < nnodes;
        bool take_b = routes(b, t, hi) && b->child[t] < nnodes;
        int next_a = take_a ? a->child[t] : 0, next_b = take_b ? b->child[t] : 0;
        __syncthreads();
        if (take_a)
            cursor[q].x = next_a;
        if (take_b)
            cursor[q].y = next_b;
        __syncthreads();
    }
    const knode *a = &nodes[cursor[q].x], *b = &nodes[cursor[q].y];
    __syncthreads();
    int rec;
    if (bound(a, t, lo, false, &rec))
        cursor[q].x = rec;
    if (bound(b, t, hi, true, &rec))
        cursor[q].y = rec;
    __syncthreads();
    if (t == 0)
        cursor[q].y -= cursor[q].x;
}
