/* test_ssp_timing.c: Scratchpad Sharing in the timing model (reference 000
 * §9 tests 1-14 and 16; docs/scratchpad-sharing.md).
 *
 * Block counts come from the paper's own statements (§2.2 table, §6.1).
 * The mechanism tests run hand-written PTX on a small SM whose numbers are
 * worked out here:
 *   gpgpu_shmem_size R = 1000 B, the kernels' scratchpad R_tb = 800 B,
 *   t = 0.1 (the default): m = floor(1000/800) = 1; the private slice is
 *   ceil(0.1 * 800) = 80 B, so extra = floor((1000 - 800) / 80) = 2 and
 *   n = min(1 + 2, 2m = 2, the other limits) = 2: one pair per SM, CTA
 *   slot 0 (baseline) with slot 1 (extra).  The unshared limit is
 *   floor(0.1 * 800) rounded down to 4 = 80: offsets 0..79 are each CTA's
 *   own, 80..799 the pair's shared region (for slot 1 aliased onto slot
 *   0's bytes).
 * With one SM, CTA 0 is placed first (cycle 0) and CTA 1 next; which of
 * the two reaches the shared region first also depends on instruction
 * fetch, so the tests call the CTA whose access issued first the owner,
 * except where they make one CTA late on purpose. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "core/sm.h"
#include "gpu/occupancy.h"
#include "ptx_kernel_helpers.h"
#include "units/warp_arbiter.h"

/* ---------- §9 test 1 and 2: block counts ---------- */

static void kepler_ss(simt_config_t *c) /* reference §4 */
{
    simt_config_defaults(c);
    c->value[SIMT_CFG_MAX_THREADS_SM] = 3072;
    c->value[SIMT_CFG_CTAS_SM] = 16;
    c->value[SIMT_CFG_REGS_SM] = 65536;
    c->value[SIMT_CFG_SHMEM_SM] = 16384;
}

/* m, n and pairs as the paper states them (§2.2 table, §6.1): DCT1 7 -> 14
 * with all 7 extra blocks sharing; DCT3 7 -> 12, 5 pairs + 2 unshared;
 * FDTD3d 4 -> 6 sharing with 2; the nine 1 -> 2 kernels (Table 1 sizes);
 * kmeans and lud from the [derived] rows. */
TEST(ssp_block_counts_paper_table)
{
    static const struct {
        const char *app;
        uint32_t threads, smem, m, n, pairs;
    } t[] = {
        { "DCT1", 64, 2112, 7, 14, 7 },   { "DCT3", 128, 2176, 7, 12, 5 },
        { "FDTD3d", 128, 3840, 4, 6, 2 }, { "backprop", 256, 9408, 1, 2, 1 },
        { "NQU", 64, 10496, 1, 2, 1 },    { "SRAD1", 576, 13824, 1, 2, 1 },
        { "SRAD2", 576, 11520, 1, 2, 1 }, { "heartwall", 128, 11872, 1, 2, 1 },
        { "histogram", 192, 9216, 1, 2, 1 }, { "MC1", 32, 9216, 1, 2, 1 },
        { "NW1", 32, 8452, 1, 2, 1 },     { "kmeans", 576, 4608, 3, 5, 2 },
        { "lud", 484, 3872, 4, 6, 2 },
    };
    simt_config_t c;
    kepler_ss(&c);
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        occ_sharing_t o = occupancy_sharing(&c, t[i].threads, 16, t[i].smem, 100);
        CHECK_MSG(o.m == t[i].m && o.n == t[i].n && o.pairs == t[i].pairs,
                  "%s: %u -> %u with %u pairs; the paper: %u -> %u, %u pairs",
                  t[i].app, o.m, o.n, o.pairs, t[i].m, t[i].n, t[i].pairs);
        /* never more than 2m; memory never above R (§9 test 1) */
        CHECK(o.n <= 2 * o.m);
        CHECK((uint64_t)o.m * t[i].smem + (uint64_t)o.pairs * o.priv <= 16384);
    }
    /* DCT3: 6 pairs + 1 unshared would need 16,537 B > 16,384 B (§2.2) */
    occ_sharing_t d3 = occupancy_sharing(&c, 128, 16, 2176, 100);
    CHECK_EQ(d3.priv, 218);  /* ceil(217.6) */
    CHECK_EQ(d3.limit, 216); /* floor(217.6) rounded down to 4 */
}

/* §9 test 2: a thread-limited kernel (1024 threads: 3 by threads, 16 by
 * scratchpad at 1 KB) and one limited by CTA slots get ShSM = 0. */
TEST(ssp_shsm_off_when_not_scratchpad_limited)
{
    simt_config_t c;
    kepler_ss(&c);
    occ_sharing_t o = occupancy_sharing(&c, 1024, 16, 1024, 100);
    CHECK_EQ(o.m, 3);
    CHECK_EQ(o.n, 3);
    CHECK_EQ(o.pairs, 0);
    o = occupancy_sharing(&c, 64, 16, 256, 100); /* DCT5: 16 by CTA slots */
    CHECK_EQ(o.m, 16);
    CHECK_EQ(o.n, 16);
    /* equal limits (16384/1024 = 16 = CTA slots): not the strict limiter */
    o = occupancy_sharing(&c, 64, 16, 1024, 100);
    CHECK_EQ(o.n, o.m);
}

/* ---------- §9 test 13: the OWF classes fed to the arbiter ---------- */

/* Owner iff the CTA holds its pair's lock, non-owner iff the partner does,
 * unshared otherwise, a free pair's CTAs included (§2.8, §8.4). */
