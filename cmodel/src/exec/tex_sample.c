/* tex_sample.c: texel addressing, filtering and cube-face selection of tex
 * and tld4 (exec/texture.h; the rules and the choices are in
 * docs/textures.md). */
#include <math.h>
#include <string.h>

#include "exec/texture.h"

/* Half-precision bits to float (IEEE binary16). */
static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f,
             mant = h & 0x3ffu, bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | mant << 13;
    } else if (exp) {
        bits = sign | (exp + 112) << 23 | mant << 13;
    } else {
        float f = ldexpf((float)mant, -24);
        return sign ? -f : f;
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Channel value as a float (float class) or a 32-bit integer. */
static void decode(const tex_object_t *o, const uint8_t *p, float f[4],
                   int32_t i[4])
{
    for (unsigned c = 0; c < 4; c++) {
        if (c >= o->res.channels) { /* missing channels read (0, 0, 0, 1) */
            f[c] = c == 3 ? 1.0f : 0.0f;
            i[c] = c == 3;
            continue;
        }
        const uint8_t *q = p + c * o->elem_bytes;
        int32_t v = 0;
        switch (o->res.format) {
        case SIMT_TEX_U8: v = q[0]; break;
        case SIMT_TEX_S8: v = (int8_t)q[0]; break;
        case SIMT_TEX_U16: { uint16_t u; memcpy(&u, q, 2); v = u; break; }
        case SIMT_TEX_S16: { int16_t s; memcpy(&s, q, 2); v = s; break; }
        case SIMT_TEX_F16: { uint16_t u; memcpy(&u, q, 2); f[c] = half_to_float(u);
                             i[c] = (int32_t)f32_bits(f[c]); continue; }
        case SIMT_TEX_F32: memcpy(&f[c], q, 4); i[c] = (int32_t)f32_bits(f[c]);
                           continue;
        default: memcpy(&v, q, 4); break;
        }
        i[c] = v;
        if (o->desc.read == SIMT_TEX_NORMALIZED_FLOAT) {
            /* unsigned n bits: v / (2^n - 1); signed: v / (2^(n-1) - 1),
             * at least -1 */
            int sgn = o->res.format == SIMT_TEX_S8 || o->res.format == SIMT_TEX_S16;
            float max = o->elem_bytes == 1 ? (sgn ? 127.0f : 255.0f)
                                           : (sgn ? 32767.0f : 65535.0f);
            f[c] = (float)v / max;
            if (f[c] < -1.0f)
                f[c] = -1.0f;
        } else {
            f[c] = (float)v;
        }
    }
}

/* One texel index of a dimension of n texels, addressed by `mode`; -1 for
 * a border texel. */
static int64_t address(int64_t i, uint32_t n, simt_tex_address_t mode)
{
    int64_t N = n;
    switch (mode) {
    case SIMT_TEX_WRAP:
        return ((i % N) + N) % N;
    case SIMT_TEX_MIRROR: {
        int64_t j = ((i % (2 * N)) + 2 * N) % (2 * N);
        return j < N ? j : 2 * N - 1 - j;
    }
    case SIMT_TEX_BORDER:
        return i < 0 || i >= N ? -1 : i;
    default:
        return i < 0 ? 0 : i >= N ? N - 1 : i;
    }
}

/* The effective address mode: wrap and mirror need normalized
 * coordinates (CUDA clamps otherwise). */
static simt_tex_address_t mode_of(const tex_object_t *o, int d, int normalized)
{
    simt_tex_address_t m = o->desc.address[d];
    if (!normalized && (m == SIMT_TEX_WRAP || m == SIMT_TEX_MIRROR))
        return SIMT_TEX_CLAMP;
    return m;
}

/* A float coordinate of dimension d in texel units, after the
 * coordinate-level wrap or mirror of normalized coordinates. */
static double scaled(double x, uint32_t n, simt_tex_address_t mode, int normalized)
{
    if (x != x)
        x = 0; /* NaN: texel 0 */
    if (normalized) {
        double fl = floor(x);
        if (mode == SIMT_TEX_WRAP)
            x -= fl;
        else if (mode == SIMT_TEX_MIRROR)
            x = fmod(fl, 2.0) == 0 ? x - fl : 1.0 - (x - fl);
        x *= n;
    }
    /* far outside every texture: keep the indices in range of int64 */
    return x < -1e9 ? -1e9 : x > 1e9 ? 1e9 : x;
}

/* The hardware's 9-bit fixed-point filter weight (8 fractional bits). */
static float weight(double frac)
{
    return (float)(nearbyint(frac * 256.0) / 256.0);
}

typedef struct sampler {
    const tex_object_t *o;
    devmem_t *mem;
    int layer;
    uint32_t size[3];
    simt_tex_address_t mode[3];
    tex_result_t *r;
} sampler_t;

/* Texel (i, j, k) of the layer; 0, or -1 after noting a fault. */
static int texel(sampler_t *s, const int64_t idx[3], float f[4], int32_t iv[4])
{
    const tex_object_t *o = s->o;
    int64_t a[3];
    for (int d = 0; d < 3; d++) {
        a[d] = address(idx[d], s->size[d], s->mode[d]);
        if (a[d] < 0) { /* border */
            for (unsigned c = 0; c < 4; c++) {
                f[c] = o->desc.border[c];
                iv[c] = (int32_t)o->desc.border[c];
            }
            return 0;
        }
    }
    uint64_t addr = o->res.data + (uint64_t)s->layer * o->layer_bytes +
                    ((uint64_t)a[2] * o->res.height + (uint64_t)a[1]) * o->res.pitch +
                    (uint64_t)a[0] * o->texel_bytes;
    const uint8_t *p = devmem_ptr(s->mem, addr, o->texel_bytes);
    if (!p) {
        s->r->fault_addr = addr;
        return -1;
    }
    if (s->r->ntaps < TEX_MAX_TAPS)
        s->r->addr[s->r->ntaps++] = addr;
    decode(o, p, f, iv);
    return 0;
}

/* Cube-map face and its normalized (s, t) for direction (x, y, z): the
 * major axis picks the face (CUDA's table, +x -x +y -y +z -z). */
static unsigned cube_face(const float v[3], float *s, float *t)
{
    float ax = fabsf(v[0]), ay = fabsf(v[1]), az = fabsf(v[2]);
    unsigned face;
    float m, sc, tc;
    if (ax >= ay && ax >= az) {
        face = v[0] >= 0 ? 0 : 1;
        m = ax;
        sc = v[0] >= 0 ? -v[2] : v[2];
        tc = -v[1];
    } else if (ay >= az) {
        face = v[1] >= 0 ? 2 : 3;
        m = ay;
        sc = v[0];
        tc = v[1] >= 0 ? v[2] : -v[2];
    } else {
        face = v[2] >= 0 ? 4 : 5;
        m = az;
        sc = v[2] >= 0 ? v[0] : -v[0];
        tc = -v[1];
    }
    if (m == 0)
        m = 1; /* the zero vector: the middle of face +x */
    *s = (sc / m + 1) * 0.5f;
    *t = (tc / m + 1) * 0.5f;
    return face;
}

static unsigned dims_of(simt_tex_geom_t g)
{
    return g == SIMT_TEX_3D ? 3
         : g == SIMT_TEX_1D || g == SIMT_TEX_1D_LAYERED ? 1 : 2;
}

/* Sets up s for coordinates c; the per-dimension texel-unit coordinates
 * into x[] (float coordinates) and whether they are normalized. */
static void setup(sampler_t *s, const tex_object_t *o, devmem_t *mem,
                  const tex_coords_t *c, tex_result_t *r, double x[3])
{
    const simt_tex_resource_t *res = &o->res;
    memset(r, 0, sizeof *r);
    r->is_float = o->is_float;
    *s = (sampler_t){ .o = o, .mem = mem, .r = r,
                      .size = { res->width, res->height, res->depth } };
    int cube = res->geom == SIMT_TEX_CUBE || res->geom == SIMT_TEX_CUBE_LAYERED;
    int layers = (int)res->layers / (cube ? 6 : 1);
    int layer = c->layer < 0 ? 0 : c->layer >= layers ? layers - 1 : c->layer;
    float cf[3] = { c->cf[0], c->cf[1], c->cf[2] };
    int normalized = o->desc.normalized_coords && !c->int_coords;
    if (cube) {
        float st[2];
        unsigned face = cube_face(c->cf, &st[0], &st[1]);
        cf[0] = st[0];
        cf[1] = st[1];
        layer = layer * 6 + (int)face;
        normalized = 1;
    }
    s->layer = layer;
    for (int d = 0; d < 3; d++) {
        s->mode[d] = cube ? SIMT_TEX_CLAMP : mode_of(o, d, normalized);
        x[d] = c->int_coords ? (double)c->ci[d]
                             : scaled(cf[d], s->size[d], s->mode[d], normalized);
    }
}

int tex_sample(const tex_object_t *o, devmem_t *mem, const tex_coords_t *c,
               tex_result_t *r)
{
    sampler_t s;
    double x[3];
    setup(&s, o, mem, c, r, x);
    unsigned dims = dims_of(o->res.geom);
    float acc[4] = { 0, 0, 0, 0 };
    int32_t iacc[4] = { 0, 0, 0, 0 };
    if (c->int_coords || o->desc.filter == SIMT_TEX_POINT) {
        int64_t idx[3] = { 0, 0, 0 };
        for (unsigned d = 0; d < dims; d++)
            idx[d] = c->int_coords ? (int64_t)x[d] : (int64_t)floor(x[d]);
        if (texel(&s, idx, acc, iacc))
            return -1;
    } else {
        int64_t base[3] = { 0, 0, 0 };
        float a[3] = { 0, 0, 0 };
        for (unsigned d = 0; d < dims; d++) {
            double xb = x[d] - 0.5, fl = floor(xb);
            base[d] = (int64_t)fl;
            a[d] = weight(xb - fl);
        }
        for (unsigned corner = 0; corner < (1u << dims); corner++) {
            int64_t idx[3] = { base[0], base[1], base[2] };
            float w = 1;
            for (unsigned d = 0; d < dims; d++) {
                unsigned hi = corner >> d & 1;
                idx[d] += hi;
                w *= hi ? a[d] : 1 - a[d];
            }
            float f[4];
            int32_t iv[4];
            if (texel(&s, idx, f, iv))
                return -1;
            for (unsigned k = 0; k < 4; k++)
                acc[k] += w * f[k];
        }
    }
    for (unsigned k = 0; k < 4; k++)
        r->v[k] = o->is_float ? f32_bits(acc[k]) : (uint32_t)iacc[k];
    return 0;
}

int tex_gather(const tex_object_t *o, devmem_t *mem, const tex_coords_t *c,
               unsigned comp, tex_result_t *r)
{
    sampler_t s;
    double x[3];
    setup(&s, o, mem, c, r, x);
    int64_t i = (int64_t)floor(x[0] - 0.5), j = (int64_t)floor(x[1] - 0.5);
    /* counter-clockwise from the lower left (rows grow downwards) */
    static const int di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
    for (unsigned k = 0; k < 4; k++) {
        int64_t idx[3] = { i + di[k], j + dj[k], 0 };
        float f[4];
        int32_t iv[4];
        if (texel(&s, idx, f, iv))
            return -1;
        r->v[k] = o->is_float ? f32_bits(f[comp]) : (uint32_t)iv[comp];
    }
    return 0;
}
