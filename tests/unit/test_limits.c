/* test_limits.c: run limits (gpgpu_max_cycle, gpgpu_max_insn, the
 * wall-clock timeout), the deadlock window across clock domains, and the
 * validator's refusal of lines the interconnect cannot carry.
 *
 * Expected counts are derived by hand from the kernels: a check happens
 * before every warp instruction (functional) or at the start of every core
 * cycle (timing), so a functional run of one warp stops with exactly the
 * first multiple of 32 thread instructions at or above the limit, and a
 * timing run stops with exactly gpgpu_max_cycle cycles simulated. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../harness.h"
#include "ptx_kernel_helpers.h"

/* A loop that never ends: lines 8-10 repeat for ever. */
static const char spin_ptx[] =
    PK_HEADER                                   /* 1-4 */
    ".visible .entry spin()\n"                  /* 5 */
    "{\n"                                       /* 6 */
    "\t.reg .b32 %r<2>;\n"                      /* 7 */
    "$L_top:\n"                                 /* 8 */
    "\tadd.s32 %r1, %r1, 1;\n"                  /* 9: PC 0 */
    "\tbra.uni $L_top;\n"                       /* 10: PC 1 */
    "}\n";

/* Three warp instructions (PCs 0..2), then done. */
static const char three_ptx[] =
    PK_HEADER
    ".visible .entry three()\n"
    "{\n"
    "\t.reg .b32 %r<3>;\n"
    "\tmov.u32 %r1, 7;\n"
    "\tadd.s32 %r2, %r1, 1;\n"
    "\tret;\n"
    "}\n";

/* One global load and store per thread: a round trip to DRAM. */
static const char load_ptx[] =
    PK_HEADER
    ".visible .entry load(.param .u64 p)\n"
    "{\n"
    "\t.reg .b32 %r<2>;\n"
    "\t.reg .b64 %rd<2>;\n"
    "\tld.param.u64 %rd1, [p];\n"
    "\tld.global.u32 %r1, [%rd1];\n"
    "\tadd.s32 %r1, %r1, 1;\n"
    "\tst.global.u32 [%rd1], %r1;\n"
    "\tret;\n"
    "}\n";

static int run_kernel(simt_gpu_t *g, const char *file, const char *text,
                      const char *kernel, uint32_t ctas, simt_error_t *err)
{
    simt_module_t *m = pk_load(g, file, text, err);
    if (!m)
        return err->status;
    return pk_run(g, m, kernel, pk_dim(ctas, 1, 1), pk_dim(32, 1, 1), 0, NULL, 0, err);
}

TEST(limits_max_insn_stops_functional_infinite_loop)
{
    static const char *const sets[] = { "gpgpu_max_insn=1000", NULL };
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(sets, &err);
    CHECK_MSG(g, "%s", err.msg);
    CHECK_EQ(run_kernel(g, "spin.ptx", spin_ptx, "spin", 2, &err), SIMT_ELIMIT);
    /* 1000 rounded up to whole warp instructions of 32 threads: 32 x 32 */
    const simt_stats_t *st = simt_gpu_stats(g);
    CHECK_EQ(st->thread_insns, 1024);
    CHECK_EQ(st->warp_insns, 32);
    CHECK_EQ(st->ctas_completed, 0);
    CHECK(simt_gpu_stopped_by(g) && !strcmp(simt_gpu_stopped_by(g), "gpgpu_max_insn"));
    /* the kernel record keeps the counts so far */
    const simt_kernel_stats_t *ks;
    CHECK_EQ(simt_gpu_kernels(g, &ks), 1);
    CHECK_EQ(ks[0].thread_insns, 1024);
    /* the report: limit, kernel, CTA, and the warp at PC 0 (32 is even) */
    CHECK_MSG(strstr(err.msg, "gpgpu_max_insn = 1000 thread instructions reached"), "%s", err.msg);
    CHECK_MSG(strstr(err.msg, "kernel 'spin'"), "%s", err.msg);
    CHECK_MSG(strstr(err.msg, "CTA (0,0,0)"), "%s", err.msg);
    CHECK_MSG(strstr(err.msg, "warp 0: ready, PC 0 (line 9)"), "%s", err.msg);
    /* the run is over: a later synchronize says so again */
    simt_error_t err2 = { 0 };
    CHECK_EQ(simt_synchronize(g, &err2), SIMT_ELIMIT);
    pk_gpu_free(g);
}

