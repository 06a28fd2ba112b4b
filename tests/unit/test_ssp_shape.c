/* test_ssp_shape.c: Scratchpad Sharing's compiler passes only where a
 * launch pairs blocks (reference 000 §6.7-§6.8: "No relssp is inserted,
 * and every block is unshared"; gpu/compiled.h, docs/compiler.md).
 *
 * One kernel, two launch shapes on a small SM whose numbers are worked out
 * here (the same SM as test_ssp_timing.c):
 *   gpgpu_shmem_size R = 1000 B, the kernel's static scratchpad 800 B,
 *   t = 0.1, one warp per CTA (the other limits are far above 2).
 *   Shape A, no dynamic scratchpad: R_tb = 800, m = floor(1000/800) = 1
 *     and the scratchpad is the strict limiter; priv = ceil(80) = 80,
 *     n = min(1 + floor(200/80), 2) = 2: one pair.  It runs the passes'
 *     code.
 *   Shape B, 200 dynamic bytes: R_tb = 800 + 200 = 1000, m = 1,
 *     priv = 100, n = 1 + floor((1000 - 1000)/100) = 1: no pair.  It runs
 *     the code compiled without the passes.
 * The kernel is straight-line: each thread stores tid at offset 400 + 4*tid
 * (the shared region: at or above the unshared limit 80), loads it back
 * and writes tid + 1 to out[ctaid * 32 + tid].  relssp (opt) goes after the
 * load, once per thread: one relssp per warp, so 2 CTAs of shape A run 2
 * relssp warp-instructions (ssp_relssp_insns), shape B none, and A's
 * warp_insns are the pass-free run's plus 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/compiled.h"
#include "harness.h"
#include "ptx_kernel_helpers.h"
#include "simt/stats.h"

static const char shape_ptx[] = PK_HEADER
    ".visible .entry shape(.param .u64 out)\n"
    "{\n"
    ".reg .b32 %r<10>;\n.reg .b64 %rd<4>;\n"
    ".shared .align 4 .b8 s[800];\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, s;\n"
    "shl.b32 %r4, %r1, 2;\nadd.u32 %r5, %r3, %r4;\n"
    "st.shared.u32 [%r5+400], %r1;\nld.shared.u32 %r6, [%r5+400];\n"
    "add.u32 %r6, %r6, 1;\n"
    "shl.b32 %r7, %r2, 5;\nadd.u32 %r7, %r7, %r1;\nmul.wide.u32 %rd2, %r7, 4;\n"
    "add.u64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;\n"
    "ret;\n}\n";

#define SHAPE_SM "functional=0", "gpgpu_n_clusters=1", \
    "gpgpu_n_cores_per_cluster=1", "gpgpu_shmem_size=1000", \
    "gpgpu_ideal_memory=1"

typedef struct shape_run {
    simt_stats_t st;
    uint64_t warp_insns[2];  /* per launch: A, then B */
    uint32_t out[2][64];
    int rc;
    char msg[4200];
} shape_run_t;

/* Shape A, then shape B, two CTAs of 32 threads each. */
static shape_run_t run_shapes(const char *const *sets)
{
    shape_run_t r = { .rc = -1 };
    simt_error_t err = { 0 };
    simt_gpu_t *g = pk_gpu(sets, &err);
    simt_module_t *m = g ? pk_load(g, "shape.ptx", shape_ptx, &err) : NULL;
    for (int s = 0; m && s < 2; s++) {
        simt_devptr_t out = pk_alloc_u32(g, 64, 0);
        simt_arg_t a[1] = { SIMT_ARG(out) };
        r.rc = out ? pk_run(g, m, "shape", pk_dim(2, 1, 1), pk_dim(32, 1, 1),
                            s ? 200 : 0, a, 1, &err) : -1;
        if (r.rc != SIMT_OK || pk_read_u32(g, out, r.out[s], 64) != SIMT_OK)
            break;
    }
    if (r.rc == SIMT_OK) {
        r.st = *simt_gpu_stats(g);
        const simt_kernel_stats_t *k;
        if (simt_gpu_kernels(g, &k) == 2) {
            r.warp_insns[0] = k[0].warp_insns;
            r.warp_insns[1] = k[1].warp_insns;
        }
    }
    snprintf(r.msg, sizeof r.msg, "%s", err.msg);
    pk_gpu_free(g);
    return r;
}

static void check_outputs(const shape_run_t *r)
{
    for (int s = 0; s < 2; s++)
        for (uint32_t i = 0; i < 64; i++)
            CHECK_MSG(r->out[s][i] == i % 32 + 1, "shape %c out[%u] = %u",
                      "AB"[s], i, r->out[s][i]);
}