TEST(ssp_owf_class_from_lock)
{
    sm_kernel_t k = { .ssp_m = 2, .ssp_n = 3 };
    sm_t s;
    memset(&s, 0, sizeof s);
    s.share.k = &k;
    /* the lock table of a 4-slot SM, launched with m 2 and 1 pair (slot 0
     * with slot 2), blocks in slots 0..2 */
    share_lock_table_cfg_t lc = share_lock_table_cfg_for(4, 1);
    CHECK_EQ(share_lock_table_init(&s.share.lt, &lc), 0);
    share_lock_table_in_t in = { .launch = 1, .base = 2, .pairs = 1, .live = 7, .place = 7 };
    share_lock_table_eval(&s.share.lt, &in, &s.share.lout);
    share_lock_table_tick(&s.share.lt, &in);
    CHECK_EQ(sm_share_class(&s, 0), WARP_ARBITER_UNSHARED);
    CHECK_EQ(sm_share_class(&s, 2), WARP_ARBITER_UNSHARED);
    in = (share_lock_table_in_t){ .live = 7, .req_valid = 1, .req_slot = { 2 } };
    share_lock_table_eval(&s.share.lt, &in, &s.share.lout);
    share_lock_table_tick(&s.share.lt, &in);
    CHECK_EQ(sm_share_class(&s, 2), WARP_ARBITER_OWNER);
    CHECK_EQ(sm_share_class(&s, 0), WARP_ARBITER_NONOWNER);
    CHECK_EQ(sm_share_class(&s, 1), WARP_ARBITER_UNSHARED);
    in = (share_lock_table_in_t){ .live = 7, .release = 4, .req_valid = 1, .req_slot = { 0 } };
    share_lock_table_eval(&s.share.lt, &in, &s.share.lout);
    CHECK_EQ(sm_share_class(&s, 0), WARP_ARBITER_OWNER);
    CHECK_EQ(sm_share_class(&s, 2), WARP_ARBITER_NONOWNER);
    s.share.k = NULL; /* ShSM = 0: everything unshared */
    CHECK_EQ(sm_share_class(&s, 0), WARP_ARBITER_UNSHARED);
}

/* ---------- §9 test 14: the Fig. 5 toy example ---------- */

/* The paper's toy (§2.8, Fig. 5) on the warp arbiter unit (the C twin
 * the SM's schedulers run): one scheduler, three warps in slots U = 0,
 * O = 1, N = 2, allocated together so that U is the oldest, then O, then
 * N.  Each runs I1 add, I2 load (its result ready 5 cycles after issue),
 * I3 mov of the load's result; a warp is done when its I3 issues.  O
 * holds the pair's lock from the start; N's I2 touches the shared region,
 * so it is not ready while O holds it; O keeps it until it is done, and
 * the lock then passes to N (§2.6) from the next cycle.  At most one
 * issue per cycle; the classes come from the lock (owner, unshared,
 * non-owner; N an owner once it holds it).
 *
 * Unshared first is GTO here (U is the oldest; greedy like OWF), by hand:
 *   1 U.I1, 2 U.I2 (ready 7), 3 O.I1, 4 O.I2 (ready 9), 5 N.I1, 6 none
 *   (N locked out), 7 U.I3 (U done), 8 none, 9 O.I3 (O done; lock to N),
 *   10 N.I2 (ready 15), 15 N.I3: N done at 15.
 * OWF (owner, unshared, non-owner; greedy):
 *   1 O.I1, 2 O.I2 (ready 7), 3 U.I1, 4 U.I2 (ready 9), 5 N.I1, 6 none,
 *   7 O.I3 (O done; lock to N), 8 N.I2 (ready 13), 9 U.I3 (U done),
 *   13 N.I3: N done at 13.
 * Both traces are the paper's own numbers (Fig. 5: N ends at 15 under
 * U > O > N, at 13 under O > U > N, U done at 9). */
enum { TOY_U, TOY_O, TOY_N, TOY_W };

static void toy_run(warp_arbiter_policy_t pol, unsigned done[TOY_W])
{
    warp_arbiter_state_t s;
    warp_arbiter_cfg_t cfg = warp_arbiter_default_cfg();
    cfg.n = TOY_W;
    CHECK(warp_arbiter_init(&s, &cfg) == 0);
    warp_arbiter_in_t in;
    memset(&in, 0, sizeof in);
    in.alloc = 7; /* together: the lower slot is older (D13) */
    warp_arbiter_tick(&s, &in);
    unsigned pc[TOY_W] = { 0 }, r2_ready[TOY_W] = { 0 };
    int holder = TOY_O;
    uint64_t valid = 7;
    for (unsigned w = 0; w < TOY_W; w++)
        done[w] = 0;
    for (unsigned t = 1; t <= 40 && valid; t++) {
        memset(&in, 0, sizeof in);
        in.policy = (uint8_t)pol;
        in.valid = valid;
        for (unsigned w = 0; w < TOY_W; w++) {
            int ok = pc[w] == 0 || (pc[w] == 1 && !(w == TOY_N && holder == TOY_O)) ||
                     (pc[w] == 2 && t >= r2_ready[w]);
            if (valid >> w & 1 && ok)
                in.ready |= 1u << w;
        }
        in.cls[TOY_U] = WARP_ARBITER_UNSHARED;
        in.cls[TOY_O] = holder == TOY_O ? WARP_ARBITER_OWNER : WARP_ARBITER_UNSHARED;
        in.cls[TOY_N] = holder == TOY_N ? WARP_ARBITER_OWNER : WARP_ARBITER_NONOWNER;
        warp_arbiter_out_t out;
        warp_arbiter_eval(&s, &in, &out);
        int pass_lock = 0;
        if (out.grant_valid) {
            unsigned g = out.grant_idx;
            CHECK_MSG(g < TOY_W && (in.ready >> g & 1), "cycle %u: grant %u", t, g);
            if (pc[g] == 1)
                r2_ready[g] = t + 5;
            if (pc[g] == 2) {
                done[g] = t;
                in.finished = 1u << g;
                valid &= ~(1u << g);
                pass_lock = g == TOY_O;
            }
            pc[g]++;
            in.issued_valid = 1;
            in.issued_idx = g;
        }
        warp_arbiter_tick(&s, &in);
        if (pass_lock)
            holder = TOY_N; /* from the next cycle */
    }
}

