/* test_cta004.c: reference 004 §8's placement and locality cases on the
 * whole timing model (fermi-cta: 28 SMs, one per cluster), with kernels
 * written by hand so that each expected value follows from the rule:
 *
 *  - baseline RR, T_max = 2, 100 CTAs: the first wave puts CTA i on SM
 *    i mod 28 (each cluster places one CTA per cycle, clusters in order),
 *    so CTA 28+i also lands on SM i; CTA 5 has almost no work and finishes
 *    first, so the next unissued CTA, 56, goes to SM 5;
 *  - BCS + SCA on a 16-wide 2D kernel reading 4 bytes a thread: CTAs 2k
 *    and 2k+1 read the two 64-byte halves of the same 128-byte lines, so
 *    with the pair on one SM and its warps alternating, the second half's
 *    access finds the line in flight or present: about half the L1 misses
 *    of RR + GTO, which splits every pair over two SMs. */
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "ptx_kernel_helpers.h"
#include "simt/stats.h"

static simt_gpu_t *fermi_cta(const char *const *sets, simt_error_t *err)
{
    simt_config_t c;
    simt_config_defaults(&c);
    if (simt_config_load_file(&c, "configs/fermi-cta.cfg", err) != SIMT_OK)
        return NULL;
    for (; sets && *sets; sets++)
        if (simt_config_set(&c, *sets, "--set", err) != SIMT_OK)
            return NULL;
    if (simt_config_validate(&c, err) != SIMT_OK)
        return NULL;
    return simt_gpu_create(&c, err);
}

/* Thread 0 of each CTA writes %smid to out[ctaid]; CTA 5 spins once, the
 * others `spin` times. */
static const char smid_ptx[] = PK_HEADER
    ".visible .entry smid_rr(.param .u64 out, .param .u32 spin)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .reg .pred %p<3>;\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  ld.param.u32 %r3, [spin];\n"
    "  setp.eq.u32 %p1, %r1, 5;\n"
    "  selp.b32 %r3, 1, %r3, %p1;\n"
    "  mov.u32 %r4, 0;\n"
    "LOOP:\n"
    "  add.u32 %r4, %r4, 1;\n"
    "  setp.lt.u32 %p2, %r4, %r3;\n"
    "  @%p2 bra LOOP;\n"
    "  setp.ne.u32 %p1, %r2, 0;\n"
    "  @%p1 bra DONE;\n"
    "  mov.u32 %r5, %smid;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r5;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

TEST(cta004_rr_first_wave_and_refill)
{
    static const char *const sets[] = { "gpgpu_shader_cta=2", NULL };
    simt_error_t err = { 0 };
    simt_gpu_t *gpu = fermi_cta(sets, &err);
    CHECK_MSG(gpu, "%s", err.msg);
    if (!gpu)
        return;
    simt_module_t *mod = pk_load(gpu, "smid.ptx", smid_ptx, &err);
    CHECK_MSG(mod, "%s", err.msg);
    simt_devptr_t out = pk_alloc_u32(gpu, 100, 0xffffffffu);
    uint32_t spin = 400;
    simt_arg_t args[] = { SIMT_ARG(out), SIMT_ARG(spin) };
    CHECK_EQ(pk_run(gpu, mod, "smid_rr", pk_dim(100, 1, 1), pk_dim(32, 1, 1), 0, args, 2,
                    &err), SIMT_OK);
    uint32_t sm[100];
    CHECK_EQ(pk_read_u32(gpu, out, sm, 100), SIMT_OK);
    for (unsigned i = 0; i < 56; i++)
        CHECK_MSG(sm[i] == i % 28, "CTA %u on SM %u, want %u", i, sm[i], i % 28);
    CHECK_MSG(sm[56] == 5, "CTA 56 on SM %u, want 5 (CTA 5 finished first)", sm[56]);
    simt_gpu_destroy(gpu);
}

/* A 16x16 CTA reads in[row * W + col] (W = 16 x gridDim.x), 4 bytes a
 * thread; thread (0,0) stores the CTA's first value to out[linear CTA]. */
static const char pairs_ptx[] = PK_HEADER
    ".visible .entry pairs(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  mov.u32 %r2, %ctaid.y;\n"
    "  mov.u32 %r3, %tid.x;\n"
    "  mov.u32 %r4, %tid.y;\n"
    "  mov.u32 %r5, %nctaid.x;\n"
    "  shl.b32 %r6, %r5, 4;\n"
    "  shl.b32 %r7, %r2, 4;\n"
    "  add.u32 %r7, %r7, %r4;\n"
    "  shl.b32 %r8, %r1, 4;\n"
    "  add.u32 %r8, %r8, %r3;\n"
    "  mad.lo.u32 %r9, %r7, %r6, %r8;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mul.wide.u32 %rd3, %r9, 4;\n"
    "  add.u64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r10, [%rd4];\n"
    "  or.b32 %r11, %r3, %r4;\n"
    "  setp.ne.u32 %p1, %r11, 0;\n"
    "  @%p1 bra DONE;\n"
    "  mad.lo.u32 %r11, %r2, %r5, %r1;\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  cvta.to.global.u64 %rd2, %rd2;\n"
    "  mul.wide.u32 %rd5, %r11, 4;\n"
    "  add.u64 %rd6, %rd2, %rd5;\n"
    "  st.global.u32 [%rd6], %r10;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

/* The L1 miss rate of the pairs kernel on a 56 x 2 grid under `sets`, or
 * -1 with the reason in why[] (a failed run, or a stored value that is not
 * the element it should have read: value = element index). */
