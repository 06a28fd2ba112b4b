/* test_hostapi.c: the host API (simt.h) with hand-written PTX: device
 * memory round trips, modules and their .global/.const data, launch
 * queues, independent GPUs, dynamic shared memory, 3-D grids and the
 * instruction statistics of straight-line kernels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "ptx_kernel_helpers.h"

/* ------------------------------------------------------------------ */
/* device memory                                                       */
/* ------------------------------------------------------------------ */

TEST(hostapi_malloc_memcpy_memset_roundtrip)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    enum { N = 5000 };
    simt_devptr_t a = 0, b = 0, c = 0;
    CHECK(simt_malloc(g, N, &a, &err) == SIMT_OK);
    CHECK(simt_malloc(g, N, &b, &err) == SIMT_OK);
    CHECK(simt_malloc(g, 1, &c, &err) == SIMT_OK);
    CHECK(a && b && c && a != b && b != c && a != c);
    /* allocations do not overlap */
    CHECK(a + N <= b || b + N <= a);
    uint8_t *h = malloc(N), *r = malloc(N);
    CHECK(h && r);
    for (int i = 0; i < N; i++)
        h[i] = (uint8_t)(i * 37 + 11);
    CHECK(simt_memcpy_htod(g, a, h, N, &err) == SIMT_OK);
    CHECK(simt_memset(g, b, 0x5a, N, &err) == SIMT_OK);
    memset(r, 0, N);
    CHECK(simt_memcpy_dtoh(g, r, a, N, &err) == SIMT_OK);
    int same = memcmp(r, h, N) == 0;
    /* fresh memory reads as zero; memset uses the low byte of value */
    uint8_t one = 0xee;
    CHECK(simt_memcpy_dtoh(g, &one, c, 1, &err) == SIMT_OK);
    CHECK_EQ(one, 0);
    CHECK(simt_memset(g, c, 0x1ff, 1, &err) == SIMT_OK);
    CHECK(simt_memcpy_dtoh(g, &one, c, 1, &err) == SIMT_OK);
    CHECK_EQ(one, 0xff);
    /* partial copies at offsets */
    CHECK(simt_memcpy_htod(g, a + 1000, "hello", 5, &err) == SIMT_OK);
    CHECK(simt_memset(g, a + 1005, 0, 3, &err) == SIMT_OK);
    char s[8];
    CHECK(simt_memcpy_dtoh(g, s, a + 1000, 8, &err) == SIMT_OK);
    int hello = memcmp(s, "hello\0\0\0", 8) == 0;
    CHECK(simt_memcpy_dtoh(g, r, b, N, &err) == SIMT_OK);
    int all5a = 1;
    for (int i = 0; i < N; i++)
        all5a &= r[i] == 0x5a;
    /* the rest of a is unchanged */
    CHECK(simt_memcpy_dtoh(g, r, a, N, &err) == SIMT_OK);
    int rest = memcmp(r, h, 1000) == 0 && memcmp(r + 1008, h + 1008, N - 1008) == 0;
    free(h);
    free(r);
    CHECK(same);
    CHECK(hello);
    CHECK(all5a);
    CHECK(rest);
    /* free, then the other allocations still work */
    CHECK(simt_free(g, a, &err) == SIMT_OK);
    uint32_t w = 0x12345678, back = 0;
    CHECK(simt_memcpy_htod(g, b + 4, &w, 4, &err) == SIMT_OK);
    CHECK(simt_memcpy_dtoh(g, &back, b + 4, 4, &err) == SIMT_OK);
    CHECK_EQ(back, 0x12345678);
    /* a new allocation never reuses a freed address */
    simt_devptr_t d = 0;
    CHECK(simt_malloc(g, N, &d, &err) == SIMT_OK);
    CHECK(d != a);
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* modules: .global variables with initialisers, several modules        */
/* ------------------------------------------------------------------ */

#define COUNTER_MODULE(INIT, EXTRA)                                        \
    PK_HEADER                                                              \
    ".global .align 4 .u32 counter = " INIT ";\n"                          \
    ".visible .entry bump(\n"                                              \
    "    .param .u32 bump_param_0\n"                                       \
    ")\n"                                                                  \
    "{\n"                                                                  \
    "    .reg .b32 %r<4>;\n"                                               \
    "    ld.param.u32 %r1, [bump_param_0];\n"                              \
    "    ld.global.u32 %r2, [counter];\n"                                  \
    "    add.s32 %r3, %r2, %r1;\n"                                         \
    "    st.global.u32 [counter], %r3;\n"                                  \
    "    ret;\n"                                                           \
    "}\n"                                                                  \
    ".visible .entry peek(\n"                                              \
    "    .param .u64 peek_param_0\n"                                       \
    ")\n"                                                                  \
    "{\n"                                                                  \
    "    .reg .b32 %r<2>;\n"                                               \
    "    .reg .b64 %rd<2>;\n"                                              \
    "    ld.param.u64 %rd1, [peek_param_0];\n"                             \
    "    ld.global.u32 %r1, [counter];\n"                                  \
    "    st.global.u32 [%rd1], %r1;\n"                                     \
    "    ret;\n"                                                           \
    "}\n" EXTRA