TEST(limits_max_insn_boundary_of_a_finite_kernel)
{
    /* three warp instructions: checks see 0, 32 and 64 thread instructions
     * before them; a limit of 65 lets the kernel end, 64 stops it before
     * its last instruction */
    static const char *const ok[] = { "gpgpu_max_insn=65", NULL };
    static const char *const stop[] = { "gpgpu_max_insn=64", NULL };
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(ok, &err);
    CHECK_MSG(g, "%s", err.msg);
    CHECK_EQ(run_kernel(g, "three.ptx", three_ptx, "three", 1, &err), SIMT_OK);
    CHECK_EQ(simt_gpu_stats(g)->thread_insns, 96);
    CHECK(simt_gpu_stopped_by(g) == NULL);
    pk_gpu_free(g);
    g = pk_gpu(stop, &err);
    CHECK_MSG(g, "%s", err.msg);
    CHECK_EQ(run_kernel(g, "three.ptx", three_ptx, "three", 1, &err), SIMT_ELIMIT);
    CHECK_EQ(simt_gpu_stats(g)->thread_insns, 64);
    CHECK_MSG(strstr(err.msg, "PC 2 (line 10)"), "%s", err.msg);
    pk_gpu_free(g);
}

TEST(limits_max_cycle_stops_timing_run_with_partial_stats)
{
    static const char *const sets[] = { "functional=0", "gpgpu_max_cycle=5000",
                                        "gpgpu_n_clusters=2", NULL };
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(sets, &err);
    CHECK_MSG(g, "%s", err.msg);
    CHECK_EQ(run_kernel(g, "spin.ptx", spin_ptx, "spin", 3, &err), SIMT_ELIMIT);
    const simt_stats_t *st = simt_gpu_stats(g);
    CHECK_EQ(st->gpu_sim_cycle, 5000);
    CHECK(st->thread_insns > 0);
    CHECK_EQ(st->ctas_completed, 0);
    const simt_kernel_stats_t *ks;
    CHECK_EQ(simt_gpu_kernels(g, &ks), 1);
    CHECK_EQ(ks[0].end_cycle, 5000);
    CHECK_EQ(ks[0].thread_insns, st->thread_insns);
    const simt_sm_stats_t *sms;
    CHECK_EQ(simt_gpu_sms(g, &sms), 2);
    CHECK_EQ(sms[0].thread_insns + sms[1].thread_insns, st->thread_insns);
    CHECK(simt_gpu_stopped_by(g) && !strcmp(simt_gpu_stopped_by(g), "gpgpu_max_cycle"));
    CHECK_MSG(strstr(err.msg, "gpgpu_max_cycle = 5000 core cycles reached at core "
                              "cycle 5000 in kernel 'spin'"), "%s", err.msg);
    /* two SMs: CTAs 0 and 2 on SM 0 (round robin), CTA 1 on SM 1 */
    CHECK_MSG(strstr(err.msg, "SM 0, CTA (0,0,0), warp 0: "), "%s", err.msg);
    CHECK_MSG(strstr(err.msg, "SM 1, CTA (1,0,0), warp 0: "), "%s", err.msg);
    CHECK_MSG(strstr(err.msg, "SM 0, CTA (2,0,0), warp 0: "), "%s", err.msg);
    pk_gpu_free(g);
}

