/* test_timing.c: whole-pipeline sanity of the timing model on hand-written
 * kernels, with expectations derived from the documented pipeline
 * (core/sm.h): an instruction issued at cycle t has its operands read at
 * t+1, enters its pipeline at t+2 and writes back at t+2+latency, when a
 * dependent instruction can issue, with a perfect instruction cache (the
 * buffer refills the cycle after it empties).  An integer add has latency
 * 4 (pipe.h),
 * so each add of a dependent chain costs 6 cycles; independent adds issue
 * one per cycle.  Differences between two chain lengths cancel the fixed
 * start-up and drain cost. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "ptx_kernel_helpers.h"

/* A kernel of one warp doing `n` adds, each on the previous result when
 * `dependent`, else each into its own register from %r0; then a store so
 * that nothing is dead. */
static char *chain_kernel(unsigned n, int dependent)
{
    size_t cap = 512 + (size_t)n * 48;
    char *t = malloc(cap);
    if (!t)
        return NULL;
    size_t k = (size_t)snprintf(t, cap, PK_HEADER
        ".visible .entry chain(.param .u64 out)\n{\n"
        ".reg .b32 %%r<%u>;\n.reg .b64 %%rd<2>;\n"
        "ld.param.u64 %%rd1, [out];\nmov.u32 %%r0, %%tid.x;\n", n + 2);
    for (unsigned i = 1; i <= n; i++)
        k += (size_t)snprintf(t + k, cap - k, "add.s32 %%r%u, %%r%u, 1;\n", i,
                              dependent ? i - 1 : 0);
    snprintf(t + k, cap - k, "st.global.u32 [%%rd1], %%r%u;\nret;\n}\n", n);
    return t;
}

/* gpu_sim_cycle of one run of the chain kernel on one warp under the
 * timing model with `timing` settings, or 0. */
static uint64_t cycles_with(unsigned n, int dependent, const char *const *timing)
{
    simt_error_t err;
    char *text = chain_kernel(n, dependent);
    simt_gpu_t *g = text ? pk_gpu(timing, &err) : NULL;
    simt_module_t *m = g ? pk_load(g, "chain.ptx", text, &err) : NULL;
    uint64_t cycles = 0;
    if (m) {
        simt_devptr_t out = pk_alloc_u32(g, 1, 0);
        simt_arg_t a[1] = { SIMT_ARG(out) };
        if (pk_run(g, m, "chain", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a, 1,
                   &err) == SIMT_OK)
            cycles = simt_gpu_stats(g)->gpu_sim_cycle;
        else
            printf("  %s\n", err.msg);
    }
    pk_gpu_free(g);
    free(text);
    return cycles;
}

/* The parameter load misses in the constant cache; with the memory below
 * answering in 20 cycles its line is back while the first adds issue, so
 * the differences below stay exact. */
static uint64_t cycles_of(unsigned n, int dependent)
{
    static const char *const timing[] = { "functional=0", "gpgpu_ideal_memory=1",
                                          "gpgpu_ideal_mem_latency=20",
                                          "gpgpu_perfect_inst_cache=1", NULL };
    return cycles_with(n, dependent, timing);
}

TEST(timing_dependent_adds_cost_latency_plus_two)
{
    uint64_t a = cycles_of(100, 1), b = cycles_of(200, 1);
    CHECK(a && b);
    CHECK_MSG(b - a == 100 * (4 + 2), "100 more dependent adds took %llu "
              "cycles, want 600", (unsigned long long)(b - a));
}

TEST(timing_independent_adds_issue_one_per_cycle)
{
    uint64_t a = cycles_of(100, 0), b = cycles_of(200, 0);
    CHECK(a && b);
    CHECK_MSG(b - a == 100, "100 more independent adds took %llu cycles, "
              "want 100", (unsigned long long)(b - a));
}

/* On 8-wide SIMD a warp takes 32 / 8 = 4 cycles to issue, so independent
 * adds go one every 4 cycles. */