static const char counter_a_ptx[] = COUNTER_MODULE("5", "");
static const char counter_b_ptx[] = COUNTER_MODULE("100",
    ".visible .entry only_b()\n"
    "{\n"
    "    ret;\n"
    "}\n");

static int bump(simt_gpu_t *g, simt_module_t *m, uint32_t by, int sync,
                simt_error_t *err)
{
    simt_arg_t a[1] = { SIMT_ARG(by) };
    int rc = pk_launch(g, m, "bump", pk_dim(1, 1, 1), pk_dim(1, 1, 1), 0, a, 1,
                       err);
    if (rc == SIMT_OK && sync)
        rc = simt_synchronize(g, err);
    return rc;
}

/* The counter of module m, read by its peek kernel; ~0 on failure. */
static uint32_t peek(simt_gpu_t *g, simt_module_t *m)
{
    simt_error_t err;
    simt_devptr_t out = pk_alloc_u32(g, 1, 0xffffffffu);
    simt_arg_t a[1] = { SIMT_ARG(out) };
    uint32_t v = 0xffffffffu;
    if (out && pk_run(g, m, "peek", pk_dim(1, 1, 1), pk_dim(1, 1, 1), 0, a, 1,
                      &err) == SIMT_OK)
        pk_read_u32(g, out, &v, 1);
    return v;
}

TEST(hostapi_global_variable_persists_across_launches)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "a.ptx", counter_a_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    CHECK_EQ(peek(g, m), 5); /* the initialiser */
    CHECK_MSG(bump(g, m, 1, 1, &err) == SIMT_OK, "%s", err.msg);
    CHECK_EQ(peek(g, m), 6);
    CHECK_MSG(bump(g, m, 1, 1, &err) == SIMT_OK, "%s", err.msg);
    CHECK_EQ(peek(g, m), 7);
    /* two launches in one queue */
    CHECK(bump(g, m, 10, 0, &err) == SIMT_OK);
    CHECK(bump(g, m, 20, 0, &err) == SIMT_OK);
    CHECK(simt_synchronize(g, &err) == SIMT_OK);
    CHECK_EQ(peek(g, m), 37);
    pk_gpu_free(g);
}

TEST(hostapi_two_modules_in_one_gpu)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *a = pk_load(g, "a.ptx", counter_a_ptx, &err);
    CHECK_MSG(a, "%s", err.msg);
    simt_module_t *b = pk_load(g, "b.ptx", counter_b_ptx, &err);
    CHECK_MSG(b, "%s", err.msg);
    CHECK(a != b);
    /* same kernel and variable names: each module has its own */
    CHECK(bump(g, a, 1, 1, &err) == SIMT_OK);
    CHECK(bump(g, b, 10, 0, &err) == SIMT_OK);
    CHECK(bump(g, a, 1, 0, &err) == SIMT_OK);
    CHECK(simt_synchronize(g, &err) == SIMT_OK);
    CHECK_EQ(peek(g, a), 7);
    CHECK_EQ(peek(g, b), 110);
    /* kernels are looked up in the module given */
    CHECK_EQ(pk_launch(g, a, "only_b", pk_dim(1, 1, 1), pk_dim(1, 1, 1), 0,
                       NULL, 0, &err), SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "a.ptx") && strstr(err.msg, "only_b"), "%s",
              err.msg);
    CHECK_EQ(pk_run(g, b, "only_b", pk_dim(1, 1, 1), pk_dim(1, 1, 1), 0, NULL,
                    0, &err), SIMT_OK);
    /* a third module loaded later does not disturb the first two */
    simt_module_t *c = pk_load(g, "c.ptx", counter_a_ptx, &err);
    CHECK_MSG(c, "%s", err.msg);
    CHECK_EQ(peek(g, c), 5);
    CHECK_EQ(peek(g, a), 7);
    CHECK_EQ(peek(g, b), 110);
    pk_gpu_free(g);
}

static const char globals_ptx[] =
    PK_HEADER
    ".global .align 4 .u32 tbl[4] = {1, 2, 3, 4};\n"
    ".global .align 8 .u64 big = 81985529216486895;\n" /* 0x0123456789abcdef */
    ".global .align 4 .f32 fl[2] = {1.5, -2.25};\n"
    ".global .align 2 .u16 half[3] = {65535, 2, 3};\n"
    ".global .align 4 .u32 zeroed[2];\n"
    ".visible .entry read_globals(\n"
    "    .param .u64 read_globals_param_0\n"
    ")\n"
    "{\n"
    "    .reg .b16 %rs<2>;\n"
    "    .reg .b32 %r<12>;\n"
    "    .reg .f32 %f<3>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    ld.param.u64 %rd1, [read_globals_param_0];\n"
    "    ld.global.u32 %r1, [tbl];\n"
    "    ld.global.u32 %r2, [tbl+12];\n"
    "    mov.u64 %rd2, tbl;\n"                 /* by address, generic */
    "    cvta.global.u64 %rd3, %rd2;\n"
    "    ld.u32 %r3, [%rd3+4];\n"
    "    ld.global.u64 %rd4, [big];\n"
    "    ld.global.f32 %f1, [fl+4];\n"
    "    mov.b32 %r4, %f1;\n"
    "    ld.global.u16 %rs1, [half];\n"
    "    cvt.u32.u16 %r5, %rs1;\n"
    "    ld.global.u32 %r6, [zeroed+4];\n"
    "    st.global.u32 [%rd1], %r1;\n"
    "    st.global.u32 [%rd1+4], %r2;\n"
    "    st.global.u32 [%rd1+8], %r3;\n"
    "    st.global.u64 [%rd1+16], %rd4;\n"
    "    st.global.u32 [%rd1+24], %r4;\n"
    "    st.global.u32 [%rd1+28], %r5;\n"
    "    st.global.u32 [%rd1+32], %r6;\n"
    "    ret;\n"
    "}\n";

