/* marchingcubes driver: mc2 samples a seeded metaball field (value and analytic gradient, plus value noise) on
 * a 49^3 grid; mc1's kernel evaluates the SDK's tangle field at each corner (kernel.cu's field_func4), which
 * the driver evaluates at the grid points with the same float operations (bit-identical); the host classifies the 48^3 voxels, compacts the active ones and scans their vertex counts (the
 * SDK's classify / compact / scan steps), then generate_triangles_32 (mc1) or generate_triangles_48 (mc2)
 * writes every triangle vertex and normal.  The case tables are built here from the cube's geometry (the
 * iso-line segments on each face, inside corners kept apart on ambiguous faces, chained into loops and
 * fanned).  Every output vertex is compared with a CPU double-precision interpolation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt.h"
#include "simt/workload.h"

#define GRID 48           /* voxels per side */
#define SIDE (GRID + 1)   /* samples per side */
#define ORIGIN (-1.0f)
#define STEP (2.0f / GRID)
#define ISO 1.0f          /* mc2: the metaballs' level */
#define ISO_TANGLE 0.2f   /* mc1: the SDK's default isoValue */
#define MC_DELTA 0.001f   /* the forward-difference step of kernel.cu's field_func4 */
#define BALLS 5
#define TRI_W 16          /* tri table row width (kernel.cu) */
#define TOL 1e-5          /* max |gpu - ref| / max(1, |ref|) over every vertex and normal component */

typedef struct mc_desc {
    const char *name, *kernel;
    int nt;               /* threads per block = the shared lists' second dimension */
    int eval;             /* 1: the kernel evaluates the tangle field; 0: it loads the metaball samples */
    float iso;
} mc_desc_t;

static const mc_desc_t MC1 = { "mc1", "generate_triangles_32", 32, 1, ISO_TANGLE };
static const mc_desc_t MC2 = { "mc2", "generate_triangles_48", 48, 0, ISO };

/* Cube geometry: corner c at (CX, CY, CZ) (kernel.cu), edges as kernel.cu's edge_vertex calls. */
static const int EDGE[12][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 }, { 4, 5 }, { 5, 6 },
                                 { 6, 7 }, { 7, 4 }, { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 } };
/* Faces, corners counter-clockwise seen from outside the cube: z=0, z=1, y=0, y=1, x=0, x=1. */
static const int FACE[6][4] = { { 0, 3, 2, 1 }, { 4, 5, 6, 7 }, { 0, 1, 5, 4 },
                                { 3, 7, 6, 2 }, { 0, 4, 7, 3 }, { 1, 2, 6, 5 } };

static int cx(int c) { return (0x66 >> c) & 1; }
static int cy(int c) { return (0xCC >> c) & 1; }
static int cz(int c) { return (0xF0 >> c) & 1; }

static int fail(simt_error_t *err, const mc_desc_t *d, const char *msg)
{
    err->status = SIMT_EINPUT;
    snprintf(err->msg, sizeof err->msg, "%s: %s", d->name, msg);
    return SIMT_EINPUT;
}

static int edge_of(int a, int b)
{
    for (int e = 0; e < 12; e++)
        if ((EDGE[e][0] == a && EDGE[e][1] == b) || (EDGE[e][0] == b && EDGE[e][1] == a))
            return e;
    return -1;
}

/* Builds the case tables: for case `k` (bit c set = corner c below the iso level), each face contributes one
 * directed segment per run of inside corners (from the edge leaving the run to the edge entering it, so the
 * inside lies on the left seen from outside); the segments form closed loops over the cut edges, each loop
 * fanned into triangles wound along the field gradient.  Returns the largest vertex count, or -1 when a case
 * breaks the loop structure or needs more than TRI_W - 1 vertices. */