TEST(timing_narrow_simd_issues_a_warp_over_several_cycles)
{
    static const char *const narrow[] = { "functional=0", "gpgpu_simd_width=8",
                                          "gpgpu_perfect_inst_cache=1", NULL };
    uint64_t a = cycles_with(100, 0, narrow), b = cycles_with(200, 0, narrow);
    CHECK(a && b);
    CHECK_MSG(b - a == 400, "100 more independent adds took %llu cycles, "
              "want 400", (unsigned long long)(b - a));
}

/* Two identical timing runs give identical statistics. */
TEST(timing_is_deterministic)
{
    static const char *const timing[] = { "functional=0", NULL };
    simt_stats_t s[2];
    for (int r = 0; r < 2; r++) {
        simt_error_t err;
        char *text = chain_kernel(50, 1);
        simt_gpu_t *g = pk_gpu(timing, &err);
        CHECK_MSG(g, "%s", err.msg);
        simt_module_t *m = pk_load(g, "chain.ptx", text, &err);
        free(text);
        CHECK_MSG(m, "%s", err.msg);
        simt_devptr_t out = pk_alloc_u32(g, 1, 0);
        simt_arg_t a[1] = { SIMT_ARG(out) };
        CHECK_EQ(pk_run(g, m, "chain", pk_dim(7, 1, 1), pk_dim(96, 1, 1), 0, a,
                        1, &err), SIMT_OK);
        s[r] = *simt_gpu_stats(g);
        pk_gpu_free(g);
    }
    CHECK(memcmp(&s[0], &s[1], sizeof s[0]) == 0);
    CHECK(s[0].gpu_sim_cycle > 0);
}

/* Cycles of two launches of the 200-add chain (one warp each), on streams
 * s0 and s1, synchronised together; 0 on failure. */
static uint64_t two_launch_cycles(uint32_t s0, uint32_t s1)
{
    /* ideal memory: the caches would carry state from one launch to the
     * next (a warm L2), and the relations below are exact without them */
    static const char *const timing[] = { "functional=0", "gpgpu_ideal_memory=1",
                                          "gpgpu_perfect_inst_cache=1", NULL };
    simt_error_t err;
    char *text = chain_kernel(200, 1);
    simt_gpu_t *g = text ? pk_gpu(timing, &err) : NULL;
    simt_module_t *m = g ? pk_load(g, "chain.ptx", text, &err) : NULL;
    uint64_t cycles = 0;
    if (m) {
        simt_devptr_t out = pk_alloc_u32(g, 2, 0);
        simt_devptr_t out1 = out + 4;
        simt_arg_t a0[1] = { SIMT_ARG(out) }, a1[1] = { SIMT_ARG(out1) };
        simt_launch_t l = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 },
                            .stream = s0 };
        int rc = simt_launch_kernel(g, m, "chain", &l, a0, 1, &err);
        l.stream = s1;
        if (rc == SIMT_OK)
            rc = simt_launch_kernel(g, m, "chain", &l, a1, 1, &err);
        if (rc == SIMT_OK)
            rc = simt_synchronize(g, &err);
        if (rc == SIMT_OK)
            cycles = simt_gpu_stats(g)->gpu_sim_cycle;
        else
            printf("  %s\n", err.msg);
    }
    pk_gpu_free(g);
    free(text);
    return cycles;
}

/* The same stream runs the second launch after the first: twice one run.
 * Different streams run both at once, on two SMs placed in the same cycle:
 * exactly one run. */
TEST(timing_streams_order_and_concurrency)
{
    static const char *const ideal[] = { "functional=0", "gpgpu_ideal_memory=1",
                                         "gpgpu_perfect_inst_cache=1", NULL };
    uint64_t one = cycles_with(200, 1, ideal);
    uint64_t same = two_launch_cycles(0, 0), diff = two_launch_cycles(0, 1);
    CHECK(one && same && diff);
    CHECK_MSG(same == 2 * one, "same stream: %llu cycles, one launch %llu",
              (unsigned long long)same, (unsigned long long)one);
    CHECK_MSG(diff == one, "two streams: %llu cycles, one launch %llu",
              (unsigned long long)diff, (unsigned long long)one);
}