TEST(hostapi_global_initialisers)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "globals.ptx", globals_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t out = pk_alloc_u32(g, 10, 0xdeadbeefu);
    CHECK(out);
    simt_arg_t a[1] = { SIMT_ARG(out) };
    CHECK_MSG(pk_run(g, m, "read_globals", pk_dim(1, 1, 1), pk_dim(1, 1, 1),
                     0, a, 1, &err) == SIMT_OK, "%s", err.msg);
    uint32_t h[10];
    CHECK(pk_read_u32(g, out, h, 10) == SIMT_OK);
    CHECK_EQ(h[0], 1);
    CHECK_EQ(h[1], 4);
    CHECK_EQ(h[2], 2);
    uint64_t big = (uint64_t)h[5] << 32 | h[4];
    CHECK_EQ(big, 0x0123456789abcdefull);
    float f;
    memcpy(&f, &h[6], 4);
    CHECK(f == -2.25f);
    CHECK_EQ(h[7], 65535);
    CHECK_EQ(h[8], 0); /* no initialiser: zero */
    pk_gpu_free(g);
}

static const char consts_ptx[] =
    PK_HEADER
    ".const .align 4 .u32 ctab[8] = {10, 20, 30, 40, 50, 60, 70, 80};\n"
    ".const .align 4 .f32 cf[2] = {0f3FC00000, -2.25};\n"
    ".const .align 4 .u32 cz[4];\n"
    ".visible .entry read_consts(\n"
    "    .param .u64 read_consts_param_0\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .f32 %f<3>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    ld.param.u64 %rd1, [read_consts_param_0];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mul.wide.u32 %rd2, %r1, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    mov.u64 %rd4, ctab;\n"
    "    add.s64 %rd5, %rd4, %rd2;\n"
    "    ld.const.u32 %r2, [%rd5];\n"          /* ctab[tid] */
    "    ld.const.u32 %r3, [ctab+28];\n"
    "    ld.const.f32 %f1, [cf];\n"
    "    ld.const.f32 %f2, [cf+4];\n"
    "    add.f32 %f1, %f1, %f2;\n"             /* 1.5 - 2.25 = -0.75 */
    "    mov.b32 %r4, %f1;\n"
    "    ld.const.u32 %r5, [cz+8];\n"
    "    add.s32 %r6, %r3, %r5;\n"
    "    st.global.u32 [%rd3], %r2;\n"
    "    st.global.u32 [%rd3+32], %r6;\n"
    "    st.global.u32 [%rd3+64], %r4;\n"
    "    ret;\n"
    "}\n";

TEST(hostapi_const_arrays)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "consts.ptx", consts_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t out = pk_alloc_u32(g, 24, 0xdeadbeefu);
    CHECK(out);
    simt_arg_t a[1] = { SIMT_ARG(out) };
    CHECK_MSG(pk_run(g, m, "read_consts", pk_dim(1, 1, 1), pk_dim(8, 1, 1), 0,
                     a, 1, &err) == SIMT_OK, "%s", err.msg);
    uint32_t h[24];
    CHECK(pk_read_u32(g, out, h, 24) == SIMT_OK);
    for (uint32_t t = 0; t < 8; t++) {
        CHECK_EQ(h[t], 10 * (t + 1));
        CHECK_EQ(h[8 + t], 80);
        float f;
        memcpy(&f, &h[16 + t], 4);
        CHECK_MSG(f == -0.75f, "thread %u: %g", t, (double)f);
    }
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* launch queues                                                       */
/* ------------------------------------------------------------------ */

static const char queue_ptx[] =
    PK_HEADER
    /* out[tid] = tid * v */
    ".visible .entry writer(\n"
    "    .param .u64 writer_param_0,\n"
    "    .param .u32 writer_param_1\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [writer_param_0];\n"
    "    ld.param.u32 %r1, [writer_param_1];\n"
    "    mov.u32 %r2, %tid.x;\n"
    "    mul.wide.u32 %rd2, %r2, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    mul.lo.s32 %r3, %r2, %r1;\n"
    "    st.global.u32 [%rd3], %r3;\n"
    "    ret;\n"
    "}\n"
    /* out[tid] = in[tid] + 1 */
    ".visible .entry reader(\n"
    "    .param .u64 reader_param_0,\n"
    "    .param .u64 reader_param_1\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    ld.param.u64 %rd1, [reader_param_0];\n"
    "    ld.param.u64 %rd2, [reader_param_1];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mul.wide.u32 %rd3, %r1, 4;\n"
    "    add.s64 %rd4, %rd1, %rd3;\n"
    "    add.s64 %rd5, %rd2, %rd3;\n"
    "    ld.global.u32 %r2, [%rd4];\n"
    "    add.s32 %r3, %r2, 1;\n"
    "    st.global.u32 [%rd5], %r3;\n"
    "    ret;\n"
    "}\n";