static int build_tables(int tri[256][TRI_W], int nverts[256])
{
    int most = 0;
    for (int k = 0; k < 256; k++) {
        int next[12], seen[12] = { 0 }, nv = 0;
        for (int e = 0; e < 12; e++)
            next[e] = -1;
        for (int f = 0; f < 6; f++) {
            const int *q = FACE[f];
            int in[4];
            for (int i = 0; i < 4; i++)
                in[i] = (k >> q[i]) & 1;
            for (int i = 0; i < 4; i++) {
                if (!in[i] || in[(i + 3) % 4])
                    continue;                      /* not the start of a run of inside corners */
                int j = i;
                while (in[(j + 1) % 4])
                    j = (j + 1) % 4;
                int from = edge_of(q[j], q[(j + 1) % 4]), to = edge_of(q[(i + 3) % 4], q[i]);
                if (next[from] != -1)
                    return -1;
                next[from] = to;
            }
        }
        for (int i = 0; i < TRI_W; i++)
            tri[k][i] = -1;
        for (int e0 = 0; e0 < 12; e0++) {
            if (next[e0] < 0 || seen[e0])
                continue;
            int loop[12], len = 0;
            for (int e = e0; !seen[e]; e = next[e]) {
                if (next[e] < 0 || len == 12)
                    return -1;
                seen[e] = 1;
                loop[len++] = e;
            }
            if (len < 3 || nv + 3 * (len - 2) > TRI_W - 1)
                return -1;
            for (int i = 1; i + 1 < len; i++) {
                tri[k][nv++] = loop[0];
                tri[k][nv++] = loop[i + 1];
                tri[k][nv++] = loop[i];
            }
        }
        nverts[k] = nv;
        most = nv > most ? nv : most;
    }
    return most;
}

static float uniform(uint32_t *seed, float lo, float hi)
{
    return lo + (float)(simt_wl_rand(seed) >> 8) * (1.0f / 16777216.0f) * (hi - lo);
}

/* Metaballs sum r^2 / (d^2 + 0.01) with its analytic gradient, plus uniform value noise. */
static void make_field(float *fld, uint32_t *seed)
{
    double c[BALLS][3], r2[BALLS];
    for (int b = 0; b < BALLS; b++) {
        for (int i = 0; i < 3; i++)
            c[b][i] = uniform(seed, -0.55f, 0.55f);
        double r = uniform(seed, 0.25f, 0.4f);
        r2[b] = r * r;
    }
    for (int z = 0; z < SIDE; z++)
        for (int y = 0; y < SIDE; y++)
            for (int x = 0; x < SIDE; x++) {
                double p[3] = { ORIGIN + x * (double)STEP, ORIGIN + y * (double)STEP, ORIGIN + z * (double)STEP };
                double v = 0, g[3] = { 0, 0, 0 };
                for (int b = 0; b < BALLS; b++) {
                    double d[3] = { p[0] - c[b][0], p[1] - c[b][1], p[2] - c[b][2] };
                    double q = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01;
                    v += r2[b] / q;
                    for (int i = 0; i < 3; i++)
                        g[i] -= 2.0 * r2[b] * d[i] / (q * q);
                }
                float *o = fld + 4 * (((size_t)z * SIDE + y) * SIDE + x);
                o[0] = (float)g[0];
                o[1] = (float)g[1];
                o[2] = (float)g[2];
                o[3] = (float)v + uniform(seed, -0.08f, 0.08f);
            }
}

/* kernel.cu's tangle, operation for operation (C11 evaluates float expressions in float, no contraction). */
static float mc_tangle(float x, float y, float z)
{
    x = x * 3.0f;
    y = y * 3.0f;
    z = z * 3.0f;
    float x4 = x * x * x * x, x2 = 5.0f * x * x, y4 = y * y * y * y, y2 = 5.0f * y * y;
    float z4 = z * z * z * z, z2 = 5.0f * z * z;
    return (x4 - x2 + y4 - y2 + z4 - z2 + 11.8f) * 0.2f + 0.5f;
}

/* mc1's field at every grid point: kernel.cu's field_func4 at the corner positions it forms. */
static void make_field_tangle(float *fld)
{
    for (int z = 0; z < SIDE; z++)
        for (int y = 0; y < SIDE; y++)
            for (int x = 0; x < SIDE; x++) {
                float px = fmaf((float)x, STEP, ORIGIN), py = fmaf((float)y, STEP, ORIGIN);
                float pz = fmaf((float)z, STEP, ORIGIN);
                float v = mc_tangle(px, py, pz);
                float *o = fld + 4 * (((size_t)z * SIDE + y) * SIDE + x);
                o[0] = mc_tangle(px + MC_DELTA, py, pz) - v;
                o[1] = mc_tangle(px, py + MC_DELTA, pz) - v;
                o[2] = mc_tangle(px, py, pz + MC_DELTA) - v;
                o[3] = v;
            }
}