/* §9 test 14: OWF finishes the non-owner strictly earlier than unshared
 * first (the ordering is the test; the cycles are the hand traces above,
 * which are the paper's). */
TEST(ssp_owf_toy_nonowner_finishes_earlier)
{
    unsigned gto[TOY_W], owf[TOY_W];
    toy_run(WARP_ARBITER_GTO, gto);
    toy_run(WARP_ARBITER_OWF, owf);
    CHECK_MSG(owf[TOY_N] && owf[TOY_N] < gto[TOY_N],
              "N done at %u under OWF, at %u unshared first", owf[TOY_N], gto[TOY_N]);
    CHECK_EQ(gto[TOY_N], 15);
    CHECK_EQ(owf[TOY_N], 13);
    CHECK_EQ(gto[TOY_U], 7);
    CHECK_EQ(gto[TOY_O], 9);
    CHECK_EQ(owf[TOY_O], 7);
    CHECK_EQ(owf[TOY_U], 9);
}

/* ---------- the mechanism on a small SM ---------- */

#define SMALL_SM "functional=0", "gpgpu_n_cores_per_cluster=1", \
    "gpgpu_shmem_size=1000", "ssp_sharing=1", "gpgpu_ideal_memory=1"

/* Kernel `pair`, one warp per CTA.  CTA 0 first spins `spin0` iterations
 * (the others 0, on the same path).
 * Each thread then stores its ctaid at the private offset 4*(tid&15)
 * (< 80), reads %clock (c1), stores ctaid at off + 4*(tid&15) (off = 80:
 * the shared region; off = 0: private), reads %clock (c2), spins 300
 * iterations, passes a barrier, loads both words back and reads %clock
 * (c3).  out[(ctaid*32 + tid)*6 ..] = shared word, private word, c1, c2,
 * c3, %smid. */
static const char pair_ptx[] = PK_HEADER
    ".visible .entry pair(.param .u64 out, .param .u32 spin0, .param .u32 off)\n"
    "{\n"
    ".reg .b32 %r<24>;\n.reg .b64 %rd<6>;\n.reg .pred %p<4>;\n"
    ".shared .align 4 .b8 s[800];\n"
    "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [spin0];\n"
    "ld.param.u32 %r2, [off];\nmov.u32 %r3, %tid.x;\nmov.u32 %r4, %ctaid.x;\n"
    "mov.u32 %r5, s;\nand.b32 %r6, %r3, 15;\nshl.b32 %r6, %r6, 2;\n"
    "add.u32 %r7, %r6, %r5;\n"              /* private word */
    "add.u32 %r8, %r7, %r2;\n"              /* the word at off */
    "setp.eq.u32 %p1, %r4, 0;\nselp.u32 %r1, %r1, 0, %p1;\n" /* CTA 0's */
    "mov.u32 %r9, 0;\n"
    "LOOP0:\nsetp.ge.u32 %p2, %r9, %r1;\n@%p2 bra START;\n"
    "add.u32 %r9, %r9, 1;\nbra LOOP0;\n"
    "START:\nst.shared.u32 [%r7], %r4;\nmov.u32 %r10, %clock;\n"
    "st.shared.u32 [%r8], %r4;\nmov.u32 %r11, %clock;\n"
    "mov.u32 %r9, 0;\n"
    "LOOP1:\nsetp.ge.u32 %p2, %r9, 300;\n@%p2 bra DONE;\n"
    "add.u32 %r9, %r9, 1;\nbra LOOP1;\n"
    "DONE:\nbar.sync 0;\nld.shared.u32 %r12, [%r8];\nld.shared.u32 %r13, [%r7];\n"
    "mov.u32 %r14, %clock;\nmov.u32 %r15, %smid;\n"
    "shl.b32 %r16, %r4, 5;\nadd.u32 %r16, %r16, %r3;\nmul.lo.u32 %r16, %r16, 24;\n"
    "cvt.u64.u32 %rd2, %r16;\nadd.u64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r12;\nst.global.u32 [%rd3+4], %r13;\n"
    "st.global.u32 [%rd3+8], %r10;\nst.global.u32 [%rd3+12], %r11;\n"
    "st.global.u32 [%rd3+16], %r14;\nst.global.u32 [%rd3+20], %r15;\n"
    "ret;\n}\n";

enum { P_SH, P_PRIV, P_C1, P_C2, P_C3, P_SMID, P_N };

typedef struct run {
    uint32_t *out;
    simt_stats_t st;
    int rc;
    char msg[4200];
} run_t;

/* Runs `kernel` of `text` with `grid` CTAs of `threads` threads and the
 * u32 parameters p[0..np) after the output pointer (words_per_thread
 * words per thread, pre-filled with 0xffffffff). */
static run_t run_kernel(const char *const *sets, const char *text,
                        const char *kernel, unsigned grid, unsigned threads,
                        unsigned words_per_thread, const uint32_t *p,
                        unsigned np)
{
    run_t r = { .rc = -1 };
    simt_error_t err = { 0 };
    size_t words = (size_t)grid * threads * words_per_thread;
    simt_gpu_t *g = pk_gpu(sets, &err);
    simt_module_t *m = g ? pk_load(g, "ssp.ptx", text, &err) : NULL;
    simt_devptr_t out = m ? pk_alloc_u32(g, words, 0xffffffffu) : 0;
    r.out = calloc(words, sizeof *r.out);
    if (out && r.out) {
        simt_arg_t a[4] = { SIMT_ARG(out) };
        for (unsigned i = 0; i < np && i < 3; i++)
            a[1 + i] = SIMT_ARG(p[i]);
        r.rc = pk_run(g, m, kernel, pk_dim(grid, 1, 1), pk_dim(threads, 1, 1),
                      0, a, 1 + np, &err);
        if (r.rc == SIMT_OK)
            pk_read_u32(g, out, r.out, words);
        r.st = *simt_gpu_stats(g);
    }
    snprintf(r.msg, sizeof r.msg, "%s", err.msg);
    pk_gpu_free(g);
    return r;
}

