/* test_texture.c: texture sampling (exec/texture.h) against values derived
 * by hand from the CUDA programming guide's texture-fetching rules: every
 * address mode with normalized and unnormalized coordinates, point and
 * linear filtering in 1D, 2D and 3D, the 9-bit filter weights, layers,
 * cube-map faces, tld4's gather order, channel formats and read modes, and
 * the checks of simt_tex_create's descriptions.  Names start with tex_. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "exec/texture.h"

typedef struct fixture {
    devmem_t mem;
    uint64_t base;
    tex_object_t o;
} fixture_t;

/* Device memory holding `bytes` of `data`; the object over it. */
static const char *make(fixture_t *f, const void *data, size_t bytes,
                        simt_tex_resource_t res, const simt_tex_desc_t *desc)
{
    devmem_init(&f->mem);
    if (devmem_alloc(&f->mem, bytes, &f->base) != 0)
        return "devmem_alloc";
    memcpy(devmem_ptr(&f->mem, f->base, bytes), data, bytes);
    res.data = f->base;
    static char why[256];
    return tex_object_make(&f->o, &res, desc, &f->mem, why, sizeof why);
}

static simt_tex_desc_t desc_of(simt_tex_address_t a, simt_tex_filter_t flt,
                               int normalized)
{
    simt_tex_desc_t d;
    memset(&d, 0, sizeof d);
    d.address[0] = d.address[1] = d.address[2] = a;
    d.filter = flt;
    d.normalized_coords = normalized;
    return d;
}

static float fx(const tex_result_t *r, unsigned k)
{
    float f;
    memcpy(&f, &r->v[k], 4);
    return f;
}

/* The red channel of a float fetch at (x, y, z) of layer `layer`. */
static float at(fixture_t *f, float x, float y, float z, int layer)
{
    tex_coords_t c = { .cf = { x, y, z }, .layer = layer };
    tex_result_t r;
    if (tex_sample(&f->o, &f->mem, &c, &r) != 0)
        return -12345.0f;
    return fx(&r, 0);
}

static const float T1[4] = { 10, 20, 30, 40 };

static simt_tex_resource_t res1d(void)
{
    return (simt_tex_resource_t){ .geom = SIMT_TEX_1D, .format = SIMT_TEX_F32,
                                  .channels = 1, .width = 4 };
}

#define NEAR(a, b) (fabsf((a) - (b)) < 1e-6f)
#define CHECK_F(got, want)                                                   \
    CHECK_MSG(NEAR((got), (want)), "%s = %g, expected %g", #got, (double)(got), \
              (double)(want))

TEST(tex_point_unnormalized_clamps)
{
    fixture_t f;
    simt_tex_desc_t d = desc_of(SIMT_TEX_CLAMP, SIMT_TEX_POINT, 0);
    CHECK(make(&f, T1, sizeof T1, res1d(), &d) == NULL);
    CHECK_F(at(&f, 0.0f, 0, 0, 0), 10);
    CHECK_F(at(&f, 1.5f, 0, 0, 0), 20);
    CHECK_F(at(&f, 3.99f, 0, 0, 0), 40);
    CHECK_F(at(&f, -2.0f, 0, 0, 0), 10);
    CHECK_F(at(&f, 7.0f, 0, 0, 0), 40);
    CHECK_F(at(&f, NAN, 0, 0, 0), 10);
    /* wrap needs normalized coordinates: unnormalized ones clamp */
    f.o.desc.address[0] = SIMT_TEX_WRAP;
    CHECK_F(at(&f, 5.0f, 0, 0, 0), 40);
    devmem_release(&f.mem);
}