static const float *sample(const float *fld, unsigned v, int c)
{
    int x = (int)(v % GRID), y = (int)(v / GRID % GRID), z = (int)(v / (GRID * GRID));
    return fld + 4 * (((size_t)(z + cz(c)) * SIDE + y + cy(c)) * SIDE + x + cx(c));
}

static int case_of(const float *fld, unsigned v, float iso)
{
    int k = 0;
    for (int c = 0; c < 8; c++)
        k |= (sample(fld, v, c)[3] < iso) << c;
    return k;
}

/* Compares every vertex of the first `count` active voxels with a double-precision interpolation. */
static void check(const mc_desc_t *d, const float *fld, const unsigned *vox, const unsigned *off, int count,
                  int tri[256][TRI_W], const int *nverts, const float *pos, const float *nrm, int most,
                  simt_wl_result_t *res)
{
    double worst = 0.0;
    unsigned total = 0;
    for (int a = 0; a < count; a++) {
        unsigned v = vox[a];
        int k = case_of(fld, v, d->iso);
        int x = (int)(v % GRID), y = (int)(v / GRID % GRID), z = (int)(v / (GRID * GRID));
        for (int i = 0; i < nverts[k]; i++) {
            int e = tri[k][i], ca = EDGE[e][0], cb = EDGE[e][1];
            const float *fa = sample(fld, v, ca), *fb = sample(fld, v, cb);
            double t = ((double)d->iso - fa[3]) / ((double)fb[3] - fa[3]);
            double pa[3] = { ORIGIN + (x + cx(ca)) * (double)STEP, ORIGIN + (y + cy(ca)) * (double)STEP,
                             ORIGIN + (z + cz(ca)) * (double)STEP };
            double pb[3] = { ORIGIN + (x + cx(cb)) * (double)STEP, ORIGIN + (y + cy(cb)) * (double)STEP,
                             ORIGIN + (z + cz(cb)) * (double)STEP };
            const float *gp = pos + 4 * ((size_t)off[a] + i), *gn = nrm + 4 * ((size_t)off[a] + i);
            for (int j = 0; j < 4; j++) {
                double rp = j < 3 ? pa[j] + t * (pb[j] - pa[j]) : 1.0;
                double rn = j < 3 ? fa[j] + t * ((double)fb[j] - fa[j]) : 0.0;
                double ep = fabs(gp[j] - rp) / fmax(1.0, fabs(rp)), en = fabs(gn[j] - rn) / fmax(1.0, fabs(rn));
                worst = ep > worst || isnan(ep) ? ep : worst;
                worst = en > worst || isnan(en) ? en : worst;
            }
        }
        total += (unsigned)nverts[k];
    }
    res->passed = worst <= TOL;
    snprintf(res->detail, sizeof res->detail,
             "%s: %d active voxels of %d^3, %u triangles (tables: at most %d vertices a case), "
             "max rel err %.2e over positions and normals (tol %.0e)",
             d->name, count, GRID, total / 3, most, worst, TOL);
}