static uint32_t at(const run_t *r, unsigned cta, unsigned tid, unsigned k,
                   unsigned threads, unsigned per)
{
    return r->out[((size_t)cta * threads + tid) * per + k];
}
#define PA(r, cta, tid, k) at(r, cta, tid, k, 32, P_N)

/* The earliest value of word k over CTA c's `nthr` threads. */
static uint32_t first_of(const run_t *r, unsigned c, unsigned nthr,
                         unsigned per, unsigned k)
{
    uint32_t v = UINT32_MAX;
    for (unsigned t = 0; t < nthr; t++)
        if (at(r, c, t, k, nthr, per) < v)
            v = at(r, c, t, k, nthr, per);
    return v;
}

/* §9 tests 5, 6, 7, 8: CTA 0 takes the lock first (its warps become
 * owners), CTA 1's shared store is not issued while CTA 0 holds it, but
 * its private store and ALU work go on (c1 of CTA 1 before CTA 0's c3);
 * CTA 0 completes without relssp and hands the lock over (one transfer),
 * after which CTA 1's store issues (its c2 after CTA 0's c3).  Each CTA
 * reads back its own ctaid from both words: the region is aliased (slot
 * 1's offsets >= 80 are slot 0's bytes), so without the lock CTA 1's
 * store would land in CTA 0's word before CTA 0 reads it. */
TEST(ssp_lock_isolation_wait_and_transfer)
{
    const char *sets[] = { SMALL_SM, "gpgpu_n_clusters=1", NULL };
    uint32_t p[2] = { 0, 80 };
    run_t r = run_kernel(sets, pair_ptx, "pair", 2, 32, P_N, p, 2);
    CHECK_MSG(r.rc == SIMT_OK, "%s", r.msg);
    for (unsigned c = 0; c < 2; c++)
        for (unsigned t = 0; t < 32; t++) {
            CHECK_MSG(PA(&r, c, t, P_SH) == c, "CTA %u thread %u read %u from "
                      "the shared region", c, t, PA(&r, c, t, P_SH));
            CHECK_EQ(PA(&r, c, t, P_PRIV), c);
        }
    CHECK_EQ(r.st.ssp_blocks_baseline, 1);
    CHECK_EQ(r.st.ssp_blocks_shared, 2);
    CHECK_EQ(r.st.ssp_pairs, 1);
    CHECK_EQ(r.st.ssp_lock_acquisitions, 1);
    CHECK_EQ(r.st.ssp_lock_transfers, 1);
    CHECK_EQ(r.st.ssp_relssp_releases, 0);
    CHECK(r.st.ssp_lock_wait_cycles > 0);
    CHECK(r.st.stall_smem_lock > 0);
    CHECK(r.st.ssp_lock_held_cycles > 0);
    /* the owner: the CTA whose shared store issued first (CTA 0, placed
     * first, unless instruction fetch favoured CTA 1) */
    unsigned o = first_of(&r, 0, 32, P_N, P_C2) < first_of(&r, 1, 32, P_N, P_C2)
                     ? 0 : 1, n = 1 - o;
    CHECK_MSG(PA(&r, n, 0, P_C1) < PA(&r, o, 0, P_C3),
              "non-owner private store at %u, owner done at %u",
              PA(&r, n, 0, P_C1), PA(&r, o, 0, P_C3));
    CHECK_MSG(first_of(&r, n, 32, P_N, P_C2) > PA(&r, o, 0, P_C3),
              "non-owner shared store at %u, owner done at %u",
              first_of(&r, n, 32, P_N, P_C2), PA(&r, o, 0, P_C3));
    free(r.out);
}

/* §9 test 4: accesses below the unshared limit never touch the lock. */
TEST(ssp_unshared_region_never_locks)
{
    const char *sets[] = { SMALL_SM, "gpgpu_n_clusters=1", NULL };
    uint32_t p[2] = { 0, 0 };
    run_t r = run_kernel(sets, pair_ptx, "pair", 2, 32, P_N, p, 2);
    CHECK_MSG(r.rc == SIMT_OK, "%s", r.msg);
    for (unsigned c = 0; c < 2; c++)
        CHECK_EQ(PA(&r, c, 5, P_SH), c);
    CHECK_EQ(r.st.ssp_pairs, 1);
    CHECK_EQ(r.st.ssp_lock_acquisitions, 0);
    CHECK_EQ(r.st.ssp_lock_wait_cycles, 0);
    CHECK_EQ(r.st.stall_smem_lock, 0);
    /* both CTAs ran side by side: CTA 1 stored before CTA 0 finished */
    CHECK(PA(&r, 1, 0, P_C2) < PA(&r, 0, 0, P_C3));
    free(r.out);
}

/* §9 test 5: first come, first served: CTA 0 spins 400 iterations first,
 * so CTA 1 reaches the region first and owns it; CTA 0 waits until CTA 1
 * completes and hands the lock over. */
