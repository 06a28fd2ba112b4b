/* test_tex_kernels.c: tex, tld4, suld and sust in kernels, through the host
 * API's texture and surface objects (simt/texture.h): surface out-of-range
 * modes, vector surface accesses, result types, and the faults of bad
 * handles, wrong kinds and geometries, and freed texels.  Expected values
 * are worked out by hand from the PTX ISA manual's definitions.  Names
 * start with texk_. */
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "ptx_kernel_helpers.h"

#define FAULT_OK(msg, file, text, line, kernel, what)                          \
    do {                                                                       \
        char why_[5000];                                                       \
        CHECK_MSG(pk_fault_ok((msg), (file), (text), (line), (kernel), 0, 0, 0, \
                              0, -1, -1, (what), why_, sizeof why_),           \
                  "%s", why_);                                                 \
    } while (0)

/* Thread t: out[t] = suld.b.1d.b32 at byte x = 4 * (t - 2) with the
 * kernel's out-of-range mode, then sust of t + 100 at the same x. */
#define SURF_PTX(mode)                                                         \
    PK_HEADER                                                                  \
    ".visible .entry s(.param .u64 s_h, .param .u64 s_out)\n"                  \
    "{\n"                                                                      \
    ".reg .b32 %r<6>;\n.reg .b64 %rd<6>;\n"                                    \
    "ld.param.u64 %rd1, [s_h];\n"                                              \
    "ld.param.u64 %rd2, [s_out];\n"                                            \
    "mov.u32 %r1, %tid.x;\n"                                                   \
    "add.s32 %r2, %r1, -2;\n"                                                  \
    "shl.b32 %r2, %r2, 2;\n"                                                   \
    "suld.b.1d.b32" mode " {%r3}, [%rd1, {%r2}];\n"                            \
    "mul.wide.u32 %rd3, %r1, 4;\n"                                             \
    "add.s64 %rd4, %rd2, %rd3;\n"                                              \
    "st.global.u32 [%rd4], %r3;\n"                                             \
    "add.s32 %r4, %r1, 100;\n"                                                 \
    "sust.b.1d.b32" mode " [%rd1, {%r2}], {%r4};\n"                            \
    "ret;\n"                                                                   \
    "}\n"

/* A 4-texel 1D u32 surface holding 10, 11, 12, 13, and 8 threads. */
static int surf_run(const char *ptx, uint32_t out[8], uint32_t texels[4],
                    simt_error_t *err)
{
    simt_gpu_t *g = pk_gpu(NULL, err);
    if (!g)
        return -1;
    simt_module_t *m = pk_load(g, "s.ptx", ptx, err);
    simt_devptr_t d = pk_alloc_u32(g, 4, 0), o = pk_alloc_u32(g, 8, 0xdead);
    const uint32_t init[4] = { 10, 11, 12, 13 };
    uint64_t h = 0;
    simt_tex_resource_t r = { .data = d, .geom = SIMT_TEX_1D, .format = SIMT_TEX_U32,
                              .channels = 1, .width = 4 };
    int rc = -1;
    if (m && d && o && simt_memcpy_htod(g, d, init, sizeof init, err) == SIMT_OK &&
        simt_surf_create(g, &r, &h, err) == SIMT_OK) {
        simt_arg_t args[] = { SIMT_ARG(h), SIMT_ARG(o) };
        rc = pk_run(g, m, "s", pk_dim(1, 1, 1), pk_dim(8, 1, 1), 0, args, 2, err);
        if (rc == SIMT_OK) {
            pk_read_u32(g, o, out, 8);
            pk_read_u32(g, d, texels, 4);
        }
    }
    pk_gpu_free(g);
    return rc;
}

TEST(texk_surface_zero_mode)
{
    simt_error_t err;
    uint32_t out[8], tx[4];
    CHECK_MSG(surf_run(SURF_PTX(".zero"), out, tx, &err) == SIMT_OK, "%s", err.msg);
    /* threads 0, 1 (x < 0) and 6, 7 (x >= 16) read 0 and store nothing */
    const uint32_t want[8] = { 0, 0, 10, 11, 12, 13, 0, 0 };
    for (int i = 0; i < 8; i++)
        CHECK_EQ(out[i], want[i]);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(tx[i], 102 + i);
}

TEST(texk_surface_clamp_mode)
{
    simt_error_t err;
    uint32_t out[8], tx[4];
    CHECK_MSG(surf_run(SURF_PTX(".clamp"), out, tx, &err) == SIMT_OK, "%s", err.msg);
    const uint32_t want[8] = { 10, 10, 10, 11, 12, 13, 13, 13 };
    for (int i = 0; i < 8; i++)
        CHECK_EQ(out[i], want[i]);
    /* threads 0..2 store to texel 0 and 5..7 to texel 3, in lane order:
     * the last lane's value stays */
    CHECK_EQ(tx[0], 102);
    CHECK_EQ(tx[1], 103);
    CHECK_EQ(tx[2], 104);
    CHECK_EQ(tx[3], 107);
}

