/* test_lanemap.c: issue groups whose lane maps are not the identity
 * (exec.h, exec/group.c) execute their threads' own state: registers,
 * predicates, the carry flag and local frames stay with the thread,
 * whichever lane of whichever group it runs in.
 *
 * One CTA of 64 threads (home warps 0 and 1) runs the kernel below, with
 * its groups' lane maps replaced before the first instruction; the groups
 * are stepped in turn, one instruction each, so that a state kept per lane
 * or per group instead of per thread would be overwritten by the other
 * group between a write and its read.  Expected values per thread t that
 * runs in lane l, by hand from the PTX:
 *   r3 = 3t + 7 + (t < 40 ? 1000 : 2000)   (a divergent branch on t)
 *   r4 = l                                  (%laneid: the lane it runs in)
 *   r6 = (t >= 32)                          (carry of t + 0xffffffe0)
 *   r7 = 3t                                 (stored to and loaded from its
 *                                            local frame)
 *   p1 = (t < 40)
 * Threads that no group holds keep their zeroed state. */
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "exec/exec.h"
#include "exec/recon.h"
#include "ptx/ir.h"
#include "simt/config.h"

static const char lanemap_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n\n"
    ".visible .entry lanemap()\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<8>;\n"
    "    .local .align 4 .b8 frame[4];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mul.lo.u32 %r2, %r1, 3;\n"
    "    st.local.u32 [frame], %r2;\n"
    "    add.u32 %r3, %r2, 7;\n"
    "    mov.u32 %r4, %laneid;\n"
    "    add.cc.u32 %r5, %r1, 0xffffffe0;\n"
    "    mov.u32 %r0, 0;\n"
    "    addc.u32 %r6, %r0, 0;\n"
    "    setp.lt.u32 %p1, %r1, 40;\n"
    "    @%p1 bra $SMALL;\n"
    "    add.u32 %r3, %r3, 2000;\n"
    "    bra.uni $JOIN;\n"
    "$SMALL:\n"
    "    add.u32 %r3, %r3, 1000;\n"
    "$JOIN:\n"
    "    ld.local.u32 %r7, [frame];\n"
    "    ret;\n"
    "}\n";

typedef struct fixture {
    ptx_module_t *m;
    exec_program_t *p;
    simt_config_t cfg;
    simt_stats_t stats;
    simt_error_t err;
    devmem_t gmem;
    exec_launch_t l;
    cta_t c;
} fixture_t;

/* Parses and builds the kernel and sets up its CTA of 64 threads (with
 * the configured model's groups); 0 on success. */
static int setup(fixture_t *f)
{
    memset(f, 0, sizeof *f);
    simt_config_defaults(&f->cfg);
    devmem_init(&f->gmem);
    f->m = ptx_parse("lanemap.ptx", lanemap_ptx, sizeof lanemap_ptx - 1, &f->err);
    if (!f->m)
        return -1;
    int k = ptx_find_function(f->m, "lanemap");
    if (k < 0 || exec_program_build(f->m, (uint32_t)k, 0, &f->p, &f->err) != SIMT_OK)
        return -1;
    f->l = (exec_launch_t){ .prog = f->p, .kernel_name = "lanemap",
                            .gmem = &f->gmem, .grid = { 1, 1, 1 },
                            .block = { 64, 1, 1 }, .smid_count = 1,
                            .stats = &f->stats, .cfg = &f->cfg, .err = &f->err };
    uint32_t id[3] = { 0, 0, 0 };
    return cta_init(&f->c, &f->l, id, 0, NULL, 0) == SIMT_OK ? 0 : -1;
}

static void teardown(fixture_t *f)
{
    cta_release(&f->c);
    exec_program_free(f->p);
    ptx_module_free(f->m);
    devmem_release(&f->gmem);
}

/* The value slot (or predicate slot) of the kernel's register `name`. */
static uint32_t slot_of(const fixture_t *f, const char *name)
{
    const ptx_function_t *fn = &f->m->funcs[f->p->kernel];
    uint32_t vs = 0, ps = 0;
    for (uint32_t r = 0; r < fn->nregs; r++) {
        int pred = fn->regs[r].type == PTX_T_PRED;
        if (!strcmp(fn->regs[r].name, name))
            return pred ? ps : vs;
        if (pred)
            ps++;
        else
            vs++;
    }
    return EXEC_NO_PC;
}

/* Gives group w the lane map `thread` and a fresh first entry. */
static int remap(warp_t *w, const uint32_t thread[32])
{
    if (exec_group_map(w, thread) != 0)
        return -1;
    w->stack[0] = (simt_entry_t){ 0, EXEC_NO_PC, w->valid, EXEC_NO_PC };
    w->depth = 1;
    w->state = WARP_READY;
    return 0;
}

/* Steps the CTA's groups in turn, one instruction each; 0 when all are
 * done without a fault. */
static int run_interleaved(fixture_t *f)
{
    exec_ctx_t x = { .l = &f->l, .cta = &f->c };
    for (int live = 1; live;) {
        live = 0;
        for (uint32_t i = 0; i < f->c.nwarps; i++) {
            warp_t *w = &f->c.warps[i];
            if (w->state != WARP_READY)
                continue;
            if (exec_step(&x, w) != SIMT_OK)
                return -1;
            live = 1;
        }
    }
    return 0;
}