/* A GPU with an ideal memory of 10 cycles and a perfect instruction
 * cache, the 100-add chain kernel loaded (*m) and a word for its output
 * (*out); NULL on failure (reported). */
static simt_gpu_t *chain_gpu(simt_module_t **m, simt_devptr_t *out)
{
    static const char *const timing[] = { "functional=0", "gpgpu_ideal_memory=1",
                                          "gpgpu_ideal_mem_latency=10",
                                          "gpgpu_perfect_inst_cache=1", NULL };
    simt_error_t err = { 0 };
    char *text = chain_kernel(100, 1);
    simt_gpu_t *g = text ? pk_gpu(timing, &err) : NULL;
    *m = g ? pk_load(g, "chain.ptx", text, &err) : NULL;
    free(text);
    if (!*m) {
        printf("  chain kernel: %s\n", err.msg[0] ? err.msg : "out of memory");
        pk_gpu_free(g);
        return NULL;
    }
    *out = pk_alloc_u32(g, 1, 0);
    return g;
}

/* Launches on streams 0, 0, 1, 0, 1 (one warp of the 100-add chain each):
 * a launch is ready once the launch before it in its own stream has
 * completed, wherever it stands in the queue.  So the third launch (the
 * first of stream 1) starts at cycle 0 beside the first; the second starts
 * when the first ends, the fourth when the second ends, the fifth when the
 * third ends; stream 0's three launches run back to back. */
TEST(timing_streams_interleaved_in_the_queue)
{
    static const uint32_t stream[5] = { 0, 0, 1, 0, 1 };
    simt_error_t err;
    simt_module_t *m;
    simt_devptr_t out;
    simt_gpu_t *g = chain_gpu(&m, &out);
    CHECK(g);
    simt_arg_t a[1] = { SIMT_ARG(out) };
    for (int i = 0; i < 5; i++) {
        simt_launch_t l = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 },
                            .stream = stream[i] };
        CHECK_EQ(simt_launch_kernel(g, m, "chain", &l, a, 1, &err), SIMT_OK);
    }
    CHECK_EQ(simt_synchronize(g, &err), SIMT_OK);
    const simt_kernel_stats_t *k;
    CHECK_EQ(simt_gpu_kernels(g, &k), 5);
    CHECK_EQ(k[0].start_cycle, 0);
    CHECK_EQ(k[2].start_cycle, 0);
    CHECK_EQ(k[1].start_cycle, k[0].end_cycle);
    CHECK_EQ(k[3].start_cycle, k[1].end_cycle);
    CHECK_EQ(k[4].start_cycle, k[2].end_cycle);
    CHECK_EQ(k[3].end_cycle, simt_gpu_stats(g)->gpu_sim_cycle);
    CHECK(k[4].end_cycle < k[3].end_cycle);
    pk_gpu_free(g);
}

/* Per-kernel records: two launches on one stream, the second placed the
 * cycle after the first completes; one warp on a 48-slot SM is an achieved
 * occupancy of at most 1/48 (a little less: a CTA stays resident until its
 * last store is acknowledged, here after 10 cycles of an ideal memory,
 * while its warp has exited). */
TEST(timing_kernel_records)
{
    simt_error_t err;
    simt_module_t *m;
    simt_devptr_t out;
    simt_gpu_t *g = chain_gpu(&m, &out);
    CHECK(g);
    simt_arg_t a[1] = { SIMT_ARG(out) };
    CHECK_EQ(pk_launch(g, m, "chain", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a,
                       1, &err), SIMT_OK);
    CHECK_EQ(pk_run(g, m, "chain", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a, 1,
                    &err), SIMT_OK);
    const simt_kernel_stats_t *k;
    CHECK_EQ(simt_gpu_kernels(g, &k), 2);
    CHECK(!strcmp(k[0].name, "chain"));
    CHECK_EQ(k[0].start_cycle, 0);
    CHECK_EQ(k[1].start_cycle, k[0].end_cycle);
    CHECK_EQ(k[1].end_cycle, simt_gpu_stats(g)->gpu_sim_cycle);
    CHECK_EQ(k[0].warp_insns, k[1].warp_insns);
    CHECK_EQ(k[0].thread_insns, 32 * k[0].warp_insns);
    CHECK_MSG(k[0].achieved_occupancy <= 1.0 / 48 &&
              k[0].achieved_occupancy > 0.9 / 48, "occupancy %f",
              k[0].achieved_occupancy);
    CHECK_EQ(k[0].ctas_per_sm, 8);
    CHECK(!strcmp(k[0].limiter, "CTA slots"));
    pk_gpu_free(g);
}

