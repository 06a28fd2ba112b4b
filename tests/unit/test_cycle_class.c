/* test_cycle_class.c: the core-cycle breakdown (core/sm.h sm_cycle_class_t,
 * docs/stats.md "Core-cycle breakdown") on crafted one-warp kernels, with
 * an ideal memory of fixed latency and a perfect instruction cache so that
 * every wait is known in advance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "ptx_kernel_helpers.h"

/* One warp: a global load, an add on its result, a store. */
static const char load_use[] = PK_HEADER
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n"
    "ld.param.u64 %rd1, [p];\n"
    "ld.global.u32 %r1, [%rd1];\n"
    "add.s32 %r2, %r1, 1;\n"
    "st.global.u32 [%rd1+4], %r2;\n"
    "ret;\n}\n";

/* One warp: 12 loads of distinct 128-byte lines (independent: each into
 * its own register), then exit. */
static const char many_loads[] = PK_HEADER
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .b32 %r<13>;\n.reg .b64 %rd<2>;\n"
    "ld.param.u64 %rd1, [p];\n"
    "ld.global.u32 %r1, [%rd1];\n"
    "ld.global.u32 %r2, [%rd1+128];\n"
    "ld.global.u32 %r3, [%rd1+256];\n"
    "ld.global.u32 %r4, [%rd1+384];\n"
    "ld.global.u32 %r5, [%rd1+512];\n"
    "ld.global.u32 %r6, [%rd1+640];\n"
    "ld.global.u32 %r7, [%rd1+768];\n"
    "ld.global.u32 %r8, [%rd1+896];\n"
    "ld.global.u32 %r9, [%rd1+1024];\n"
    "ld.global.u32 %r10, [%rd1+1152];\n"
    "ld.global.u32 %r11, [%rd1+1280];\n"
    "ld.global.u32 %r12, [%rd1+1408];\n"
    "ret;\n}\n";

typedef struct classes {
    uint64_t cycles, sms;
    simt_sm_stats_t sm[2];     /* SM 0 (runs the warp) and SM 1 (idle) */
    simt_stats_t all;
    int ok;
} classes_t;

/* Runs `ptx`'s kernel k as one CTA of one warp on 2 SMs with the ideal
 * memory answering after `latency` cycles and `mshrs` L1 MSHRs. */
static classes_t run_one(const char *ptx, unsigned latency, unsigned mshrs,
                         const char *extra)
{
    char lat[64], msh[64];
    snprintf(lat, sizeof lat, "gpgpu_ideal_mem_latency=%u", latency);
    snprintf(msh, sizeof msh, "gpgpu_l1d_mshrs=%u", mshrs);
    const char *const timing[] = { "functional=0", "gpgpu_ideal_memory=1",
                                   lat, msh, "gpgpu_perfect_inst_cache=1",
                                   "gpgpu_n_clusters=2", extra, NULL };
    classes_t r = { 0 };
    simt_error_t err = { 0 };
    simt_gpu_t *g = pk_gpu(timing, &err);
    simt_module_t *m = g ? pk_load(g, "k.ptx", ptx, &err) : NULL;
    if (m) {
        simt_devptr_t buf = pk_alloc_u32(g, 512, 1);
        simt_arg_t a[1] = { SIMT_ARG(buf) };
        if (pk_run(g, m, "k", pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0, a, 1,
                   &err) == SIMT_OK) {
            const simt_sm_stats_t *sm;
            r.sms = simt_gpu_sms(g, &sm);
            r.all = *simt_gpu_stats(g);
            r.cycles = r.all.gpu_sim_cycle;
            memcpy(r.sm, sm, sizeof r.sm);
            r.ok = r.sms == 2;
        }
    }
    if (!r.ok)
        printf("  %s\n", err.msg[0] ? err.msg : "no run");
    pk_gpu_free(g);
    return r;
}

static uint64_t sum4(const simt_sm_stats_t *s)
{
    return s->core_cycles_active + s->core_cycles_core_stall +
           s->core_cycles_mem_stall + s->core_cycles_idle;
}

/* Every SM-cycle has exactly one class: per SM the four sum to the run's
 * cycles, and the GPU totals to SMs x cycles.  SM 1 never holds a warp:
 * every one of its cycles is IDLE. */