TEST(tex_point_normalized_address_modes)
{
    fixture_t f;
    simt_tex_desc_t d = desc_of(SIMT_TEX_WRAP, SIMT_TEX_POINT, 1);
    d.border[0] = 99;
    CHECK(make(&f, T1, sizeof T1, res1d(), &d) == NULL);
    /* wrap: frac(x) * 4 */
    CHECK_F(at(&f, 0.3f, 0, 0, 0), 20);
    CHECK_F(at(&f, 1.3f, 0, 0, 0), 20);
    CHECK_F(at(&f, -0.2f, 0, 0, 0), 40);
    /* mirror: frac(x) when floor(x) is even, 1 - frac(x) when odd */
    f.o.desc.address[0] = SIMT_TEX_MIRROR;
    CHECK_F(at(&f, 1.3f, 0, 0, 0), 30);
    CHECK_F(at(&f, -0.2f, 0, 0, 0), 10);
    CHECK_F(at(&f, 2.3f, 0, 0, 0), 20);
    /* clamp */
    f.o.desc.address[0] = SIMT_TEX_CLAMP;
    CHECK_F(at(&f, 1.5f, 0, 0, 0), 40);
    CHECK_F(at(&f, -0.5f, 0, 0, 0), 10);
    /* border: outside [0, 1) reads the border colour */
    f.o.desc.address[0] = SIMT_TEX_BORDER;
    CHECK_F(at(&f, 1.1f, 0, 0, 0), 99);
    CHECK_F(at(&f, -0.1f, 0, 0, 0), 99);
    CHECK_F(at(&f, 0.5f, 0, 0, 0), 30);
    devmem_release(&f.mem);
}

TEST(tex_linear_1d_weights_and_edges)
{
    fixture_t f;
    simt_tex_desc_t d = desc_of(SIMT_TEX_CLAMP, SIMT_TEX_LINEAR, 0);
    CHECK(make(&f, T1, sizeof T1, res1d(), &d) == NULL);
    /* x - 0.5 = 0.5: halfway between T[0] and T[1] */
    CHECK_F(at(&f, 1.0f, 0, 0, 0), 15);
    /* x - 0.5 = 1.75: 0.25 * 20 + 0.75 * 30 */
    CHECK_F(at(&f, 2.25f, 0, 0, 0), 27.5f);
    /* T[-1] clamps to T[0] */
    CHECK_F(at(&f, 0.25f, 0, 0, 0), 10);
    CHECK_F(at(&f, 4.5f, 0, 0, 0), 40);
    /* 9-bit weights: frac 0.5009765625 rounds to 128/256 = 0.5 exactly */
    CHECK_F(at(&f, 1.0f + 1.0f / 1024, 0, 0, 0), 15);
    /* frac 0.75 + 1/512 = 192.5/256 rounds to even, 192/256 */
    CHECK_F(at(&f, 2.25f + 1.0f / 512, 0, 0, 0), 27.5f);
    /* normalized wrap: x = 0 filters T[3] and T[0] */
    f.o.desc.normalized_coords = 1;
    f.o.desc.address[0] = SIMT_TEX_WRAP;
    CHECK_F(at(&f, 0.0f, 0, 0, 0), 25);
    /* border (black): half of T[0] */
    f.o.desc.address[0] = SIMT_TEX_BORDER;
    CHECK_F(at(&f, 0.0f, 0, 0, 0), 5);
    /* mirror: T[-1] is T[0]; x = 1.0 mirrors to 1.0, T[3] and T[4] = T[3] */
    f.o.desc.address[0] = SIMT_TEX_MIRROR;
    CHECK_F(at(&f, 0.0f, 0, 0, 0), 10);
    CHECK_F(at(&f, 1.0f, 0, 0, 0), 40);
    devmem_release(&f.mem);
}

/* 3 x 2 texels with a padded pitch of 16 bytes: T[y][x] = 1..6. */
static const float T2[8] = { 1, 2, 3, -1, 4, 5, 6, -1 };

static simt_tex_resource_t res2d(void)
{
    return (simt_tex_resource_t){ .geom = SIMT_TEX_2D, .format = SIMT_TEX_F32,
                                  .channels = 1, .width = 3, .height = 2,
                                  .pitch = 16 };
}