TEST(hostapi_queued_launches_run_in_order)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "queue.ptx", queue_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t b1 = pk_alloc_u32(g, 64, 0), b2 = pk_alloc_u32(g, 64, 0),
                  b3 = pk_alloc_u32(g, 64, 0);
    CHECK(b1 && b2 && b3);
    uint32_t three = 3, five = 5;
    simt_arg_t w3[2] = { SIMT_ARG(b1), SIMT_ARG(three) };
    simt_arg_t r12[2] = { SIMT_ARG(b1), SIMT_ARG(b2) };
    simt_arg_t w5[2] = { SIMT_ARG(b1), SIMT_ARG(five) };
    simt_arg_t r23[2] = { SIMT_ARG(b2), SIMT_ARG(b3) };
    simt_arg_t r33[2] = { SIMT_ARG(b3), SIMT_ARG(b3) };
    /* writer(b1, 3); reader(b1 -> b2); writer(b1, 5); reader(b2 -> b3);
     * reader(b3 -> b3) twice */
    CHECK(pk_launch(g, m, "writer", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, w3,
                    2, &err) == SIMT_OK);
    CHECK(pk_launch(g, m, "reader", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, r12,
                    2, &err) == SIMT_OK);
    CHECK(pk_launch(g, m, "writer", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, w5,
                    2, &err) == SIMT_OK);
    CHECK(pk_launch(g, m, "reader", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, r23,
                    2, &err) == SIMT_OK);
    CHECK(pk_launch(g, m, "reader", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, r33,
                    2, &err) == SIMT_OK);
    CHECK(pk_launch(g, m, "reader", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, r33,
                    2, &err) == SIMT_OK);
    /* nothing runs before simt_synchronize */
    CHECK_EQ(simt_gpu_stats(g)->kernels_launched, 0);
    uint32_t h[64];
    CHECK(pk_read_u32(g, b1, h, 64) == SIMT_OK);
    CHECK_EQ(h[9], 0);
    memset(&err, 0, sizeof err);
    CHECK_MSG(simt_synchronize(g, &err) == SIMT_OK, "%s", err.msg);
    CHECK_EQ(simt_gpu_stats(g)->kernels_launched, 6);
    uint32_t h1[64], h2[64], h3[64];
    CHECK(pk_read_u32(g, b1, h1, 64) == SIMT_OK);
    CHECK(pk_read_u32(g, b2, h2, 64) == SIMT_OK);
    CHECK(pk_read_u32(g, b3, h3, 64) == SIMT_OK);
    for (uint32_t t = 0; t < 64; t++) {
        CHECK_EQ(h1[t], 5 * t);
        CHECK_EQ(h2[t], 3 * t + 1);
        CHECK_EQ(h3[t], 3 * t + 4);
    }
    /* the arguments were captured at launch: changing the host variables
     * after queueing does not change what runs */
    three = 1000;
    CHECK(pk_launch(g, m, "writer", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, w3,
                    2, &err) == SIMT_OK);
    three = 7;
    memset(&err, 0, sizeof err);
    CHECK(simt_synchronize(g, &err) == SIMT_OK);
    CHECK(pk_read_u32(g, b1, h1, 64) == SIMT_OK);
    CHECK_EQ(h1[10], 10000);
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* two GPUs                                                            */
/* ------------------------------------------------------------------ */