static uint64_t reg_of(const fixture_t *f, uint32_t t, const char *name)
{
    return *exec_thread_reg(&f->c, t, slot_of(f, name));
}

static int pred_of(const fixture_t *f, uint32_t t, const char *name)
{
    uint32_t word = f->c.threads.preds[(size_t)t / 32 * f->p->npreds +
                                       slot_of(f, name)];
    return (int)(word >> (t % 32) & 1);
}

/* Checks thread t, which ran in lane `lane`, against the header's values;
 * 0 when they match (a failure is reported by the caller's CHECK_MSG). */
static int thread_ok(const fixture_t *f, uint32_t t, uint32_t lane)
{
    return reg_of(f, t, "%r3") == 3 * t + 7 + (t < 40 ? 1000 : 2000) &&
           reg_of(f, t, "%r4") == lane && reg_of(f, t, "%r6") == (t >= 32) &&
           reg_of(f, t, "%r7") == 3 * t && pred_of(f, t, "%p1") == (t < 40);
}

static int thread_untouched(const fixture_t *f, uint32_t t)
{
    static const char *const names[] = { "%r1", "%r2", "%r3", "%r4", "%r5",
                                         "%r6", "%r7" };
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (reg_of(f, t, names[i]) != 0)
            return 0;
    return !pred_of(f, t, "%p1");
}

/* pdom forms one group per home warp, each thread in its home lane: the
 * groups use the home warps' storage in place. */
TEST(lanemap_pdom_groups_are_home_warps)
{
    fixture_t f;
    CHECK_MSG(setup(&f) == 0, "setup: %s", f.err.msg);
    CHECK_EQ(f.c.nwarps, 2);
    for (uint32_t i = 0; i < 2; i++) {
        const warp_t *w = &f.c.warps[i];
        CHECK_EQ(w->home, i);
        CHECK_EQ(w->valid, 0xffffffffu);
        for (uint32_t l = 0; l < 32; l++)
            CHECK_EQ(w->thread[l], i * 32 + l);
        CHECK(w->regs == exec_thread_reg(&f.c, i * 32, 0));
    }
    CHECK_MSG(run_interleaved(&f) == 0, "run: %s", f.err.msg);
    for (uint32_t t = 0; t < 64; t++)
        CHECK_MSG(thread_ok(&f, t, t % 32), "thread %u: r3 %llu r4 %llu r6 "
                  "%llu r7 %llu p1 %d", t,
                  (unsigned long long)reg_of(&f, t, "%r3"),
                  (unsigned long long)reg_of(&f, t, "%r4"),
                  (unsigned long long)reg_of(&f, t, "%r6"),
                  (unsigned long long)reg_of(&f, t, "%r7"), pred_of(&f, t, "%p1"));
    teardown(&f);
}

/* Both groups reversed and swapped: group 0 lane l runs thread 63 - l,
 * group 1 lane l runs thread 31 - l; neither uses a home block. */
TEST(lanemap_permuted_groups_run_their_threads)
{
    fixture_t f;
    CHECK_MSG(setup(&f) == 0, "setup: %s", f.err.msg);
    uint32_t map0[32], map1[32];
    for (uint32_t l = 0; l < 32; l++) {
        map0[l] = 63 - l;
        map1[l] = 31 - l;
    }
    CHECK(remap(&f.c.warps[0], map0) == 0);
    CHECK(remap(&f.c.warps[1], map1) == 0);
    CHECK_EQ(f.c.warps[0].home, EXEC_NO_THREAD);
    CHECK_EQ(f.c.warps[1].home, EXEC_NO_THREAD);
    CHECK_MSG(run_interleaved(&f) == 0, "run: %s", f.err.msg);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t lane = t >= 32 ? 63 - t : 31 - t;
        CHECK_MSG(thread_ok(&f, t, lane), "thread %u in lane %u: r3 %llu r4 "
                  "%llu r6 %llu r7 %llu p1 %d", t, lane,
                  (unsigned long long)reg_of(&f, t, "%r3"),
                  (unsigned long long)reg_of(&f, t, "%r4"),
                  (unsigned long long)reg_of(&f, t, "%r6"),
                  (unsigned long long)reg_of(&f, t, "%r7"), pred_of(&f, t, "%p1"));
    }
    /* By hand: 10 instructions up to the branch, then 1 on the t < 40
     * side, 2 on the other, then ld and ret.  Group 0 (threads 32..63)
     * diverges: threads 32..39 take the branch; 10 + 1 + 2 + 2 = 15
     * instructions, 10*32 + 8 + 2*24 + 2*32 = 440 thread-instructions.
     * Group 1 (threads 0..31) all take it: 13 and 13*32 = 416. */
    CHECK_EQ(f.stats.warp_insns, 28);
    CHECK_EQ(f.stats.thread_insns, 856);
    CHECK_EQ(f.stats.divergent_branches, 1);
    teardown(&f);
}