TEST(tex_2d_point_linear_and_pitch)
{
    fixture_t f;
    simt_tex_desc_t d = desc_of(SIMT_TEX_CLAMP, SIMT_TEX_POINT, 0);
    CHECK(make(&f, T2, sizeof T2, res2d(), &d) == NULL);
    CHECK_F(at(&f, 1.5f, 1.5f, 0, 0), 5);
    CHECK_F(at(&f, 2.9f, 0.2f, 0, 0), 3);
    CHECK_F(at(&f, 9.0f, 9.0f, 0, 0), 6); /* never the padding */
    f.o.desc.filter = SIMT_TEX_LINEAR;
    /* the mean of 1, 2, 4, 5 */
    CHECK_F(at(&f, 1.0f, 1.0f, 0, 0), 3);
    /* rows: 2.5 and 5.5, weighted 0.75 and 0.25 */
    CHECK_F(at(&f, 2.0f, 0.75f, 0, 0), 3.25f);
    /* normalized: (0.5, 0.5) is texel-space (1.5, 1.0): the mean of 2, 5 */
    f.o.desc.normalized_coords = 1;
    CHECK_F(at(&f, 0.5f, 0.5f, 0, 0), 3.5f);
    devmem_release(&f.mem);
}

TEST(tex_tld4_gathers_counter_clockwise_from_lower_left)
{
    fixture_t f;
    simt_tex_desc_t d = desc_of(SIMT_TEX_CLAMP, SIMT_TEX_POINT, 0);
    CHECK(make(&f, T2, sizeof T2, res2d(), &d) == NULL);
    tex_coords_t c = { .cf = { 1.0f, 1.0f, 0 } };
    tex_result_t r;
    CHECK(tex_gather(&f.o, &f.mem, &c, 0, &r) == 0);
    /* (i, j+1), (i+1, j+1), (i+1, j), (i, j) with i = j = 0 */
    CHECK_F(fx(&r, 0), 4);
    CHECK_F(fx(&r, 1), 5);
    CHECK_F(fx(&r, 2), 2);
    CHECK_F(fx(&r, 3), 1);
    CHECK_EQ(r.ntaps, 4);
    /* the alpha channel of a one-channel texture is 1 */
    CHECK(tex_gather(&f.o, &f.mem, &c, 3, &r) == 0);
    CHECK_F(fx(&r, 0), 1);
    CHECK_F(fx(&r, 2), 1);
    /* at the right edge, clamped: i = 2, i + 1 -> 2 */
    c.cf[0] = 2.75f;
    CHECK(tex_gather(&f.o, &f.mem, &c, 0, &r) == 0);
    CHECK_F(fx(&r, 0), 6);
    CHECK_F(fx(&r, 1), 6);
    CHECK_F(fx(&r, 2), 3);
    CHECK_F(fx(&r, 3), 3);
    devmem_release(&f.mem);
}

TEST(tex_3d_point_and_trilinear)
{
    fixture_t f;
    float t[8];
    for (int i = 0; i < 8; i++)
        t[i] = (float)i; /* (x, y, z) = x + 2y + 4z */
    simt_tex_resource_t res = { .geom = SIMT_TEX_3D, .format = SIMT_TEX_F32,
                                .channels = 1, .width = 2, .height = 2, .depth = 2 };
    simt_tex_desc_t d = desc_of(SIMT_TEX_CLAMP, SIMT_TEX_POINT, 0);
    CHECK(make(&f, t, sizeof t, res, &d) == NULL);
    CHECK_F(at(&f, 1.5f, 0.5f, 1.5f, 0), 5);
    CHECK_F(at(&f, 0.5f, 1.5f, 0.5f, 0), 2);
    f.o.desc.filter = SIMT_TEX_LINEAR;
    CHECK_F(at(&f, 1.0f, 1.0f, 1.0f, 0), 3.5f);
    /* z - 0.5 = 0.25: 0.75 * layer 0 + 0.25 * layer 1 at x = y = 0 */
    CHECK_F(at(&f, 0.5f, 0.5f, 0.75f, 0), 1.0f);
    tex_coords_t c = { .cf = { 1.0f, 1.0f, 1.0f } };
    tex_result_t r;
    CHECK(tex_sample(&f.o, &f.mem, &c, &r) == 0);
    CHECK_EQ(r.ntaps, 8);
    devmem_release(&f.mem);
}

