// marchingcubes kernel: triangle generation of marching cubes over a sampled scalar field (generateTriangles-like).
// Each thread takes one active voxel from a compacted list, loads the 8 corner samples (gradient xyz, value w)
// of the (n+1)^3 field, classifies the voxel against the iso level, interpolates a position and a normal on
// all 12 cube edges into two __shared__ vertex lists (float3 [12][NT] each), and then writes its triangles'
// vertices out of those lists, in the order of the case's triangle table, at the voxel's scanned offset.
// The same body is built for NT = 32 (mc1: 2 x 4608 B) and NT = 48 (mc2: 2 x 6912 B).  mc1 evaluates the field
// at its 8 corners as the SDK's generateTriangles does (fieldFunc4: the SDK's "tangle" surface and a forward-
// difference gradient, 4 evaluations a corner; every operation rounded explicitly, so that the driver's CPU
// evaluation is bit-identical and both classify alike); mc2 (000 Table 5) still loads the samples.

// Corner c of the unit cube: x = bit 0 of 0x66, y = bit of 0xCC, z = bit of 0xF0 (order 0..7 as the tables).
#define CX(c) ((0x66 >> (c)) & 1)
#define CY(c) ((0xCC >> (c)) & 1)
#define CZ(c) ((0xF0 >> (c)) & 1)

/* Kernel parameters:
 *   pos     out: one float4 per triangle vertex (x, y, z, 1)
 *   nrm     out: the interpolated field gradient (x, y, z, 0)
 *   voxels  active voxel ids, x + n * (y + n * z)
 *   offset  exclusive scan of the active voxels' vertex counts
 *   field   (n+1)^3 samples: gradient in xyz, value in w (mc2; mc1 evaluates the field and ignores it)
 *   tri     256 cases x 16 edge ids, -1 after the last vertex
 *   nverts  256 cases: vertex count
 * The voxel corners are at origin + step * (x, y, z). */
#define MC_PARAMS float4 *pos, float4 *nrm, const unsigned *voxels, const unsigned *offset, const float4 *field, \
    const int *tri, const int *nverts, int n, int active, float iso, float origin, float step
#define MC_ARGS pos, nrm, voxels, offset, field, tri, nverts, n, active, iso, origin, step

/* The SDK's tangle surface, its expression x^4 - 5x^2 + y^4 - 5y^2 + z^4 - 5z^2 + 11.8, times 0.2, plus 0.5 at
 * 3p, evaluated left to right one rounded operation at a time (no contraction, so that driver.c's mc_tangle,
 * the same sequence, is bit-identical). */
__device__ __forceinline__ float tangle(float x, float y, float z)
{
    x = __fmul_rn(x, 3.0f);
    y = __fmul_rn(y, 3.0f);
    z = __fmul_rn(z, 3.0f);
    float x4 = __fmul_rn(__fmul_rn(__fmul_rn(x, x), x), x), x2 = __fmul_rn(__fmul_rn(5.0f, x), x);
    float y4 = __fmul_rn(__fmul_rn(__fmul_rn(y, y), y), y), y2 = __fmul_rn(__fmul_rn(5.0f, y), y);
    float z4 = __fmul_rn(__fmul_rn(__fmul_rn(z, z), z), z), z2 = __fmul_rn(__fmul_rn(5.0f, z), z);
    float t = __fadd_rn(__fsub_rn(__fadd_rn(__fsub_rn(__fadd_rn(__fsub_rn(x4, x2), y4), y2), z4), z2), 11.8f);
    return __fadd_rn(__fmul_rn(t, 0.2f), 0.5f);
}

/* The SDK's fieldFunc4: forward-difference gradient in xyz, the value in w. */
#define MC_DELTA 0.001f
__device__ __forceinline__ float4 field_func4(float3 p)
{
    float v = tangle(p.x, p.y, p.z);
    float dx = __fsub_rn(tangle(__fadd_rn(p.x, MC_DELTA), p.y, p.z), v);
    float dy = __fsub_rn(tangle(p.x, __fadd_rn(p.y, MC_DELTA), p.z), v);
    float dz = __fsub_rn(tangle(p.x, p.y, __fadd_rn(p.z, MC_DELTA)), v);
    return make_float4(dx, dy, dz, v);
}