TEST(ssp_lock_fcfs)
{
    const char *sets[] = { SMALL_SM, "gpgpu_n_clusters=1", NULL };
    uint32_t p[2] = { 400, 80 };
    run_t r = run_kernel(sets, pair_ptx, "pair", 2, 32, P_N, p, 2);
    CHECK_MSG(r.rc == SIMT_OK, "%s", r.msg);
    CHECK_EQ(PA(&r, 0, 0, P_SH), 0);
    CHECK_EQ(PA(&r, 1, 0, P_SH), 1);
    CHECK_EQ(r.st.ssp_lock_acquisitions, 1);
    CHECK_EQ(r.st.ssp_lock_transfers, 1);
    CHECK(PA(&r, 1, 0, P_C2) < PA(&r, 0, 0, P_C2));
    CHECK(PA(&r, 0, 0, P_C2) > PA(&r, 1, 0, P_C3));
    free(r.out);
}

/* §9 test 3: with P = 2 SMs and m = 1, CTAs 0 and 1 go to SMs 0 and 1
 * (round robin), and the extra CTAs 2 and 3 to SMs 0 and 1, paired with
 * CTA 0 and CTA 1: the later of each pair waits for its own partner's
 * completion (two transfers, one per pair). */
TEST(ssp_pairing_across_sms)
{
    const char *sets[] = { SMALL_SM, "gpgpu_n_clusters=2", NULL };
    uint32_t p[2] = { 0, 80 };
    run_t r = run_kernel(sets, pair_ptx, "pair", 4, 32, P_N, p, 2);
    CHECK_MSG(r.rc == SIMT_OK, "%s", r.msg);
    for (unsigned c = 0; c < 4; c++) {
        CHECK_EQ(PA(&r, c, 0, P_SMID), c % 2);
        CHECK_EQ(PA(&r, c, 0, P_SH), c);
    }
    CHECK_EQ(r.st.ssp_lock_transfers, 2);
    for (unsigned b = 0; b < 2; b++) { /* B_b with B_{P+b} */
        unsigned o = first_of(&r, b, 32, P_N, P_C2) <
                             first_of(&r, 2 + b, 32, P_N, P_C2) ? b : 2 + b;
        unsigned n = o == b ? 2 + b : b;
        CHECK_MSG(first_of(&r, n, 32, P_N, P_C2) > PA(&r, o, 0, P_C3),
                  "CTA %u stored at %u, its partner CTA %u done at %u", n,
                  first_of(&r, n, 32, P_N, P_C2), o, PA(&r, o, 0, P_C3));
    }
    free(r.out);
}

/* §9 test 2: ShSM = 0 (32 threads per SM: one CTA by threads as by
 * scratchpad) leaves the run cycle-identical to sharing off, LRR and GTO. */
TEST(ssp_shsm_off_cycle_identical)
{
    static const char *const scheds[] = { "gpgpu_scheduler=lrr",
                                          "gpgpu_scheduler=gto" };
    uint32_t p[2] = { 0, 80 };
    for (unsigned k = 0; k < 2; k++) {
        const char *on[] = { SMALL_SM, "gpgpu_n_clusters=1",
                             "gpgpu_shader_core_max_threads=32",
                             "max_threads_per_cta=32", "gpgpu_num_sched_per_core=1", scheds[k], NULL };
        const char *off[] = { SMALL_SM, "gpgpu_n_clusters=1",
                              "gpgpu_shader_core_max_threads=32",
                              "max_threads_per_cta=32", "gpgpu_num_sched_per_core=1", scheds[k],
                              "ssp_sharing=0", NULL };
        run_t a = run_kernel(on, pair_ptx, "pair", 3, 32, P_N, p, 2);
        run_t b = run_kernel(off, pair_ptx, "pair", 3, 32, P_N, p, 2);
        CHECK_MSG(a.rc == SIMT_OK && b.rc == SIMT_OK, "%s %s", a.msg, b.msg);
        CHECK_EQ(a.st.ssp_blocks_baseline, 1);
        CHECK_EQ(a.st.ssp_blocks_shared, 1);
        CHECK_EQ(a.st.ssp_pairs, 0);
        CHECK_EQ(a.st.gpu_sim_cycle, b.st.gpu_sim_cycle);
        CHECK_EQ(a.st.warp_insns, b.st.warp_insns);
        /* every output word, the %clock readings included, agrees */
        for (unsigned i = 0; i < 3 * 32 * P_N; i++)
            CHECK_EQ(a.out[i], b.out[i]);
        free(a.out);
        free(b.out);
    }
}

/* Kernel `rel`, two warps per CTA (64 threads).  A barrier, the store of
 * ctaid at 80 + 4*(tid&15) (the shared region), %clock (c2), a barrier,
 * the load back (v).  With mode & 1 the second warp exits here.  Then the
 * lanes split: lanes with (tid&31) < 16 execute relssp at once, the others
 * spin 200 iterations, load the word again and execute relssp right
 * after the load (the fence).  After relssp: %clock (crel), 1500
 * iterations, %clock (cend).  out[(ctaid*64 + tid)*5 ..] = v, c2, crel,
 * cend, the late load's value (or v). */