static double pairs_miss_rate(const char *const *sets, char *why, size_t size)
{
    enum { GX = 56, GY = 2, W = 16 * GX, H = 16 * GY };
    simt_error_t err = { 0 };
    double rate = -1.0;
    uint32_t *host = malloc(W * H * sizeof *host), got[GX * GY];
    simt_gpu_t *gpu = fermi_cta(sets, &err);
    simt_module_t *mod = gpu ? pk_load(gpu, "pairs.ptx", pairs_ptx, &err) : NULL;
    snprintf(why, size, "%s", err.msg[0] ? err.msg : "host memory");
    if (!host || !mod)
        goto done;
    for (unsigned i = 0; i < W * H; i++)
        host[i] = i;
    simt_devptr_t in = pk_alloc_u32(gpu, W * H, 0), out = pk_alloc_u32(gpu, GX * GY, 0);
    simt_arg_t args[] = { SIMT_ARG(in), SIMT_ARG(out) };
    if (simt_memcpy_htod(gpu, in, host, W * H * sizeof *host, &err) != SIMT_OK ||
        pk_run(gpu, mod, "pairs", pk_dim(GX, GY, 1), pk_dim(16, 16, 1), 0, args, 2,
               &err) != SIMT_OK ||
        pk_read_u32(gpu, out, got, GX * GY) != SIMT_OK) {
        snprintf(why, size, "%s", err.msg);
        goto done;
    }
    for (unsigned by = 0; by < GY; by++)
        for (unsigned bx = 0; bx < GX; bx++)
            if (got[by * GX + bx] != by * 16 * W + bx * 16) {
                snprintf(why, size, "CTA (%u,%u) stored %u", bx, by, got[by * GX + bx]);
                goto done;
            }
    const simt_stats_t *st = simt_gpu_stats(gpu);
    if (st->l1d_accesses)
        rate = (double)st->l1d_misses / (double)st->l1d_accesses;
done:
    free(host);
    if (gpu)
        simt_gpu_destroy(gpu);
    return rate;
}

TEST(cta004_bcs_sca_halves_l1_misses_on_16_wide_pairs)
{
    static const char *const rr_gto[] = { "gpgpu_cta_policy=rr", "gpgpu_scheduler=gto", NULL };
    static const char *const bcs_sca[] = { "gpgpu_cta_policy=bcs", "gpgpu_scheduler=sca", NULL };
    char why[4096];
    double base = pairs_miss_rate(rr_gto, why, sizeof why);
    CHECK_MSG(base >= 0.0, "%s", why);
    double paired = pairs_miss_rate(bcs_sca, why, sizeof why);
    CHECK_MSG(paired >= 0.0, "%s", why);
    CHECK_MSG(base > 0.9, "RR+GTO miss rate %.3f: every line half should miss", base);
    CHECK_MSG(paired > 0.0 && paired < 0.6 * base,
              "BCS+SCA miss rate %.3f, RR+GTO %.3f: want about half", paired, base);
}

/* One CTA of 64 threads with 400 bytes of scratchpad, alone on one SM:
 * what power gating keeps powered is exactly its allocation for as long as
 * it is resident, so rf_alloc_reg_cycles = 2 warps x 32 threads x its
 * registers rounded up to gpgpu_reg_alloc_unit (4 on fermi-cta), times the
 * SM's active cycles, and smem_alloc_byte_cycles = 400 x those cycles. */
static const char alloc_ptx[] = PK_HEADER
    ".visible .entry alloc1(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .reg .pred %p<2>;\n"
    "  .shared .align 4 .b8 buf[400];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  mov.u32 %r3, buf;\n"
    "  add.u32 %r3, %r3, %r2;\n"
    "  st.shared.u32 [%r3], %r1;\n"
    "  bar.sync 0;\n"
    "  ld.shared.u32 %r4, [buf+4];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r4;\n"
    "  ret;\n"
    "}\n";

TEST(cta004_power_gating_accounts_the_allocation)
{
    static const char *const sets[] = { "gpgpu_n_clusters=1", NULL };
    simt_error_t err = { 0 };
    simt_gpu_t *gpu = fermi_cta(sets, &err);
    CHECK_MSG(gpu, "%s", err.msg);
    if (!gpu)
        return;
    simt_module_t *mod = pk_load(gpu, "alloc.ptx", alloc_ptx, &err);
    CHECK_MSG(mod, "%s", err.msg);
    simt_devptr_t out = pk_alloc_u32(gpu, 64, 0);
    simt_arg_t args[] = { SIMT_ARG(out) };
    CHECK_EQ(pk_run(gpu, mod, "alloc1", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, args, 1, &err),
             SIMT_OK);
    uint32_t got[64];
    CHECK_EQ(pk_read_u32(gpu, out, got, 64), SIMT_OK);
    CHECK_EQ(got[7], 1); /* every thread read thread 1's word */
    const simt_kernel_stats_t *k;
    CHECK_EQ(simt_gpu_kernels(gpu, &k), 1);
    const simt_stats_t *st = simt_gpu_stats(gpu);
    uint64_t regs = 64ull * ((k[0].regs_per_thread + 3) / 4 * 4);
    CHECK(st->sm_active_cycles > 0);
    CHECK_EQ(k[0].smem_per_cta, 400);
    CHECK_EQ(st->rf_alloc_reg_cycles, regs * st->sm_active_cycles);
    CHECK_EQ(st->smem_alloc_byte_cycles, 400 * st->sm_active_cycles);
    simt_gpu_destroy(gpu);
}