__device__ __forceinline__ void edge_vertex(float3 *vpos, float3 *vnrm, int slot, const float4 *c, const float3 *p,
                                            int a, int b, float iso)
{
    float t = (iso - c[a].w) / (c[b].w - c[a].w);
    vpos[slot] = make_float3(p[a].x + t * (p[b].x - p[a].x), p[a].y + t * (p[b].y - p[a].y),
                             p[a].z + t * (p[b].z - p[a].z));
    vnrm[slot] = make_float3(c[a].x + t * (c[b].x - c[a].x), c[a].y + t * (c[b].y - c[a].y),
                             c[a].z + t * (c[b].z - c[a].z));
}

template <int NT, bool EVAL>
__device__ __forceinline__ void generate(float3 *vpos, float3 *vnrm, MC_PARAMS)
{
    int tid = threadIdx.x;
    int a = blockIdx.x * NT + tid;
    if (a >= active)
        return;
    unsigned v = voxels[a];
    int s = n + 1;
    int x = v % n, y = (v / n) % n, z = v / (n * n);
    const float4 *f = field + ((size_t)z * s + y) * s + x;

    float4 c[8];
    float3 p[8];
    unsigned cube = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        if (EVAL) {
            p[i] = make_float3(__fmaf_rn((float)(x + CX(i)), step, origin), __fmaf_rn((float)(y + CY(i)), step, origin),
                               __fmaf_rn((float)(z + CZ(i)), step, origin));
            c[i] = field_func4(p[i]);
        } else {
            c[i] = f[(CZ(i) * s + CY(i)) * s + CX(i)];
            p[i] = make_float3(origin + (x + CX(i)) * step, origin + (y + CY(i)) * step,
                               origin + (z + CZ(i)) * step);
        }
        cube |= (c[i].w < iso ? 1u : 0u) << i;
    }

    /* edges 0..3: bottom face 0-1-2-3, 4..7: top face 4-5-6-7, 8..11: verticals */
    edge_vertex(vpos, vnrm, 0 * NT + tid, c, p, 0, 1, iso);
    edge_vertex(vpos, vnrm, 1 * NT + tid, c, p, 1, 2, iso);
    edge_vertex(vpos, vnrm, 2 * NT + tid, c, p, 2, 3, iso);
    edge_vertex(vpos, vnrm, 3 * NT + tid, c, p, 3, 0, iso);
    edge_vertex(vpos, vnrm, 4 * NT + tid, c, p, 4, 5, iso);
    edge_vertex(vpos, vnrm, 5 * NT + tid, c, p, 5, 6, iso);
    edge_vertex(vpos, vnrm, 6 * NT + tid, c, p, 6, 7, iso);
    edge_vertex(vpos, vnrm, 7 * NT + tid, c, p, 7, 4, iso);
    edge_vertex(vpos, vnrm, 8 * NT + tid, c, p, 0, 4, iso);
    edge_vertex(vpos, vnrm, 9 * NT + tid, c, p, 1, 5, iso);
    edge_vertex(vpos, vnrm, 10 * NT + tid, c, p, 2, 6, iso);
    edge_vertex(vpos, vnrm, 11 * NT + tid, c, p, 3, 7, iso);

    /* Triangles: every vertex comes out of the shared lists, up to the thread's last instruction. */
    int nv = nverts[cube];
    unsigned base = offset[a];
    const int *t = tri + cube * 16;
    for (int i = 0; i < nv; i++) {
        int e = t[i];
        float3 q = vpos[e * NT + tid], m = vnrm[e * NT + tid];
        pos[base + i] = make_float4(q.x, q.y, q.z, 1.0f);
        nrm[base + i] = make_float4(m.x, m.y, m.z, 0.0f);
    }
}

extern "C" __global__ void generate_triangles_32(MC_PARAMS)
{
    __shared__ float3 vertlist[12 * 32];
    __shared__ float3 normlist[12 * 32];
    generate<32, true>(vertlist, normlist, MC_ARGS);
}

extern "C" __global__ void generate_triangles_48(MC_PARAMS)
{
    __shared__ float3 vertlist[12 * 48];
    __shared__ float3 normlist[12 * 48];
    generate<48, false>(vertlist, normlist, MC_ARGS);
}