TEST(hostapi_two_gpus_are_independent)
{
    simt_error_t err;
    static const char *const small[] = { "max_threads_per_cta=64", NULL };
    simt_gpu_t *g1 = pk_gpu(small, &err);
    CHECK_MSG(g1, "%s", err.msg);
    simt_gpu_t *g2 = pk_gpu(NULL, &err);
    CHECK_MSG(g2, "%s", err.msg);
    CHECK_EQ(simt_config_get(simt_gpu_config(g1), SIMT_CFG_MAX_THREADS_CTA), 64);
    CHECK_EQ(simt_config_get(simt_gpu_config(g2), SIMT_CFG_MAX_THREADS_CTA),
             1024);
    simt_module_t *m1 = pk_load(g1, "a.ptx", counter_a_ptx, &err);
    CHECK_MSG(m1, "%s", err.msg);
    simt_module_t *m2 = pk_load(g2, "a.ptx", counter_a_ptx, &err);
    CHECK_MSG(m2, "%s", err.msg);
    CHECK(bump(g1, m1, 1, 1, &err) == SIMT_OK);
    CHECK(bump(g1, m1, 1, 1, &err) == SIMT_OK);
    CHECK(bump(g2, m2, 100, 1, &err) == SIMT_OK);
    CHECK_EQ(peek(g1, m1), 7);
    CHECK_EQ(peek(g2, m2), 105);
    /* device memory: each GPU has its own, even at equal addresses */
    simt_devptr_t p1 = 0, p2 = 0;
    CHECK(simt_malloc(g1, 256, &p1, &err) == SIMT_OK);
    CHECK(simt_malloc(g2, 256, &p2, &err) == SIMT_OK);
    CHECK(simt_memset(g1, p1, 0x11, 256, &err) == SIMT_OK);
    CHECK(simt_memset(g2, p2, 0x22, 256, &err) == SIMT_OK);
    uint8_t b1[256], b2[256];
    CHECK(simt_memcpy_dtoh(g1, b1, p1, 256, &err) == SIMT_OK);
    CHECK(simt_memcpy_dtoh(g2, b2, p2, 256, &err) == SIMT_OK);
    CHECK_EQ(b1[0], 0x11);
    CHECK_EQ(b1[255], 0x11);
    CHECK_EQ(b2[0], 0x22);
    CHECK_EQ(b2[255], 0x22);
    /* statistics are per GPU: g1 ran 2 bumps + 1 peek, g2 1 + 1 */
    CHECK_EQ(simt_gpu_stats(g1)->kernels_launched, 3);
    CHECK_EQ(simt_gpu_stats(g2)->kernels_launched, 2);
    uint64_t w2 = simt_gpu_stats(g2)->warp_insns;
    /* configuration is per GPU */
    CHECK_EQ(pk_launch(g1, m1, "peek", pk_dim(1, 1, 1), pk_dim(128, 1, 1), 0,
                       NULL, 0, &err), SIMT_EINPUT);
    /* a queued launch on one GPU does not run on the other's synchronize */
    CHECK(bump(g1, m1, 1000, 0, &err) == SIMT_OK);
    memset(&err, 0, sizeof err);
    CHECK(simt_synchronize(g2, &err) == SIMT_OK);
    CHECK_EQ(simt_gpu_stats(g2)->warp_insns, w2);
    /* destroying one GPU leaves the other working */
    pk_gpu_free(g1);
    CHECK_EQ(peek(g2, m2), 105);
    CHECK(bump(g2, m2, 1, 1, &err) == SIMT_OK);
    CHECK_EQ(peek(g2, m2), 106);
    CHECK(simt_memcpy_dtoh(g2, b2, p2, 256, &err) == SIMT_OK);
    CHECK_EQ(b2[17], 0x22);
    pk_gpu_free(g2);
}

/* ------------------------------------------------------------------ */
/* shared memory: extern (dynamic) and static layout                   */
/* ------------------------------------------------------------------ */

static const char dynsh_ptx[] =
    PK_HEADER
    ".extern .shared .align 16 .b8 dsm[];\n"
    ".visible .entry dynsh(\n"
    "    .param .u64 dynsh_param_0\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<16>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    .shared .align 4 .b8 stat[20];\n"
    "    ld.param.u64 %rd1, [dynsh_param_0];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mov.u32 %r2, %ntid.x;\n"
    "    mul.wide.u32 %rd2, %r1, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    mul.wide.u32 %rd4, %r2, 4;\n"          /* one slot: ntid words */
    "    mov.u32 %r3, dsm;\n"
    "    shl.b32 %r4, %r1, 2;\n"
    "    add.s32 %r5, %r3, %r4;\n"
    "    mul.lo.s32 %r6, %r1, 7;\n"
    "    st.shared.u32 [%r5], %r6;\n"           /* dsm[tid] = 7 tid */
    "    st.shared.u32 [stat+16], 1234;\n"      /* last static word */
    "    bar.sync 0;\n"
    "    sub.s32 %r7, %r2, 1;\n"
    "    sub.s32 %r7, %r7, %r1;\n"
    "    shl.b32 %r8, %r7, 2;\n"
    "    add.s32 %r9, %r3, %r8;\n"
    "    ld.shared.u32 %r10, [%r9];\n"          /* dsm[ntid - 1 - tid] */
    "    mov.u32 %r11, %dynamic_smem_size;\n"
    "    ld.shared.u32 %r12, [stat+16];\n"
    "    st.global.u32 [%rd3], %r10;\n"
    "    add.s64 %rd5, %rd3, %rd4;\n"
    "    st.global.u32 [%rd5], %r11;\n"
    "    add.s64 %rd5, %rd5, %rd4;\n"
    "    st.global.u32 [%rd5], %r12;\n"
    "    add.s64 %rd5, %rd5, %rd4;\n"
    "    st.global.u32 [%rd5], %r3;\n"
    "    ret;\n"
    "}\n";