/* With sharing on, shape A runs relssp and shape B does not; B runs
 * exactly the pass-free code (as many warp instructions as without the
 * passes), A two more. */
TEST(ssp_shape_passes_only_where_blocks_pair)
{
    const char *none[] = { SHAPE_SM, "ssp_sharing=1", NULL };
    const char *opt[] = { SHAPE_SM, "ssp_sharing=1", "ssp_relssp=opt",
                          "ssp_layout=min", NULL };
    shape_run_t n = run_shapes(none), o = run_shapes(opt);
    CHECK_MSG(n.rc == SIMT_OK && o.rc == SIMT_OK, "runs: %s / %s", n.msg, o.msg);
    check_outputs(&n);
    check_outputs(&o);
    CHECK_EQ(o.st.ssp_pairs, 1);        /* A: 1 pair, B: none */
    CHECK_EQ(o.st.ssp_relssp_insns, 2); /* A's 2 warps, once each */
    CHECK_EQ(n.st.ssp_relssp_insns, 0);
    CHECK_EQ(o.warp_insns[0], n.warp_insns[0] + 2);
    CHECK_EQ(o.warp_insns[1], n.warp_insns[1]);
}

/* Without ssp_sharing nothing pairs and nothing is decided: both shapes run
 * the passes as selected (a compiler experiment, as simt opt writes it). */
TEST(ssp_shape_passes_as_selected_without_sharing)
{
    const char *opt[] = { SHAPE_SM, "ssp_relssp=opt", NULL };
    shape_run_t o = run_shapes(opt);
    CHECK_MSG(o.rc == SIMT_OK, "run: %s", o.msg);
    check_outputs(&o);
    CHECK_EQ(o.st.ssp_pairs, 0);
    CHECK_EQ(o.st.ssp_relssp_insns, 4);
}

/* The code of a launch that does not pair is byte for byte what the
 * pipeline without the passes makes (printed PTX equal); the code of one
 * that pairs has the relssp.  The plain code is built once, on demand. */
TEST(ssp_shape_plain_code_is_the_pass_free_pipeline)
{
    simt_error_t err = { 0 };
    ptx_module_t *m = ptx_parse("shape.ptx", shape_ptx, strlen(shape_ptx), &err);
    CHECK_MSG(m, "parse: %s", err.msg);
    simt_config_t cfg, off;
    simt_config_defaults(&cfg);
    const char *sets[] = { SHAPE_SM, "ssp_sharing=1", "ssp_relssp=opt", NULL };
    for (int i = 0; sets[i]; i++)
        CHECK(simt_config_set(&cfg, sets[i], "test", &err) == SIMT_OK);
    simt_config_defaults(&off);
    for (int i = 0; i < 5; i++) /* SHAPE_SM alone */
        CHECK(simt_config_set(&off, sets[i], "test", &err) == SIMT_OK);
    CHECK(compiler_selects_ssp(&cfg));
    CHECK(!compiler_selects_ssp(&off));
    gpu_kernel_codes_t k;
    memset(&k, 0, sizeof k);
    const gpu_compiled_t *a = NULL, *b = NULL, *b2 = NULL;
    CHECK(gpu_kernel_code(&k, m, 0, &cfg, 0, -1, 32, 0, &a, &err) == SIMT_OK);
    CHECK(k.plain.prog == NULL); /* not needed yet */
    CHECK(gpu_kernel_code(&k, m, 0, &cfg, 0, -1, 32, 200, &b, &err) == SIMT_OK);
    CHECK(gpu_kernel_code(&k, m, 0, &cfg, 0, -1, 32, 200, &b2, &err) == SIMT_OK);
    CHECK(a == &k.configured);
    CHECK(b == &k.plain && b2 == b);
    CHECK_EQ(gpu_compiled_pairs(a, &cfg, 32, 0), 1);
    CHECK_EQ(gpu_compiled_pairs(a, &cfg, 32, 200), 0);
    gpu_compiled_t ref;
    CHECK(gpu_compile_kernel(m, 0, &off, 0, -1, &ref, &err) == SIMT_OK);
    char *pa = pk_print_module(a->unit.mod), *pb = pk_print_module(b->unit.mod);
    char *pr = pk_print_module(ref.unit.mod);
    CHECK(pa && pb && pr);
    if (pa && pb && pr) {
        CHECK(strstr(pa, "relssp") != NULL);
        CHECK(strstr(pb, "relssp") == NULL);
        CHECK(strcmp(pb, pr) == 0);
        CHECK_EQ(b->regs, ref.regs);
        CHECK_EQ(b->prog->ncode, ref.prog->ncode);
    }
    free(pa);
    free(pb);
    free(pr);
    gpu_compiled_free(&ref);
    gpu_kernel_codes_free(&k);
    ptx_module_free(m);
}