/* Per-SM records: 17 CTAs of two warps on the 15 SMs of the default
 * machine (15 clusters of one SM) go one per cluster per cycle, round
 * robin: SMs 0..14 take CTAs 0..14 in the first cycle and SMs 0 and 1 take
 * CTAs 15 and 16 in the next, so SMs 0 and 1 run two CTAs and the others
 * one, and each SM's instructions are its CTAs' (every warp runs the same
 * straight-line code with all 32 lanes).  An SM hosting one CTA has two of
 * its 48 warp slots filled while it is active, but for the few cycles its
 * CTA waits for its last store's acknowledgement with both warps exited. */
TEST(timing_sm_records)
{
    simt_error_t err;
    simt_module_t *m;
    simt_devptr_t out;
    simt_gpu_t *g = chain_gpu(&m, &out);
    CHECK(g);
    simt_arg_t a[1] = { SIMT_ARG(out) };
    CHECK_EQ(pk_run(g, m, "chain", pk_dim(17, 1, 1), pk_dim(64, 1, 1), 0, a, 1,
                    &err), SIMT_OK);
    const simt_sm_stats_t *sm;
    CHECK_EQ(simt_gpu_sms(g, &sm), 15);
    uint64_t warp_insns = 0, one_cta = sm[2].warp_insns;
    for (unsigned i = 0; i < 15; i++) {
        CHECK_EQ(sm[i].sm, i);
        uint64_t ctas = i < 2 ? 2 : 1;
        CHECK_EQ(sm[i].ctas_completed, ctas);
        CHECK_EQ(sm[i].warp_insns, ctas * one_cta);
        CHECK_EQ(sm[i].thread_insns, 32 * sm[i].warp_insns);
        CHECK(sm[i].resident_warp_cycles <= 2 * ctas * sm[i].active_cycles);
        warp_insns += sm[i].warp_insns;
    }
    CHECK_EQ(warp_insns, simt_gpu_stats(g)->warp_insns);
    CHECK(sm[0].active_cycles > sm[2].active_cycles);
    CHECK_MSG(sm[2].achieved_occupancy <= 2.0 / 48 &&
              sm[2].achieved_occupancy > 0.9 * 2.0 / 48, "occupancy %f",
              sm[2].achieved_occupancy);
    pk_gpu_free(g);

    /* functional mode models no SM */
    static const char *const functional[] = { "functional=1", NULL };
    g = pk_gpu(functional, &err);
    CHECK_MSG(g, "%s", err.msg);
    CHECK_EQ(simt_gpu_sms(g, &sm), 0);
    pk_gpu_free(g);
}

/* The L1 on one warp whose lanes all read one word: the first load misses
 * and fetches the 128-byte line, the second (same line, still in flight)
 * is a pending hit, the third (after the add waited for the data) hits;
 * the global store is write-through without allocation (local_wb_global_wt
 * is the default policy): 4 accesses, 1 miss, 1 pending hit, 1 hit. */