TEST(tex_layers_are_clamped)
{
    fixture_t f;
    const float t[6] = { 0, 1, 10, 11, 20, 21 };
    simt_tex_resource_t res = { .geom = SIMT_TEX_2D_LAYERED, .format = SIMT_TEX_F32,
                                .channels = 1, .width = 2, .height = 1, .layers = 3 };
    simt_tex_desc_t d = desc_of(SIMT_TEX_CLAMP, SIMT_TEX_POINT, 0);
    CHECK(make(&f, t, sizeof t, res, &d) == NULL);
    CHECK_F(at(&f, 1.5f, 0.5f, 0, 2), 21);
    CHECK_F(at(&f, 0.5f, 0.5f, 0, 1), 10);
    CHECK_F(at(&f, 1.5f, 0.5f, 0, 7), 21);
    CHECK_F(at(&f, 1.5f, 0.5f, 0, -1), 1);
    /* tld4 on layer 1 (one row: j + 1 clamps to row 0) */
    tex_coords_t c = { .cf = { 1.0f, 0.5f, 0 }, .layer = 1 };
    tex_result_t r;
    CHECK(tex_gather(&f.o, &f.mem, &c, 0, &r) == 0);
    CHECK_F(fx(&r, 0), 10);
    CHECK_F(fx(&r, 1), 11);
    CHECK_F(fx(&r, 2), 11);
    CHECK_F(fx(&r, 3), 10);
    devmem_release(&f.mem);
    /* 1D layered: a layer is a row */
    res = (simt_tex_resource_t){ .geom = SIMT_TEX_1D_LAYERED, .format = SIMT_TEX_F32,
                                 .channels = 1, .width = 2, .layers = 3 };
    CHECK(make(&f, t, sizeof t, res, &d) == NULL);
    CHECK_F(at(&f, 0.5f, 0, 0, 2), 20);
    devmem_release(&f.mem);
}

TEST(tex_cube_face_selection)
{
    fixture_t f;
    float t[2 * 6 * 4]; /* two layers of six 2 x 2 faces: 100 f + 10 y + x */
    for (int l = 0; l < 2; l++)
        for (int face = 0; face < 6; face++)
            for (int y = 0; y < 2; y++)
                for (int x = 0; x < 2; x++)
                    t[((l * 6 + face) * 2 + y) * 2 + x] =
                        (float)(1000 * l + 100 * face + 10 * y + x);
    simt_tex_resource_t res = { .geom = SIMT_TEX_CUBE, .format = SIMT_TEX_F32,
                                .channels = 1, .width = 2, .height = 2 };
    simt_tex_desc_t d = desc_of(SIMT_TEX_CLAMP, SIMT_TEX_POINT, 1);
    CHECK(make(&f, t, sizeof t / 2, res, &d) == NULL);
    /* +x: s = -z, t = -y; the centre (0.5, 0.5) is texel (1, 1) */
    CHECK_F(at(&f, 1, 0, 0, 0), 11);
    /* -x: s = z = -0.5, t = -y = -0.5 -> (0.25, 0.25) -> texel (0, 0) */
    CHECK_F(at(&f, -1, 0.5f, -0.5f, 0), 100);
    /* +y: s = x, t = z */
    CHECK_F(at(&f, 0.1f, 1, 0.1f, 0), 211);
    /* -y: s = x = 0.2, t = -z = -0.9 -> (0.6, 0.05) -> texel (1, 0) */
    CHECK_F(at(&f, 0.2f, -1, 0.9f, 0), 301);
    /* +z: s = x, t = -y */
    CHECK_F(at(&f, 0.9f, -0.9f, 1, 0), 411);
    /* -z: s = -x, t = -y */
    CHECK_F(at(&f, 0.5f, 0.3f, -1, 0), 500);
    devmem_release(&f.mem);
    res.geom = SIMT_TEX_CUBE_LAYERED;
    res.layers = 2;
    CHECK(make(&f, t, sizeof t, res, &d) == NULL);
    CHECK_F(at(&f, 0.5f, 0.3f, -1, 1), 1500);
    devmem_release(&f.mem);
}