TEST(hostapi_extern_shared_sized_at_launch)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "dynsh.ptx", dynsh_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    static const uint32_t threads[2] = { 64, 40 };
    static const uint32_t dyn[2] = { 256, 160 };
    simt_devptr_t out[2];
    for (int i = 0; i < 2; i++) {
        out[i] = pk_alloc_u32(g, 4 * threads[i], 0xdeadbeefu);
        CHECK(out[i]);
        simt_arg_t a[1] = { SIMT_ARG(out[i]) };
        CHECK_MSG(pk_launch(g, m, "dynsh", pk_dim(2, 1, 1),
                            pk_dim(threads[i], 1, 1), dyn[i], a, 1, &err) ==
                  SIMT_OK, "%s", err.msg);
    }
    memset(&err, 0, sizeof err);
    CHECK_MSG(simt_synchronize(g, &err) == SIMT_OK, "%s", err.msg);
    for (int i = 0; i < 2; i++) {
        uint32_t n = threads[i], h[4 * 64];
        CHECK(pk_read_u32(g, out[i], h, 4 * n) == SIMT_OK);
        for (uint32_t t = 0; t < n; t++) {
            CHECK_MSG(h[t] == 7 * (n - 1 - t), "launch %d thread %u read %u",
                      i, t, h[t]);
            CHECK_EQ(h[n + t], dyn[i]);
            /* the static variable is not overwritten by the dynamic array */
            CHECK_EQ(h[2 * n + t], 1234);
            /* dynamic shared starts at the next 16-byte boundary after the
             * 20 static bytes (docs/semantics.md) */
            CHECK_EQ(h[3 * n + t], 32);
        }
    }
    /* the dynamic size bounds the array: 64 threads with 252 bytes fault */
    simt_arg_t a[1] = { SIMT_ARG(out[0]) };
    CHECK_EQ(pk_run(g, m, "dynsh", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 252, a,
                    1, &err), SIMT_EFAULT);
    CHECK_MSG(strstr(err.msg, "shared") && strstr(err.msg, "dynsh"), "%s",
              err.msg);
    pk_gpu_free(g);
}

/* A module-scope .shared of odd size before a kernel's aligned .shared:
 * the kernel's variable must still get its declared alignment. */
static const char shalign_ptx[] =
    PK_HEADER
    ".shared .align 1 .b8 flags[3];\n"
    ".visible .entry shalign(\n"
    "    .param .u64 shalign_param_0\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    .shared .align 8 .b64 acc[2];\n"
    "    ld.param.u64 %rd1, [shalign_param_0];\n"
    "    mov.u32 %r1, acc;\n"
    "    mov.u32 %r2, flags;\n"
    "    st.shared.u8 [flags+2], 9;\n"
    "    mov.u64 %rd2, 81985529216486895;\n"
    "    st.shared.u64 [acc+8], %rd2;\n"
    "    ld.shared.u64 %rd3, [acc+8];\n"
    "    ld.shared.u8 %r3, [flags+2];\n"
    "    st.global.u32 [%rd1], %r1;\n"
    "    st.global.u32 [%rd1+4], %r2;\n"
    "    st.global.u64 [%rd1+8], %rd3;\n"
    "    st.global.u32 [%rd1+16], %r3;\n"
    "    ret;\n"
    "}\n";

TEST(hostapi_static_shared_alignment)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "shalign.ptx", shalign_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t out = pk_alloc_u32(g, 6, 0);
    CHECK(out);
    simt_arg_t a[1] = { SIMT_ARG(out) };
    int rc = pk_run(g, m, "shalign", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a,
                    1, &err);
    CHECK_MSG(rc == SIMT_OK, "status %d: %s", rc, err.msg);
    uint32_t h[6];
    CHECK(pk_read_u32(g, out, h, 6) == SIMT_OK);
    CHECK_MSG(h[0] % 8 == 0, "acc (.align 8) is at shared address %u", h[0]);
    CHECK(h[0] >= h[1] + 3 || h[1] >= h[0] + 16); /* no overlap */
    CHECK_EQ((uint64_t)h[3] << 32 | h[2], 0x0123456789abcdefull);
    CHECK_EQ(h[4], 9);
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* 3-D grids and blocks                                                */
/* ------------------------------------------------------------------ */