static const char rel_ptx[] = PK_HEADER
    ".visible .entry rel(.param .u64 out, .param .u32 mode)\n"
    "{\n"
    ".reg .b32 %r<24>;\n.reg .b64 %rd<6>;\n.reg .pred %p<4>;\n"
    ".shared .align 4 .b8 s[800];\n"
    "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [mode];\n"
    "mov.u32 %r3, %tid.x;\nmov.u32 %r4, %ctaid.x;\n"
    "mov.u32 %r5, s;\nand.b32 %r6, %r3, 15;\nshl.b32 %r6, %r6, 2;\n"
    "add.u32 %r8, %r6, %r5;\nadd.u32 %r8, %r8, 80;\n"
    "shl.b32 %r16, %r4, 6;\nadd.u32 %r16, %r16, %r3;\nmul.lo.u32 %r16, %r16, 20;\n"
    "cvt.u64.u32 %rd2, %r16;\nadd.u64 %rd3, %rd1, %rd2;\n"
    "bar.sync 0;\n"
    "st.shared.u32 [%r8], %r4;\nmov.u32 %r11, %clock;\n"
    "bar.sync 0;\nld.shared.u32 %r12, [%r8];\nmov.u32 %r13, %r12;\n"
    "st.global.u32 [%rd3], %r12;\nst.global.u32 [%rd3+4], %r11;\n"
    "and.b32 %r7, %r1, 1;\nsetp.ne.u32 %p1, %r7, 0;\n"
    "setp.ge.u32 %p2, %r3, 32;\nand.pred %p1, %p1, %p2;\n@%p1 exit;\n"
    "and.b32 %r7, %r3, 31;\nsetp.lt.u32 %p3, %r7, 16;\n@%p3 bra EARLY;\n"
    "mov.u32 %r9, 0;\n"
    "LOOP1:\nsetp.ge.u32 %p2, %r9, 200;\n@%p2 bra LATE;\n"
    "add.u32 %r9, %r9, 1;\nbra LOOP1;\n"
    "LATE:\nld.shared.u32 %r13, [%r8];\nrelssp;\nmov.u32 %r14, %clock;\nbra JOIN;\n"
    "EARLY:\nrelssp;\nmov.u32 %r14, %clock;\n"
    "JOIN:\nmov.u32 %r9, 0;\n"
    "LOOP2:\nsetp.ge.u32 %p2, %r9, 1500;\n@%p2 bra END;\n"
    "add.u32 %r9, %r9, 1;\nbra LOOP2;\n"
    "END:\nmov.u32 %r15, %clock;\n"
    "st.global.u32 [%rd3+8], %r14;\nst.global.u32 [%rd3+12], %r15;\n"
    "st.global.u32 [%rd3+16], %r13;\n"
    "ret;\n}\n";

enum { R_V, R_C2, R_REL, R_END, R_V2, R_N };
#define RA(r, cta, tid, k) at(r, cta, tid, k, 64, R_N)

/* The latest crel and the earliest cend of CTA c over threads [0, nthr). */
static void rel_span(const run_t *r, unsigned c, unsigned nthr, uint32_t *last_rel,
                     uint32_t *first_end)
{
    *last_rel = 0;
    *first_end = UINT32_MAX;
    for (unsigned t = 0; t < nthr; t++) {
        if (RA(r, c, t, R_REL) > *last_rel)
            *last_rel = RA(r, c, t, R_REL);
        if (RA(r, c, t, R_END) < *first_end)
            *first_end = RA(r, c, t, R_END);
    }
}

/* §9 tests 9 and 12: The owner (the first CTA to store) holds the region; its lanes reach relssp on two
 * paths about 200 iterations apart, the late ones right after a shared
 * load.  The other CTA's store issues only after the last of its relssp, and
 * only once that load has written back (gpgpu_smem_latency = 24 cycles:
 * more than 12 cycles after the relssp's %clock; without the fence it
 * issues within a few cycles), and long before the owner completes (1500
 * iterations later): relssp released the lock, no transfer happened.
 * The late load's value (R_V2) is checked too, but that check cannot
 * catch a missing fence: loads read the scratchpad at issue (functional
 * execution at issue), before the relssp behind them, so the partner's
 * store never overtakes them in data; the fence is seen only in time
 * (with try_release ignoring `inflight`, the partner stores one cycle
 * after the relssp and the check on `acq` fails, the values stay right;
 * docs/scratchpad-sharing.md, "Lock, transfer and relssp"). */
TEST(ssp_relssp_divergent_release_and_fence)
{
    const char *sets[] = { SMALL_SM, "gpgpu_n_clusters=1", NULL };
    uint32_t p[1] = { 0 };
    run_t r = run_kernel(sets, rel_ptx, "rel", 2, 64, R_N, p, 1);
    CHECK_MSG(r.rc == SIMT_OK, "%s", r.msg);
    for (unsigned c = 0; c < 2; c++)
        for (unsigned t = 0; t < 64; t++) {
            CHECK_EQ(RA(&r, c, t, R_V), c);
            CHECK_EQ(RA(&r, c, t, R_V2), c);
        }
    uint32_t last_rel, first_end;
    unsigned o = first_of(&r, 0, 64, R_N, R_C2) < first_of(&r, 1, 64, R_N, R_C2)
                     ? 0 : 1;
    uint32_t acq = first_of(&r, 1 - o, 64, R_N, R_C2);
    rel_span(&r, o, 64, &last_rel, &first_end);
    CHECK_MSG(acq > last_rel + 12 && acq < first_end,
              "non-owner stored at %u; the owner's last relssp at %u, its end "
              "at %u", acq, last_rel, first_end);
    CHECK_EQ(r.st.ssp_lock_acquisitions, 2);
    CHECK_EQ(r.st.ssp_relssp_releases, 2);
    CHECK_EQ(r.st.ssp_lock_transfers, 0);
    free(r.out);
}

/* §9 test 11: the second warp of each CTA exits before relssp; the first
 * warp's relssp alone releases the region, so CTA 1 still stores before
 * CTA 0 completes. */
TEST(ssp_relssp_exited_threads_do_not_block)
{
    const char *sets[] = { SMALL_SM, "gpgpu_n_clusters=1", NULL };
    uint32_t p[1] = { 1 };
    run_t r = run_kernel(sets, rel_ptx, "rel", 2, 64, R_N, p, 1);
    CHECK_MSG(r.rc == SIMT_OK, "%s", r.msg);
    uint32_t last_rel, first_end;
    unsigned o = first_of(&r, 0, 64, R_N, R_C2) < first_of(&r, 1, 64, R_N, R_C2)
                     ? 0 : 1;
    uint32_t acq = first_of(&r, 1 - o, 64, R_N, R_C2);
    rel_span(&r, o, 32, &last_rel, &first_end);
    CHECK_MSG(acq > last_rel && acq < first_end,
              "non-owner stored at %u; the owner's relssp at %u, its end at %u",
              acq, last_rel, first_end);
    CHECK_EQ(r.st.ssp_relssp_releases, 2);
    CHECK_EQ(RA(&r, 1, 40, R_V), 1);
    free(r.out);
}