TEST(texk_surface_trap_mode_faults)
{
    simt_error_t err;
    uint32_t out[8], tx[4];
    const char *ptx = SURF_PTX(".trap");
    CHECK_EQ(surf_run(ptx, out, tx, &err), SIMT_EFAULT);
    FAULT_OK(err.msg, "s.ptx", ptx, pk_line_of(ptx, "suld"), "s",
             "surface coordinate x (bytes) = -8 (lane 0) outside [0, 12]");
}

/* One thread: tld4 of channel g of a 2 x 2 RG u16 texture at the centre,
 * into .u32 registers; tex of the same texture read as normalized floats
 * at the centre (the mean), into .f32. */
static const char tex_ptx[] =
    PK_HEADER
    ".visible .entry t(.param .u64 t_a, .param .u64 t_b, .param .u64 t_out)\n"
    "{\n"
    ".reg .b32 %r<9>;\n.reg .f32 %f<9>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [t_a];\n"
    "ld.param.u64 %rd2, [t_b];\n"
    "ld.param.u64 %rd3, [t_out];\n"
    "mov.f32 %f1, 0f3F800000;\n" /* 1.0 */
    "tld4.g.2d.v4.u32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, %f1}];\n"
    "tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd2, {%f1, %f1}];\n"
    "st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n"
    "st.global.v4.f32 [%rd3+16], {%f2, %f3, %f4, %f5};\n"
    "ret;\n"
    "}\n";

TEST(texk_tld4_and_normalized_linear_fetch)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "t.ptx", tex_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    /* texel (x, y) = (r, g): (0,0) = (0, 1), (1,0) = (65535, 2),
     * (0,1) = (0, 3), (1,1) = (65535, 4) */
    const uint16_t texels[8] = { 0, 1, 65535, 2, 0, 3, 65535, 4 };
    simt_devptr_t d = 0, o = pk_alloc_u32(g, 8, 0);
    CHECK(simt_malloc(g, sizeof texels, &d, &err) == SIMT_OK);
    CHECK(simt_memcpy_htod(g, d, texels, sizeof texels, &err) == SIMT_OK);
    simt_tex_resource_t r = { .data = d, .geom = SIMT_TEX_2D, .format = SIMT_TEX_U16,
                              .channels = 2, .width = 2, .height = 2 };
    simt_tex_desc_t ds;
    memset(&ds, 0, sizeof ds);
    ds.address[0] = ds.address[1] = SIMT_TEX_CLAMP;
    uint64_t ha, hb;
    CHECK(simt_tex_create(g, &r, &ds, &ha, &err) == SIMT_OK);
    ds.read = SIMT_TEX_NORMALIZED_FLOAT;
    ds.filter = SIMT_TEX_LINEAR;
    CHECK(simt_tex_create(g, &r, &ds, &hb, &err) == SIMT_OK);
    simt_arg_t args[] = { SIMT_ARG(ha), SIMT_ARG(hb), SIMT_ARG(o) };
    CHECK_MSG(pk_run(g, m, "t", pk_dim(1, 1, 1), pk_dim(1, 1, 1), 0, args, 3,
                     &err) == SIMT_OK, "%s", err.msg);
    uint32_t out[8];
    CHECK(pk_read_u32(g, o, out, 8) == SIMT_OK);
    /* g of (0,1), (1,1), (1,0), (0,0) */
    CHECK_EQ(out[0], 3);
    CHECK_EQ(out[1], 4);
    CHECK_EQ(out[2], 2);
    CHECK_EQ(out[3], 1);
    float f[4];
    memcpy(f, &out[4], sizeof f);
    /* r: mean of 0, 1, 0, 1 = 0.5; g: (1 + 2 + 3 + 4) / 4 / 65535 */
    CHECK(f[0] == 0.5f);
    CHECK(f[1] > 0.0000381f && f[1] < 0.0000382f);
    CHECK(f[2] == 0.0f && f[3] == 1.0f);
    pk_gpu_free(g);
}

/* tex.1d with s32 coordinates: out = the texel's value through handle h. */
static const char fetch_ptx[] =
    PK_HEADER
    ".visible .entry f(.param .u64 f_h, .param .u64 f_out)\n"
    "{\n"
    ".reg .b32 %r<6>;\n.reg .b64 %rd<3>;\n"
    "ld.param.u64 %rd1, [f_h];\n"
    "ld.param.u64 %rd2, [f_out];\n"
    "mov.u32 %r1, 1;\n"
    "tex.1d.v4.s32.s32 {%r2, %r3, %r4, %r5}, [%rd1, {%r1}];\n"
    "st.global.u32 [%rd2], %r2;\n"
    "ret;\n"
    "}\n";