static const char grid3d_ptx[] =
    PK_HEADER
    ".visible .entry grid3d(\n"
    "    .param .u64 grid3d_param_0\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<40>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [grid3d_param_0];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mov.u32 %r2, %tid.y;\n"
    "    mov.u32 %r3, %tid.z;\n"
    "    mov.u32 %r4, %ntid.x;\n"
    "    mov.u32 %r5, %ntid.y;\n"
    "    mov.u32 %r6, %ntid.z;\n"
    "    mov.u32 %r7, %ctaid.x;\n"
    "    mov.u32 %r8, %ctaid.y;\n"
    "    mov.u32 %r9, %ctaid.z;\n"
    "    mov.u32 %r10, %nctaid.x;\n"
    "    mov.u32 %r11, %nctaid.y;\n"
    "    mov.u32 %r12, %nctaid.z;\n"
    /* linear thread = (tz * ny + ty) * nx + tx */
    "    mad.lo.s32 %r13, %r3, %r5, %r2;\n"
    "    mad.lo.s32 %r13, %r13, %r4, %r1;\n"
    /* linear CTA = (cz * ncy + cy) * ncx + cx */
    "    mad.lo.s32 %r14, %r9, %r11, %r8;\n"
    "    mad.lo.s32 %r14, %r14, %r10, %r7;\n"
    /* gid = CTA * threads per CTA + thread */
    "    mul.lo.s32 %r15, %r4, %r5;\n"
    "    mul.lo.s32 %r15, %r15, %r6;\n"
    "    mad.lo.s32 %r16, %r14, %r15, %r13;\n"
    /* packed = tx | ty<<4 | tz<<8 | cx<<12 | cy<<16 | cz<<20
     *          | ntid.z<<24 | nctaid.y<<28 */
    "    shl.b32 %r17, %r2, 4;\n"
    "    or.b32 %r18, %r1, %r17;\n"
    "    shl.b32 %r17, %r3, 8;\n"
    "    or.b32 %r18, %r18, %r17;\n"
    "    shl.b32 %r17, %r7, 12;\n"
    "    or.b32 %r18, %r18, %r17;\n"
    "    shl.b32 %r17, %r8, 16;\n"
    "    or.b32 %r18, %r18, %r17;\n"
    "    shl.b32 %r17, %r9, 20;\n"
    "    or.b32 %r18, %r18, %r17;\n"
    "    shl.b32 %r17, %r6, 24;\n"
    "    or.b32 %r18, %r18, %r17;\n"
    "    shl.b32 %r17, %r11, 28;\n"
    "    or.b32 %r18, %r18, %r17;\n"
    "    mul.wide.u32 %rd2, %r16, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    st.global.u32 [%rd3], %r18;\n"
    "    ret;\n"
    "}\n";

TEST(hostapi_3d_grid_and_block)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "grid3d.ptx", grid3d_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    const uint32_t gx = 2, gy = 3, gz = 2, bx = 4, by = 2, bz = 3;
    const uint32_t per = bx * by * bz, total = gx * gy * gz * per;
    simt_devptr_t out = pk_alloc_u32(g, total, 0xdeadbeefu);
    CHECK(out);
    simt_arg_t a[1] = { SIMT_ARG(out) };
    CHECK_MSG(pk_run(g, m, "grid3d", pk_dim(gx, gy, gz), pk_dim(bx, by, bz), 0,
                     a, 1, &err) == SIMT_OK, "%s", err.msg);
    uint32_t *h = malloc(total * 4);
    CHECK(h);
    if (pk_read_u32(g, out, h, total) != SIMT_OK) {
        free(h);
        CHECK(0);
    }
    uint32_t bad = total, got = 0, want = 0;
    for (uint32_t cz = 0; cz < gz; cz++)
        for (uint32_t cy = 0; cy < gy; cy++)
            for (uint32_t cx = 0; cx < gx; cx++)
                for (uint32_t tz = 0; tz < bz; tz++)
                    for (uint32_t ty = 0; ty < by; ty++)
                        for (uint32_t tx = 0; tx < bx; tx++) {
                            uint32_t gid = ((cz * gy + cy) * gx + cx) * per +
                                           (tz * by + ty) * bx + tx;
                            uint32_t w = tx | ty << 4 | tz << 8 | cx << 12 |
                                         cy << 16 | cz << 20 | bz << 24 |
                                         gy << 28;
                            if (h[gid] != w && bad == total) {
                                bad = gid;
                                got = h[gid];
                                want = w;
                            }
                        }
    free(h);
    CHECK_MSG(bad == total, "thread %u wrote 0x%08x, expected 0x%08x", bad,
              got, want);
    const simt_stats_t *s = simt_gpu_stats(g);
    CHECK_EQ(s->ctas_completed, gx * gy * gz);
    /* 24 threads per CTA: one warp each; 38 instructions */
    CHECK_EQ(s->warp_insns, 38 * gx * gy * gz);
    CHECK_EQ(s->thread_insns, 38ull * total);
    pk_gpu_free(g);
}

/* ------------------------------------------------------------------ */
/* statistics of straight-line kernels                                 */
/* ------------------------------------------------------------------ */

static const char straight_ptx[] =
    PK_HEADER
    ".visible .entry straight(\n"
    "    .param .u64 straight_param_0,\n"
    "    .param .u64 straight_param_1\n"
    ")\n"
    "{\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    ld.param.u64 %rd1, [straight_param_0];   // 1\n"
    "    ld.param.u64 %rd2, [straight_param_1];   // 2\n"
    "    mov.u32 %r1, %tid.x;                     // 3\n"
    "    mul.wide.u32 %rd3, %r1, 4;               // 4\n"
    "    add.s64 %rd4, %rd1, %rd3;                // 5\n"
    "    ld.global.u32 %r2, [%rd4];               // 6\n"
    "    add.s32 %r3, %r2, %r1;                   // 7\n"
    "    add.s64 %rd5, %rd2, %rd3;                // 8\n"
    "    st.global.u32 [%rd5], %r3;               // 9\n"
    "    ret;                                     // 10\n"
    "}\n"
    /* guard-false lanes still count in thread_insns, not in accesses */
    ".visible .entry guarded(\n"
    "    .param .u64 guarded_param_0\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<2>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [guarded_param_0];    // 1\n"
    "    mov.u32 %r1, %tid.x;                     // 2\n"
    "    mul.wide.u32 %rd2, %r1, 4;               // 3\n"
    "    add.s64 %rd3, %rd1, %rd2;                // 4\n"
    "    setp.lt.u32 %p1, %r1, 8;                 // 5\n"
    "    @%p1 st.global.u32 [%rd3], %r1;          // 6 threads 0-7\n"
    "    @!%p1 ld.global.u32 %r1, [%rd3];         // 7 threads 8-39\n"
    "    ret;                                     // 8\n"
    "}\n";