TEST(tex_formats_and_read_modes)
{
    fixture_t f;
    const uint8_t t[8] = { 1, 2, 3, 4, 255, 51, 0, 128 };
    simt_tex_resource_t res = { .geom = SIMT_TEX_1D, .format = SIMT_TEX_U8,
                                .channels = 4, .width = 2 };
    simt_tex_desc_t d = desc_of(SIMT_TEX_CLAMP, SIMT_TEX_POINT, 0);
    CHECK(make(&f, t, sizeof t, res, &d) == NULL);
    tex_coords_t c = { .int_coords = 1, .ci = { 1 } };
    tex_result_t r;
    CHECK(tex_sample(&f.o, &f.mem, &c, &r) == 0);
    CHECK(!r.is_float);
    CHECK_EQ(r.v[0], 255);
    CHECK_EQ(r.v[1], 51);
    CHECK_EQ(r.v[3], 128);
    /* normalized float: v / 255 */
    f.o.desc.read = SIMT_TEX_NORMALIZED_FLOAT;
    f.o.is_float = 1;
    CHECK(tex_sample(&f.o, &f.mem, &c, &r) == 0);
    CHECK(r.is_float);
    CHECK_F(fx(&r, 0), 1.0f);
    CHECK_F(fx(&r, 1), 0.2f);
    CHECK_F(fx(&r, 2), 0.0f);
    devmem_release(&f.mem);
    /* signed 8-bit: v / 127, at least -1 */
    const int8_t s[4] = { -128, -127, 127, 0 };
    res.format = SIMT_TEX_S8;
    res.width = 1;
    d.read = SIMT_TEX_NORMALIZED_FLOAT;
    CHECK(make(&f, s, sizeof s, res, &d) == NULL);
    c.ci[0] = 0;
    CHECK(tex_sample(&f.o, &f.mem, &c, &r) == 0);
    CHECK_F(fx(&r, 0), -1.0f);
    CHECK_F(fx(&r, 1), -1.0f);
    CHECK_F(fx(&r, 2), 1.0f);
    devmem_release(&f.mem);
    /* element reads of signed 16-bit texels sign-extend */
    const int16_t h[2] = { -5, 7 };
    res = (simt_tex_resource_t){ .geom = SIMT_TEX_1D, .format = SIMT_TEX_S16,
                                 .channels = 2, .width = 1 };
    d.read = SIMT_TEX_ELEMENT;
    CHECK(make(&f, h, sizeof h, res, &d) == NULL);
    CHECK(tex_sample(&f.o, &f.mem, &c, &r) == 0);
    CHECK_EQ(r.v[0], (uint32_t)-5);
    CHECK_EQ(r.v[1], 7);
    CHECK_EQ(r.v[2], 0); /* missing channels: (0, 0, 0, 1) */
    CHECK_EQ(r.v[3], 1);
    devmem_release(&f.mem);
    /* half floats: 1.0, -2.0, 0x3555 = 0.333251953125, 0x0001 = 2^-24 */
    const uint16_t hf[4] = { 0x3c00, 0xc000, 0x3555, 0x0001 };
    res = (simt_tex_resource_t){ .geom = SIMT_TEX_1D, .format = SIMT_TEX_F16,
                                 .channels = 4, .width = 1 };
    CHECK(make(&f, hf, sizeof hf, res, &d) == NULL);
    CHECK(tex_sample(&f.o, &f.mem, &c, &r) == 0);
    CHECK(r.is_float);
    CHECK_F(fx(&r, 0), 1.0f);
    CHECK_F(fx(&r, 1), -2.0f);
    CHECK_F(fx(&r, 2), 0.333251953125f);
    CHECK(fx(&r, 3) == ldexpf(1.0f, -24));
    devmem_release(&f.mem);
}

TEST(tex_integer_coordinates_address_texels)
{
    fixture_t f;
    simt_tex_desc_t d = desc_of(SIMT_TEX_BORDER, SIMT_TEX_LINEAR, 1);
    d.border[0] = -1;
    CHECK(make(&f, T1, sizeof T1, res1d(), &d) == NULL);
    /* .s32 coordinates: texel indices, no filtering, border outside */
    tex_coords_t c = { .int_coords = 1, .ci = { 2 } };
    tex_result_t r;
    CHECK(tex_sample(&f.o, &f.mem, &c, &r) == 0);
    CHECK_F(fx(&r, 0), 30);
    c.ci[0] = 4;
    CHECK(tex_sample(&f.o, &f.mem, &c, &r) == 0);
    CHECK_F(fx(&r, 0), -1);
    CHECK_EQ(r.ntaps, 0); /* the border is not memory */
    devmem_release(&f.mem);
}