TEST(cycle_class_sums_and_empty_core_idle)
{
    classes_t r = run_one(load_use, 100, 32, NULL);
    CHECK(r.ok);
    for (unsigned i = 0; i < 2; i++)
        CHECK_EQ(sum4(&r.sm[i]), r.cycles);
    CHECK_EQ(r.all.core_cycles_active + r.all.core_cycles_core_stall +
             r.all.core_cycles_mem_stall + r.all.core_cycles_idle,
             2 * r.cycles);
    CHECK_EQ(r.sm[1].core_cycles_idle, r.cycles);
    CHECK_EQ(r.sm[1].core_cycles_active, 0);
    /* SM 0 issued 5 instructions, each in a cycle of its own */
    CHECK_EQ(r.sm[0].core_cycles_active, 5);
}

/* Three memory waits, each the memory latency L: the parameter's
 * constant-cache miss (the ld.global waits for %rd1), the load (the add
 * waits for %r1), both with a memory instruction of the warp in flight:
 * MEM_STALL; then the store's acknowledgement after the warp's last
 * instruction issued (no warp has an instruction): IDLE.  So raising L
 * from 500 to 1500 adds 3 x 1000 cycles to the run: 2000 MEM_STALL and
 * 1000 IDLE on SM 0, and the 5 issue cycles and the other classes stay. */
TEST(cycle_class_waiting_on_memory_is_mem_stall)
{
    classes_t a = run_one(load_use, 500, 32, NULL), b = run_one(load_use, 1500, 32, NULL);
    CHECK(a.ok && b.ok);
    CHECK_EQ(b.cycles - a.cycles, 3000);
    CHECK_EQ(b.sm[0].core_cycles_mem_stall - a.sm[0].core_cycles_mem_stall, 2000);
    CHECK_EQ(b.sm[0].core_cycles_idle - a.sm[0].core_cycles_idle, 1000);
    CHECK_EQ(b.sm[0].core_cycles_core_stall, a.sm[0].core_cycles_core_stall);
    CHECK_EQ(b.sm[0].core_cycles_active, 5);
    CHECK(a.sm[0].core_cycles_mem_stall >= 2 * 500);
}

/* 12 independent loads of distinct lines, one L1 MSHR, an LD/ST queue of
 * one, 1000-cycle memory.  Each miss holds the only MSHR for 1000 cycles,
 * so the loads complete one per 1000 cycles after the parameter's miss
 * (1000): the run is about 1000 + 12 x 1000 cycles.  The unit holds 4
 * loads (one being served, one queued, two in the memory collector
 * units); loads 5 to 12 each find the pipeline gate closed with their
 * operands ready until a load ahead completes: 8 x 1000 cycles of
 * CORE_STALL (less the few cycles they issue in).  After the last load
 * issues the warp exits and 4 loads are still in flight: 4 x 1000 IDLE.
 * With 32 MSHRs the LD/ST unit never stalls: no CORE_STALL at all. */
TEST(cycle_class_full_mshr_is_core_stall)
{
    classes_t one = run_one(many_loads, 1000, 1, "gpgpu_ldst_queue=1");
    classes_t many = run_one(many_loads, 1000, 32, "gpgpu_ldst_queue=1");
    CHECK(one.ok && many.ok);
    CHECK_MSG(one.cycles >= 13000 && one.cycles < 13050, "%llu cycles",
              (unsigned long long)one.cycles);
    CHECK_MSG(one.sm[0].core_cycles_core_stall > 8 * 1000 - 20 &&
              one.sm[0].core_cycles_core_stall <= 8 * 1000, "core stall %llu",
              (unsigned long long)one.sm[0].core_cycles_core_stall);
    CHECK_MSG(one.sm[0].core_cycles_idle >= 4 * 1000 &&
              one.sm[0].core_cycles_idle < 4 * 1000 + 20, "idle %llu",
              (unsigned long long)one.sm[0].core_cycles_idle);
    CHECK_EQ(many.sm[0].core_cycles_core_stall, 0);
    CHECK_EQ(sum4(&one.sm[0]), one.cycles);
}