/* §9 test 16 (and slot inheritance, §9 test 3): barriers before and after
 * the shared-region accesses in both CTAs of a pair, 6 CTAs through the
 * two slots of one SM, complete with every value right under every warp
 * scheduler. */
TEST(ssp_no_deadlock_with_barriers_every_scheduler)
{
    static const char *const scheds[] = {
        "gpgpu_scheduler=lrr", "gpgpu_scheduler=gto", "gpgpu_scheduler=owf",
        "gpgpu_scheduler=oldest", "gpgpu_scheduler=two_level",
        "gpgpu_scheduler=ltlws", "gpgpu_scheduler=tlv", "gpgpu_scheduler=ccws",
    };
    for (unsigned k = 0; k < sizeof scheds / sizeof *scheds; k++)
        for (uint32_t mode = 0; mode < 2; mode++) {
            const char *sets[] = { SMALL_SM, "gpgpu_n_clusters=1", scheds[k], NULL };
            run_t r = run_kernel(sets, rel_ptx, "rel", 6, 64, R_N, &mode, 1);
            CHECK_MSG(r.rc == SIMT_OK, "%s: %s", scheds[k], r.msg);
            for (unsigned c = 0; c < 6; c++)
                CHECK_MSG(RA(&r, c, 3, R_V) == c && RA(&r, c, 33, R_V) == c,
                          "%s: CTA %u read %u", scheds[k], c, RA(&r, c, 3, R_V));
            CHECK(r.st.ssp_lock_acquisitions >= 6);
            free(r.out);
        }
}

/* §2.9 / §9 test 10: relssp by a CTA that never held the lock changes
 * nothing (no release counted, the partner keeps it); a shared-region
 * access after the CTA's own relssp is a located fault. */
static const char after_ptx[] = PK_HEADER
    ".visible .entry after(.param .u64 out, .param .u32 mode)\n"
    "{\n"
    ".reg .b32 %r<8>;\n.reg .pred %p<2>;\n"
    ".shared .align 4 .b8 s[800];\n"
    "ld.param.u32 %r1, [mode];\nmov.u32 %r4, %ctaid.x;\nmov.u32 %r5, s;\n"
    "setp.eq.u32 %p1, %r1, 0;\n@%p1 bra NOLOCK;\n"
    "st.shared.u32 [%r5+400], %r4;\n"
    "relssp;\n"
    "st.shared.u32 [%r5+404], %r4;\n"
    "ret;\n"
    "NOLOCK:\nst.shared.u32 [%r5+4], %r4;\nrelssp;\nret;\n}\n";

TEST(ssp_relssp_without_lock_and_access_after_release)
{
    const char *sets[] = { SMALL_SM, "gpgpu_n_clusters=1", NULL };
    uint32_t mode = 0;
    run_t r = run_kernel(sets, after_ptx, "after", 2, 32, 1, &mode, 1);
    CHECK_MSG(r.rc == SIMT_OK, "%s", r.msg);
    CHECK_EQ(r.st.ssp_lock_acquisitions, 0);
    CHECK_EQ(r.st.ssp_relssp_releases, 0);
    free(r.out);
    mode = 1;
    r = run_kernel(sets, after_ptx, "after", 2, 32, 1, &mode, 1);
    CHECK_EQ(r.rc, SIMT_EFAULT);
    CHECK_MSG(strstr(r.msg, "after the CTA's relssp") != NULL, "%s", r.msg);
    CHECK_MSG(strstr(r.msg, "ssp.ptx:") != NULL, "not located: %s", r.msg);
    free(r.out);
}

/* ShSM ends with the sharing kernel's stay on the SM: a second launch that
 * does not share (1024 threads: one CTA by threads as by scratchpad) runs
 * its shared-region accesses on the same SM without the first launch's
 * pair table: no lock is taken for it (the first launch alone takes 1,
 * as in ssp_lock_isolation_wait_and_transfer). */
TEST(ssp_tables_end_with_the_kernel)
{
    const char *sets[] = { SMALL_SM, "gpgpu_n_clusters=1", NULL };
    simt_error_t err = { 0 };
    simt_gpu_t *g = pk_gpu(sets, &err);
    simt_module_t *m = g ? pk_load(g, "ssp.ptx", pair_ptx, &err) : NULL;
    CHECK_MSG(m != NULL, "%s", err.msg);
    simt_devptr_t out = pk_alloc_u32(g, 1024 * P_N, 0);
    uint32_t spin = 0, off = 80;
    simt_arg_t a[3] = { SIMT_ARG(out), SIMT_ARG(spin), SIMT_ARG(off) };
    CHECK(pk_launch(g, m, "pair", pk_dim(2, 1, 1), pk_dim(32, 1, 1), 0, a, 3,
                    &err) == SIMT_OK);
    CHECK(pk_launch(g, m, "pair", pk_dim(1, 1, 1), pk_dim(1024, 1, 1), 0, a, 3,
                    &err) == SIMT_OK);
    CHECK_MSG(simt_synchronize(g, &err) == SIMT_OK, "%s", err.msg);
    const simt_stats_t *st = simt_gpu_stats(g);
    CHECK_EQ(st->ssp_pairs, 1); /* the first launch's; the second has 0 */
    CHECK_EQ(st->ssp_lock_acquisitions, 1);
    pk_gpu_free(g);
}

/* ---------- Fig. 19: the progress of paired CTAs ---------- */