/* Partial maps: group 0 holds threads 32..47 in lanes 0..15 (their home
 * lanes) and threads 0..15 in lanes 16..31 (away from theirs): a mix of
 * two home warps, run on a copy.  Group 1 holds threads 48..63 in their
 * home lanes 16..31 and nothing in lanes 0..15: a partial identity map,
 * run in place, whose block's lanes 0..15 are group 0's threads.
 * Threads 16..31 belong to no group and must stay untouched. */
TEST(lanemap_partial_groups_leave_other_threads_alone)
{
    fixture_t f;
    CHECK_MSG(setup(&f) == 0, "setup: %s", f.err.msg);
    uint32_t map0[32], map1[32];
    for (uint32_t l = 0; l < 32; l++) {
        map0[l] = l < 16 ? 32 + l : l - 16;
        map1[l] = l < 16 ? EXEC_NO_THREAD : 32 + l;
    }
    CHECK(remap(&f.c.warps[0], map0) == 0);
    CHECK(remap(&f.c.warps[1], map1) == 0);
    CHECK_EQ(f.c.warps[0].home, EXEC_NO_THREAD);
    CHECK_EQ(f.c.warps[1].home, 1);
    CHECK_EQ(f.c.warps[1].valid, 0xffff0000u);
    CHECK_MSG(run_interleaved(&f) == 0, "run: %s", f.err.msg);
    for (uint32_t t = 0; t < 64; t++) {
        if (t >= 16 && t < 32) {
            CHECK_MSG(thread_untouched(&f, t), "thread %u ran in no group "
                      "but its state changed", t);
            continue;
        }
        uint32_t lane = t < 16 ? t + 16 : t - 32;
        CHECK_MSG(thread_ok(&f, t, lane), "thread %u in lane %u: r3 %llu r4 "
                  "%llu r6 %llu r7 %llu p1 %d", t, lane,
                  (unsigned long long)reg_of(&f, t, "%r3"),
                  (unsigned long long)reg_of(&f, t, "%r4"),
                  (unsigned long long)reg_of(&f, t, "%r6"),
                  (unsigned long long)reg_of(&f, t, "%r7"), pred_of(&f, t, "%p1"));
    }
    teardown(&f);
}

/* Threads regrouped mid-kernel, as DWF does: both pdom groups (in place)
 * run 6 instructions, up to and including add.cc; then group 0 takes the
 * even lanes of home warp 0 and the odd lanes of home warp 1, group 1 the
 * rest, each thread staying in its home lane (lane-aware placement).
 * What the threads computed in their home blocks, the carry included,
 * must follow them into the mixed groups. */
TEST(lanemap_regrouped_threads_keep_their_state)
{
    fixture_t f;
    CHECK_MSG(setup(&f) == 0, "setup: %s", f.err.msg);
    exec_ctx_t x = { .l = &f.l, .cta = &f.c };
    for (int k = 0; k < 6; k++)
        for (uint32_t i = 0; i < 2; i++)
            CHECK_MSG(exec_step(&x, &f.c.warps[i]) == SIMT_OK, "%s", f.err.msg);
    uint32_t map[2][32];
    for (uint32_t l = 0; l < 32; l++) {
        map[0][l] = (l % 2 ? 32 : 0) + l;
        map[1][l] = (l % 2 ? 0 : 32) + l;
    }
    for (uint32_t i = 0; i < 2; i++) {
        warp_t *w = &f.c.warps[i];
        CHECK_EQ(warp_pc(w), 6);
        CHECK(exec_group_map(w, map[i]) == 0);
        CHECK_EQ(w->home, EXEC_NO_THREAD);
        w->stack[w->depth - 1].mask = w->valid;
    }
    CHECK_MSG(run_interleaved(&f) == 0, "run: %s", f.err.msg);
    for (uint32_t t = 0; t < 64; t++)
        CHECK_MSG(thread_ok(&f, t, t % 32), "thread %u: r3 %llu r4 %llu r6 "
                  "%llu r7 %llu p1 %d", t,
                  (unsigned long long)reg_of(&f, t, "%r3"),
                  (unsigned long long)reg_of(&f, t, "%r4"),
                  (unsigned long long)reg_of(&f, t, "%r6"),
                  (unsigned long long)reg_of(&f, t, "%r7"), pred_of(&f, t, "%p1"));
    teardown(&f);
}

/* The reconvergence models' names are the configuration's enum values. */
TEST(lanemap_recon_models_named_by_config)
{
    simt_config_t cfg;
    simt_error_t err = { 0 }; /* set_error keeps a first error: start clear */
    simt_config_defaults(&cfg);
    CHECK_EQ(simt_config_set(&cfg, "simt_reconvergence=pdom", "test", &err), SIMT_OK);
    CHECK(recon_model((unsigned)simt_config_get(&cfg, SIMT_CFG_RECONVERGENCE)) ==
          &recon_pdom);
    CHECK_EQ(strcmp(recon_model_names[0], "pdom"), 0);
    CHECK(simt_config_set(&cfg, "simt_reconvergence=none", "test", &err) != SIMT_OK);
    CHECK_MSG(strstr(err.msg, "pdom"), "%s", err.msg);
}