TEST(hostapi_stats_straight_line_partial_warp)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    const simt_stats_t *s = simt_gpu_stats(g);
    CHECK_EQ(s->warp_insns, 0);
    CHECK_EQ(s->kernels_launched, 0);
    simt_module_t *m = pk_load(g, "straight.ptx", straight_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t in = pk_alloc_u32(g, 40, 100), out = pk_alloc_u32(g, 40, 0);
    CHECK(in && out);
    simt_arg_t a[2] = { SIMT_ARG(in), SIMT_ARG(out) };
    /* 40 threads: warp 0 full, warp 1 with 8 lanes */
    CHECK_MSG(pk_run(g, m, "straight", pk_dim(1, 1, 1), pk_dim(40, 1, 1), 0,
                     a, 2, &err) == SIMT_OK, "%s", err.msg);
    CHECK_EQ(s->warp_insns, 2 * 10);
    CHECK_EQ(s->thread_insns, 40 * 10);
    CHECK_EQ(s->global_loads, 40);
    CHECK_EQ(s->global_stores, 40);
    CHECK_EQ(s->kernels_launched, 1);
    CHECK_EQ(s->ctas_completed, 1);
    CHECK_EQ(s->divergent_branches, 0);
    CHECK_EQ(s->barriers, 0);
    CHECK_EQ(s->shared_loads + s->shared_stores + s->local_loads +
             s->local_stores + s->atomics, 0);
    CHECK_EQ(s->gpu_sim_cycle, 0); /* functional mode */
    uint32_t h[40];
    CHECK(pk_read_u32(g, out, h, 40) == SIMT_OK);
    for (uint32_t t = 0; t < 40; t++)
        CHECK_EQ(h[t], 100 + t);
    /* 3 CTAs of 40 more: counts accumulate */
    CHECK_MSG(pk_run(g, m, "straight", pk_dim(3, 1, 1), pk_dim(40, 1, 1), 0,
                     a, 2, &err) == SIMT_OK, "%s", err.msg);
    CHECK_EQ(s->warp_insns, 2 * 10 + 3 * 2 * 10);
    CHECK_EQ(s->thread_insns, 40 * 10 + 3 * 40 * 10);
    CHECK_EQ(s->kernels_launched, 2);
    CHECK_EQ(s->ctas_completed, 4);
    CHECK_EQ(s->global_loads, 4 * 40);
    /* a block of 33: the second warp has a single lane */
    CHECK_MSG(pk_run(g, m, "straight", pk_dim(1, 1, 1), pk_dim(33, 1, 1), 0,
                     a, 2, &err) == SIMT_OK, "%s", err.msg);
    CHECK_EQ(s->warp_insns, 80 + 20);
    CHECK_EQ(s->thread_insns, 1600 + 330);
    pk_gpu_free(g);
}

TEST(hostapi_stats_guarded_instructions)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "straight.ptx", straight_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t buf = pk_alloc_u32(g, 40, 0);
    CHECK(buf);
    simt_arg_t a[1] = { SIMT_ARG(buf) };
    CHECK_MSG(pk_run(g, m, "guarded", pk_dim(1, 1, 1), pk_dim(40, 1, 1), 0, a,
                     1, &err) == SIMT_OK, "%s", err.msg);
    const simt_stats_t *s = simt_gpu_stats(g);
    /* 8 instructions per warp, guard-false included (docs/stats.md) */
    CHECK_EQ(s->warp_insns, 16);
    CHECK_EQ(s->thread_insns, 40 * 8);
    CHECK_EQ(s->global_stores, 8);
    CHECK_EQ(s->global_loads, 32);
    CHECK_EQ(s->divergent_branches, 0);
    pk_gpu_free(g);
}

/* A device function that calls itself without end (line 7 of the text):
 * recursion runs until the reconvergence stack overflows, a fault at the
 * call. */
TEST(hostapi_runaway_recursion_faults)
{
    static const char text[] = PK_HEADER
        ".func f()\n"
        "{\n"
        "    call f;\n"
        "    ret;\n"
        "}\n"
        ".visible .entry k()\n"
        "{\n"
        "    call f;\n"
        "    ret;\n"
        "}\n";
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(NULL, &err);
    CHECK(g != NULL);
    simt_module_t *m = g ? pk_load(g, "rec.ptx", text, &err) : NULL;
    int rc = m ? pk_run(g, m, "k", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, NULL, 0, &err)
               : err.status;
    CHECK_EQ(rc, SIMT_EFAULT);
    CHECK_MSG(strstr(err.msg, "rec.ptx:7: fault:") &&
              strstr(err.msg, "stack overflow"), "%s", err.msg);
    pk_gpu_free(g);
}