TEST(limits_timeout_stops_functional_and_timing_loops)
{
    for (int timing = 0; timing < 2; timing++) {
        static const char *const fun[] = { NULL };
        static const char *const tim[] = { "functional=0", NULL };
        simt_error_t err;
        simt_gpu_t *g = pk_gpu(timing ? tim : fun, &err);
        CHECK_MSG(g, "%s", err.msg);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        simt_gpu_set_timeout(g, 0.3);
        CHECK_EQ(run_kernel(g, "spin.ptx", spin_ptx, "spin", 1, &err), SIMT_ELIMIT);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        CHECK_MSG(s >= 0.3 && s < 10, "stopped after %.2f s", s);
        CHECK(simt_gpu_stopped_by(g) && !strcmp(simt_gpu_stopped_by(g), "timeout"));
        CHECK_MSG(strstr(err.msg, "--timeout 0.3 s of wall-clock time reached"), "%s", err.msg);
        pk_gpu_free(g);
    }
}

/* A core clock 100x the memory clocks: one DRAM access takes thousands of
 * core cycles, more than the smallest deadlock window (1000): the window
 * counts slowest-domain cycles, so this is no deadlock. */
TEST(limits_deadlock_window_counts_slowest_clock)
{
    static const char *const sets[] = { "functional=0", "gpgpu_deadlock_detect_cycles=1000",
                                        "gpgpu_core_clock_mhz=70000",
                                        "gpgpu_icnt_clock_mhz=700",
                                        "gpgpu_l2_clock_mhz=700",
                                        "gpgpu_dram_clock_mhz=700", NULL };
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(sets, &err);
    CHECK_MSG(g, "%s", err.msg);
    simt_module_t *m = pk_load(g, "load.ptx", load_ptx, &err);
    CHECK_MSG(m, "%s", err.msg);
    simt_devptr_t p = pk_alloc_u32(g, 1, 41);
    simt_arg_t a = SIMT_ARG(p);
    CHECK_MSG(pk_run(g, m, "load", pk_dim(1, 1, 1), pk_dim(1, 1, 1), 0, &a, 1, &err) == SIMT_OK,
              "%s", err.msg);
    uint32_t v = 0;
    CHECK_EQ(pk_read_u32(g, p, &v, 1), SIMT_OK);
    CHECK_EQ(v, 42);
    /* the access did take longer than 1000 core cycles */
    CHECK(simt_gpu_stats(g)->gpu_sim_cycle > 1000);
    pk_gpu_free(g);
}

/* Instruction and constant lines of 1024 bytes do not fit the default
 * interconnect buffers (32 flits of 32 bytes): refused up front, naming
 * the key; with buffers that hold them they run. */
TEST(limits_validator_refuses_lines_the_interconnect_cannot_carry)
{
    static const char *const keys[] = { "gpgpu_l1i_line", "gpgpu_l1c_line", "gpgpu_l1d_line" };
    for (int i = 0; i < 3; i++) {
        char set[64];
        snprintf(set, sizeof set, "%s=1024", keys[i]);
        const char *bad[] = { "functional=0", set, NULL };
        simt_error_t err;
        CHECK(pk_gpu(bad, &err) == NULL);
        CHECK_EQ(err.status, SIMT_EINPUT);
        char want[128];
        snprintf(want, sizeof want, "a %s = 1024 line", keys[i]);
        CHECK_MSG(strstr(err.msg, want) && strstr(err.msg, "gpgpu_icnt_buffer_flits (32)"),
                  "%s", err.msg);
        const char *good[] = { "functional=0", set, "gpgpu_icnt_buffer_flits=33", NULL };
        simt_gpu_t *g = pk_gpu(good, &err);
        CHECK_MSG(g, "%s", err.msg);
        simt_module_t *m = pk_load(g, "load.ptx", load_ptx, &err);
        CHECK_MSG(m, "%s", err.msg);
        simt_devptr_t p = pk_alloc_u32(g, 1, 1);
        simt_arg_t a = SIMT_ARG(p);
        CHECK_MSG(pk_run(g, m, "load", pk_dim(4, 1, 1), pk_dim(32, 1, 1), 0, &a, 1, &err) ==
                  SIMT_OK, "%s", err.msg);
        pk_gpu_free(g);
    }
}