/* The accounting of sm_share_progress_* (docs/scratchpad-sharing.md,
 * "Progress of paired CTAs") on five CTAs whose cycles are written out:
 *   A owner with relssp: placed 10, first shared-region access 25 (a
 *     second one at 40 changes nothing), release 70 (a second at 80
 *     changes nothing), done 100: pre 25-10 = 15, shared 70-25 = 45,
 *     post 100-70 = 30;
 *   B non-owner that waits and then holds to its end: placed 0, access
 *     120, done 200: pre 120, shared 80, post 0;
 *   C never touches the region (heartwall's extra blocks): placed 5, done
 *     55: pre 50, shared 0, post 0;
 *   D relssp without an access (OPT's release on a path without one):
 *     placed 0, release 30, done 50: pre 30, shared 0, post 20;
 *   E unpaired (an unshared slot): placed 0, access 10, done 20: not
 *     counted.
 * Totals: pre 15 + 120 + 50 + 30 = 215, shared 45 + 80 = 125, post
 * 30 + 20 = 50, 4 CTAs; each CTA's three add up to its life (90, 200, 50,
 * 50). */
TEST(ssp_progress_breakdown_hand_computed)
{
    uint64_t cyc[3] = { 0, 0, 0 };
    unsigned n = 0;
    sm_share_progress_t p;
    sm_share_progress_begin(&p, 1, 10); /* A */
    sm_share_progress_access(&p, 25);
    sm_share_progress_access(&p, 40);
    sm_share_progress_release(&p, 70);
    sm_share_progress_release(&p, 80);
    n += (unsigned)sm_share_progress_end(&p, 100, cyc);
    CHECK_EQ(cyc[0], 15);
    CHECK_EQ(cyc[1], 45);
    CHECK_EQ(cyc[2], 30);
    sm_share_progress_begin(&p, 1, 0); /* B */
    sm_share_progress_access(&p, 120);
    n += (unsigned)sm_share_progress_end(&p, 200, cyc);
    sm_share_progress_begin(&p, 1, 5); /* C */
    n += (unsigned)sm_share_progress_end(&p, 55, cyc);
    CHECK_EQ(cyc[0], 15 + 120 + 50);
    CHECK_EQ(cyc[1], 45 + 80);
    sm_share_progress_begin(&p, 1, 0); /* D */
    sm_share_progress_release(&p, 30);
    n += (unsigned)sm_share_progress_end(&p, 50, cyc);
    sm_share_progress_begin(&p, 0, 0); /* E */
    sm_share_progress_access(&p, 10);
    CHECK_EQ(sm_share_progress_end(&p, 20, cyc), 0);
    CHECK_EQ(n, 4);
    CHECK_EQ(cyc[0], 215);
    CHECK_EQ(cyc[1], 125);
    CHECK_EQ(cyc[2], 50);
}

/* The counters on real runs (one SM, one pair, two CTAs):
 *   pair kernel, region offset 80, no relssp: both CTAs store into the
 *     region and hold it to their end (one by transfer): shared > 0,
 *     post-release 0, and the non-owner's wait makes pre-acquire > 0;
 *   pair kernel, offset 0 (the region never touched, as heartwall's extra
 *     blocks): every cycle pre-acquire;
 *   rel kernel: each CTA runs LOOP2 (1500 iterations of 4 instructions,
 *     at most one issue a cycle: >= 6000 cycles) after its release took
 *     effect, so post-release >= 2 x 6000;
 *   after kernel, mode 0: relssp without a shared-region access: shared
 *     0.
 * Each run counts 2 paired CTAs, and nothing else moves: the other
 * statistics are those of the same runs checked above. */
TEST(ssp_progress_breakdown_runs)
{
    const char *sets[] = { SMALL_SM, "gpgpu_n_clusters=1", NULL };
    uint32_t p[2] = { 0, 80 };
    run_t r = run_kernel(sets, pair_ptx, "pair", 2, 32, P_N, p, 2);
    CHECK_MSG(r.rc == SIMT_OK, "%s", r.msg);
    CHECK_EQ(r.st.ssp_paired_ctas, 2);
    CHECK(r.st.ssp_pre_acquire_cycles > 0);
    CHECK(r.st.ssp_shared_cycles > 0);
    CHECK_EQ(r.st.ssp_post_release_cycles, 0);
    /* the non-owner's pre-acquire covers its wait for the owner's end */
    CHECK(r.st.ssp_pre_acquire_cycles > r.st.ssp_lock_held_cycles / 2);
    free(r.out);

    p[1] = 0;
    r = run_kernel(sets, pair_ptx, "pair", 2, 32, P_N, p, 2);
    CHECK_MSG(r.rc == SIMT_OK, "%s", r.msg);
    CHECK_EQ(r.st.ssp_paired_ctas, 2);
    CHECK(r.st.ssp_pre_acquire_cycles > 0);
    CHECK_EQ(r.st.ssp_shared_cycles, 0);
    CHECK_EQ(r.st.ssp_post_release_cycles, 0);
    free(r.out);

    uint32_t mode = 0;
    r = run_kernel(sets, rel_ptx, "rel", 2, 64, R_N, &mode, 1);
    CHECK_MSG(r.rc == SIMT_OK, "%s", r.msg);
    CHECK_EQ(r.st.ssp_paired_ctas, 2);
    CHECK(r.st.ssp_shared_cycles > 0);
    CHECK_MSG(r.st.ssp_post_release_cycles >= 2 * 6000, "post-release %llu",
              (unsigned long long)r.st.ssp_post_release_cycles);
    free(r.out);

    r = run_kernel(sets, after_ptx, "after", 2, 32, 1, &mode, 1);
    CHECK_MSG(r.rc == SIMT_OK, "%s", r.msg);
    CHECK_EQ(r.st.ssp_paired_ctas, 2);
    CHECK_EQ(r.st.ssp_shared_cycles, 0);
    CHECK(r.st.ssp_pre_acquire_cycles > 0);
    free(r.out);
}