static int fetch_with(simt_gpu_t *g, simt_module_t *m, uint64_t h,
                      simt_devptr_t o, simt_error_t *err)
{
    simt_arg_t args[] = { SIMT_ARG(h), SIMT_ARG(o) };
    return pk_run(g, m, "f", pk_dim(1, 1, 1), pk_dim(1, 1, 1), 0, args, 2, err);
}

TEST(texk_bad_handles_fault)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "f.ptx", fetch_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    unsigned line = pk_line_of(fetch_ptx, "tex.1d");
    simt_devptr_t d = pk_alloc_u32(g, 4, 7), o = pk_alloc_u32(g, 1, 0);
    simt_tex_resource_t r = { .data = d, .geom = SIMT_TEX_1D, .format = SIMT_TEX_S32,
                              .channels = 1, .width = 4 };
    simt_tex_desc_t ds;
    memset(&ds, 0, sizeof ds);
    uint64_t ht, hs, h2;
    CHECK(simt_tex_create(g, &r, &ds, &ht, &err) == SIMT_OK);
    CHECK(simt_surf_create(g, &r, &hs, &err) == SIMT_OK);
    r.geom = SIMT_TEX_2D;
    r.height = 1;
    CHECK(simt_tex_create(g, &r, &ds, &h2, &err) == SIMT_OK);
    /* the good one */
    CHECK_MSG(fetch_with(g, m, ht, o, &err) == SIMT_OK, "%s", err.msg);
    uint32_t v = 0;
    CHECK(pk_read_u32(g, o, &v, 1) == SIMT_OK);
    CHECK_EQ(v, 7);
    /* an unset handle */
    CHECK_EQ(fetch_with(g, m, 0, o, &err), SIMT_EFAULT);
    FAULT_OK(err.msg, "f.ptx", fetch_ptx, line, "f",
             "texture handle 0x0 (lane 0) names no live texture object");
    /* a surface used as a texture */
    CHECK_EQ(fetch_with(g, m, hs, o, &err), SIMT_EFAULT);
    FAULT_OK(err.msg, "f.ptx", fetch_ptx, line, "f", "is a surface object, used as a texture");
    /* a 2D texture fetched with .1d */
    CHECK_EQ(fetch_with(g, m, h2, o, &err), SIMT_EFAULT);
    FAULT_OK(err.msg, "f.ptx", fetch_ptx, line, "f", "does not have the instruction's .1d geometry");
    /* destroyed */
    memset(&err, 0, sizeof err); /* the first error of a call sequence sticks */
    CHECK(simt_tex_destroy(g, ht, &err) == SIMT_OK);
    CHECK_EQ(simt_tex_destroy(g, ht, &err), SIMT_EINPUT);
    CHECK(strstr(err.msg, "is not a live texture or surface object"));
    CHECK_EQ(fetch_with(g, m, ht, o, &err), SIMT_EFAULT);
    FAULT_OK(err.msg, "f.ptx", fetch_ptx, line, "f", "names no live texture object");
    /* texels freed after the object was made */
    r.geom = SIMT_TEX_1D;
    memset(&err, 0, sizeof err);
    CHECK(simt_tex_create(g, &r, &ds, &ht, &err) == SIMT_OK);
    CHECK(simt_free(g, d, &err) == SIMT_OK);
    CHECK_EQ(fetch_with(g, m, ht, o, &err), SIMT_EFAULT);
    FAULT_OK(err.msg, "f.ptx", fetch_ptx, line, "f", "is not in live device memory");
    pk_gpu_free(g);
}

TEST(texk_create_rejects_bad_descriptions)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_devptr_t d = pk_alloc_u32(g, 4, 0);
    simt_tex_resource_t r = { .data = d, .geom = SIMT_TEX_2D, .format = SIMT_TEX_F32,
                              .channels = 1, .width = 4, .height = 2 };
    simt_tex_desc_t ds;
    memset(&ds, 0, sizeof ds);
    uint64_t h = 0;
    CHECK_EQ(simt_tex_create(g, &r, &ds, &h, &err), SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "simt_tex_create: texture resource: data does not "
                     "hold the texels"), "%s", err.msg);
    r.height = 1;
    r.geom = SIMT_TEX_CUBE;
    memset(&err, 0, sizeof err);
    CHECK_EQ(simt_surf_create(g, &r, &h, &err), SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "simt_surf_create: surface resource: geom: surfaces "
                     "have no cube geometry"), "%s", err.msg);
    CHECK_EQ(simt_tex_create(g, &r, NULL, &h, &err), SIMT_EINPUT);
    CHECK_EQ(h, 0);
    pk_gpu_free(g);
}