TEST(tex_freed_texels_are_reported)
{
    fixture_t f;
    simt_tex_desc_t d = desc_of(SIMT_TEX_CLAMP, SIMT_TEX_POINT, 0);
    CHECK(make(&f, T1, sizeof T1, res1d(), &d) == NULL);
    CHECK(devmem_free(&f.mem, f.base) == 0);
    tex_coords_t c = { .cf = { 2.5f } };
    tex_result_t r;
    CHECK(tex_sample(&f.o, &f.mem, &c, &r) == -1);
    CHECK_EQ(r.fault_addr, f.base + 8);
    devmem_release(&f.mem);
}

/* simt_tex_create's checks: each names the field. */
TEST(tex_descriptions_are_checked)
{
    fixture_t f;
    simt_tex_desc_t d = desc_of(SIMT_TEX_CLAMP, SIMT_TEX_LINEAR, 0);
    const uint8_t u8[16] = { 0 };
    simt_tex_resource_t res = { .geom = SIMT_TEX_1D, .format = SIMT_TEX_U8,
                                .channels = 1, .width = 16 };
    const char *why = make(&f, u8, sizeof u8, res, &d);
    CHECK(why && strstr(why, "filter: linear filtering needs float results"));
    devmem_release(&f.mem);
    res.width = 17; /* one texel past the allocation */
    d.filter = SIMT_TEX_POINT;
    why = make(&f, u8, sizeof u8, res, &d);
    CHECK(why && strstr(why, "data does not hold the texels"));
    devmem_release(&f.mem);
    res = (simt_tex_resource_t){ .geom = SIMT_TEX_2D, .format = SIMT_TEX_F32,
                                 .channels = 1, .width = 4, .height = 2, .pitch = 12 };
    why = make(&f, T1, sizeof T1, res, &d);
    CHECK(why && strstr(why, "pitch is smaller than a row"));
    devmem_release(&f.mem);
    res = res1d();
    res.channels = 3;
    why = make(&f, T1, sizeof T1, res, &d);
    CHECK(why && strstr(why, "channels must be 1, 2 or 4"));
    devmem_release(&f.mem);
    res = (simt_tex_resource_t){ .geom = SIMT_TEX_1D, .format = SIMT_TEX_U32,
                                 .channels = 1, .width = 4 };
    d.read = SIMT_TEX_NORMALIZED_FLOAT;
    why = make(&f, T1, sizeof T1, res, &d);
    CHECK(why && strstr(why, "read: normalized-float reads need 8- or 16-bit"));
    devmem_release(&f.mem);
    res = (simt_tex_resource_t){ .geom = SIMT_TEX_CUBE, .format = SIMT_TEX_F32,
                                 .channels = 1, .width = 2, .height = 1 };
    d.read = SIMT_TEX_ELEMENT;
    why = make(&f, T1, sizeof T1, res, &d);
    CHECK(why && strstr(why, "cube map needs width == height"));
    devmem_release(&f.mem);
    /* a surface has no cube geometry, but a sampler is not needed */
    res = res1d();
    CHECK(make(&f, T1, sizeof T1, res, NULL) == NULL);
    CHECK(f.o.surface);
    devmem_release(&f.mem);
}

TEST(tex_table_handles)
{
    tex_table_t t;
    tex_table_init(&t);
    tex_object_t o = { .live = 1 };
    uint64_t h1 = 0, h2 = 0;
    CHECK(tex_table_add(&t, &o, &h1) == 0);
    CHECK(tex_table_add(&t, &o, &h2) == 0);
    CHECK(h1 != 0 && h2 != 0 && h1 != h2);
    CHECK(tex_table_get(&t, 0) == NULL);
    CHECK(tex_table_get(&t, h1) != NULL);
    CHECK(tex_table_remove(&t, h1) == 0);
    CHECK(tex_table_get(&t, h1) == NULL);
    CHECK(tex_table_remove(&t, h1) == -1);
    CHECK(tex_table_get(&t, h2) != NULL);
    CHECK(tex_table_get(&t, h2 + 1) == NULL);
    tex_table_release(&t);
}