TEST(timing_l1_miss_pending_hit_hit)
{
    static const char ptx[] = PK_HEADER
        ".visible .entry l1(.param .u64 p)\n{\n"
        ".reg .b32 %r<6>;\n.reg .b64 %rd<2>;\n"
        "ld.param.u64 %rd1, [p];\n"
        "ld.global.u32 %r1, [%rd1];\n"
        "ld.global.u32 %r2, [%rd1+4];\n"
        "add.s32 %r3, %r1, %r2;\n"
        "ld.global.u32 %r4, [%rd1+8];\n"
        "add.s32 %r5, %r3, %r4;\n"
        "st.global.u32 [%rd1+128], %r5;\n"
        "ret;\n}\n";
    static const char *const timing[] = { "functional=0", NULL };
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(timing, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "l1.ptx", ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t buf = pk_alloc_u32(g, 64, 3);
    simt_arg_t a[1] = { SIMT_ARG(buf) };
    CHECK_EQ(pk_run(g, m, "l1", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a, 1,
                    &err), SIMT_OK);
    const simt_stats_t *s = simt_gpu_stats(g);
    CHECK_EQ(s->l1d_accesses, 4);
    CHECK_EQ(s->l1d_misses, 1);
    CHECK_EQ(s->l1d_pending_hits, 1);
    CHECK_EQ(s->l1d_hits, 1);
    /* the parameter misses in the constant cache; the 8 instructions (64
     * bytes) sit in one instruction-cache line */
    CHECK_EQ(s->l1c_accesses, 1);
    CHECK_EQ(s->l1c_misses, 1);
    CHECK_EQ(s->l1i_misses, 1);
    /* below the L1s: the L1 line fill, the write-through, the constant
     * line and the instruction line went out; the L2 (write-back,
     * write-allocate) missed on all four */
    CHECK_EQ(s->icnt_requests, 4);
    CHECK_EQ(s->l2_accesses, 4);
    CHECK_EQ(s->l2_misses, 4);
    uint32_t out[64];
    CHECK_EQ(pk_read_u32(g, buf, out, 64), SIMT_OK);
    CHECK_EQ(out[32], 9);
    pk_gpu_free(g);
}

/* A streaming copy of 32768 floats (a 128 KB source, a 128 KB destination)
 * on fermi-gtx480-like defaults: every 128-byte line of the source is read
 * from DRAM once (1024 lines), and every destination line once too (the
 * write-through stores reach the write-allocate L2, which fetches the line
 * first), plus the kernel's code (12 instructions of 8 bytes: one line)
 * and its parameters (one constant-cache line): the SMs' misses on those
 * two merge at the L2, so 2050 DRAM reads.  The data bus is never busier
 * than the cycles the channels exist. */
TEST(timing_streaming_dram_reads_and_bandwidth_bound)
{
    static const char ptx[] = PK_HEADER
        ".visible .entry copy(.param .u64 src, .param .u64 dst)\n{\n"
        ".reg .b32 %r<6>;\n.reg .b64 %rd<6>;\n"
        "ld.param.u64 %rd1, [src];\nld.param.u64 %rd2, [dst];\n"
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
        "mad.lo.s32 %r4, %r2, %r3, %r1;\n"
        "mul.wide.u32 %rd3, %r4, 4;\n"
        "add.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n"
        "ld.global.u32 %r5, [%rd4];\nst.global.u32 [%rd5], %r5;\n"
        "ret;\n}\n";
    static const char *const timing[] = { "functional=0", NULL };
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(timing, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "copy.ptx", ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t src = pk_alloc_u32(g, 32768, 7), dst = pk_alloc_u32(g, 32768, 0);
    simt_arg_t a[2] = { SIMT_ARG(src), SIMT_ARG(dst) };
    CHECK_EQ(pk_run(g, m, "copy", pk_dim(128, 1, 1), pk_dim(256, 1, 1), 0, a, 2,
                    &err), SIMT_OK);
    const simt_stats_t *s = simt_gpu_stats(g);
    CHECK_EQ(s->dram_reads, 2048 + 2);
    CHECK(s->dram_bus_busy <= s->dram_channel_cycles);
    CHECK_MSG(s->dram_bus_busy > 0, "no DRAM traffic");
    uint32_t last;
    CHECK_EQ(pk_read_u32(g, dst + 4 * 32767, &last, 1), SIMT_OK);
    CHECK_EQ(last, 7);
    pk_gpu_free(g);
}

/* Straight-line code through the instruction cache (128-byte lines hold 16
 * instructions of 8 bytes): the chain kernel of n adds has n + 4
 * instructions, so one warp misses once per line, ceil((n + 4) / 16)
 * times: 7 for n = 100, 13 for n = 200. */
TEST(timing_icache_misses_once_per_line)
{
    static const char *const timing[] = { "functional=0", NULL };
    for (unsigned n = 100; n <= 200; n += 100) {
        simt_error_t err;
        char *text = chain_kernel(n, 0);
        simt_gpu_t *g = pk_gpu(timing, &err);
        CHECK_MSG(g, "%s", err.msg);
        simt_module_t *m = pk_load(g, "chain.ptx", text, &err);
        free(text);
        CHECK_MSG(m, "%s", err.msg);
        simt_devptr_t out = pk_alloc_u32(g, 1, 0);
        simt_arg_t a[1] = { SIMT_ARG(out) };
        CHECK_EQ(pk_run(g, m, "chain", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a,
                        1, &err), SIMT_OK);
        CHECK_EQ(simt_gpu_stats(g)->l1i_misses, (n + 4 + 15) / 16);
        pk_gpu_free(g);
    }
}

/* The CTA policies' kernel records: 40 CTAs of one warp running the
 * 100-add chain on the default machine (15 SMs of 8 CTA slots, so T_max =
 * 8).  Under rr the LCS fields are 0; under lcs (1D CTAs of 32 x 1) and
 * lcs_bcs + sca (2D CTAs of 16 x 2, placed in pairs) T_max is 8, LCS
 * decides a T_new in 1..8 at a window that ends inside the launch (SM 0
 * completes a CTA), and the launch issues exactly rr's warp-instructions. */
TEST(timing_cta_policy_records)
{
    static const char *const sets[3][7] = {
        { "functional=0", "gpgpu_ideal_memory=1", "gpgpu_ideal_mem_latency=10",
          "gpgpu_perfect_inst_cache=1", NULL },
        { "functional=0", "gpgpu_ideal_memory=1", "gpgpu_ideal_mem_latency=10",
          "gpgpu_perfect_inst_cache=1", "gpgpu_cta_policy=lcs", NULL },
        { "functional=0", "gpgpu_ideal_memory=1", "gpgpu_ideal_mem_latency=10",
          "gpgpu_perfect_inst_cache=1", "gpgpu_cta_policy=lcs_bcs",
          "gpgpu_scheduler=sca", NULL } };
    uint64_t rr_insns = 0;
    for (int p = 0; p < 3; p++) {
        simt_error_t err = { 0 };
        char *text = chain_kernel(100, 1);
        simt_gpu_t *g = text ? pk_gpu(sets[p], &err) : NULL;
        simt_module_t *m = g ? pk_load(g, "chain.ptx", text, &err) : NULL;
        free(text);
        CHECK_MSG(m, "policy %d: %s", p, err.msg);
        simt_devptr_t out = pk_alloc_u32(g, 1, 0);
        simt_arg_t a[1] = { SIMT_ARG(out) };
        simt_dim3_t block = p == 2 ? pk_dim(16, 2, 1) : pk_dim(32, 1, 1);
        CHECK_EQ(pk_run(g, m, "chain", pk_dim(40, 1, 1), block, 0, a, 1, &err),
                 SIMT_OK);
        const simt_kernel_stats_t *k;
        CHECK_EQ(simt_gpu_kernels(g, &k), 1);
        if (p == 0) {
            rr_insns = k[0].warp_insns;
            CHECK_EQ(k[0].lcs_t_max, 0);
            CHECK_EQ(k[0].lcs_t_new, 0);
            CHECK_EQ(k[0].lcs_window_cycles, 0);
        } else {
            CHECK_EQ(k[0].warp_insns, rr_insns);
            CHECK_EQ(k[0].lcs_t_max, 8);
            CHECK_MSG(k[0].lcs_t_new >= 1 && k[0].lcs_t_new <= 8, "T_new %u",
                      k[0].lcs_t_new);
            CHECK_MSG(k[0].lcs_window_cycles > 0 &&
                      k[0].lcs_window_cycles < k[0].end_cycle - k[0].start_cycle,
                      "window %llu of %llu cycles",
                      (unsigned long long)k[0].lcs_window_cycles,
                      (unsigned long long)(k[0].end_cycle - k[0].start_cycle));
        }
        pk_gpu_free(g);
    }
}