static int run_mc(const mc_desc_t *d, simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params,
                  simt_wl_result_t *res, simt_error_t *err)
{
    long seed_l;
    const char *size = simt_wl_param_str(params, "size", "small");
    if (simt_wl_param_int(params, "seed", 2016, 1, 0x7fffffffL, &seed_l, err) != 0)
        return err->status ? err->status : SIMT_EINPUT;
    int count;
    if (strcmp(size, "small") == 0)
        count = 256;          /* mc1: 8 CTAs, mc2: 6 */
    else if (strcmp(size, "paper") == 0)
        count = 3008;         /* 000 Table 4: MC1 launches 3,008 threads (94 CTAs of 32); mc2: 63 CTAs of 48 */
    else
        return fail(err, d, "param size must be small or paper");

    static int tri[256][TRI_W], nverts[256];
    int most = build_tables(tri, nverts);
    if (most < 0)
        return fail(err, d, "case table construction failed");

    uint32_t seed = (uint32_t)seed_l;
    size_t nfld = (size_t)SIDE * SIDE * SIDE * 4;
    float *fld = malloc(nfld * sizeof(float)), *pos = NULL, *nrm = NULL;
    unsigned *vox = malloc((size_t)count * sizeof(unsigned)), *off = malloc((size_t)count * sizeof(unsigned));
    simt_devptr_t dev[7] = { 0 };
    int rc = SIMT_OK, found = 0;
    unsigned total = 0;
    if (!fld || !vox || !off) {
        rc = fail(err, d, "host out of memory");
        goto done;
    }
    if (d->eval)
        make_field_tangle(fld);
    else
        make_field(fld, &seed);
    /* classify + compact + scan: the first `count` active voxels in id order */
    for (unsigned v = 0; v < GRID * GRID * GRID && found < count; v++) {
        int k = case_of(fld, v, d->iso);
        if (nverts[k] == 0)
            continue;
        vox[found] = v;
        off[found++] = total;
        total += (unsigned)nverts[k];
    }
    if (found < count) {
        rc = fail(err, d, "the field has too few active voxels");
        goto done;
    }
    size_t vbytes = (size_t)total * 4 * sizeof(float);
    pos = malloc(vbytes);
    nrm = malloc(vbytes);
    if (!pos || !nrm) {
        rc = fail(err, d, "host out of memory");
        goto done;
    }
    int n = GRID;
    float iso = d->iso, origin = ORIGIN, step = STEP;
    simt_launch_t l = {
        .grid = { (uint32_t)((count + d->nt - 1) / d->nt), 1, 1 },
        .block = { (uint32_t)d->nt, 1, 1 },
        .dynamic_shared_bytes = 0,
        .stream = 0,
    };
    if ((rc = simt_malloc(gpu, vbytes, &dev[0], err)) != SIMT_OK ||
        (rc = simt_malloc(gpu, vbytes, &dev[1], err)) != SIMT_OK ||
        (rc = simt_memset(gpu, dev[0], 0xff, vbytes, err)) != SIMT_OK || /* NaN until written */
        (rc = simt_memset(gpu, dev[1], 0xff, vbytes, err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, vox, (size_t)count * sizeof(unsigned), &dev[2], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, off, (size_t)count * sizeof(unsigned), &dev[3], err)) != SIMT_OK ||
        (!d->eval && (rc = simt_wl_upload(gpu, fld, nfld * sizeof(float), &dev[4], err)) != SIMT_OK) ||
        (rc = simt_wl_upload(gpu, tri, sizeof tri, &dev[5], err)) != SIMT_OK ||
        (rc = simt_wl_upload(gpu, nverts, sizeof nverts, &dev[6], err)) != SIMT_OK)
        goto done;
    simt_arg_t args[] = { SIMT_ARG(dev[0]), SIMT_ARG(dev[1]), SIMT_ARG(dev[2]), SIMT_ARG(dev[3]),
                          SIMT_ARG(dev[4]), SIMT_ARG(dev[5]), SIMT_ARG(dev[6]), SIMT_ARG(n),
                          SIMT_ARG(count),  SIMT_ARG(iso),    SIMT_ARG(origin), SIMT_ARG(step) };
    if ((rc = simt_launch_kernel(gpu, mod, d->kernel, &l, args, 12, err)) != SIMT_OK ||
        (rc = simt_synchronize(gpu, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, pos, dev[0], vbytes, err)) != SIMT_OK ||
        (rc = simt_memcpy_dtoh(gpu, nrm, dev[1], vbytes, err)) != SIMT_OK)
        goto done;
    check(d, fld, vox, off, count, tri, nverts, pos, nrm, most, res);
done:
    rc = simt_wl_release(gpu, dev, 7, rc, err);
    free(fld);
    free(vox);
    free(off);
    free(pos);
    free(nrm);
    return rc;
}

static int run_mc1(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                   simt_error_t *err)
{
    return run_mc(&MC1, gpu, mod, params, res, err);
}

static int run_mc2(simt_gpu_t *gpu, simt_module_t *mod, const simt_wl_params_t *params, simt_wl_result_t *res,
                   simt_error_t *err)
{
    return run_mc(&MC2, gpu, mod, params, res, err);
}

SIMT_WORKLOAD(mc1, "marching cubes triangle generation, 32 threads, 2 shared vertex lists (9216 B), field evaluated",
              "workloads/marchingcubes/kernel.ptx", run_mc1);
SIMT_WORKLOAD(mc2, "marching cubes triangle generation, 48 threads, 2 shared vertex lists (13824 B)",
              "workloads/marchingcubes/kernel.ptx", run_mc2);
