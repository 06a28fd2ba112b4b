/* test_liveness.c: per-instruction defs/uses and per-block liveness
 * (ptx/liveness.c) on small hand-written functions.
 *
 * Expected sets were worked out by hand; the comment beside each
 * instruction gives its index within the function and its block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ptx/cfg.h"
#include "ptx/ir.h"
#include "ptx/liveness.h"
#include "simt/simt.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n\n"

static ptx_module_t *parse(const char *text)
{
    simt_error_t err;
    memset(&err, 0, sizeof err);
    ptx_module_t *m = ptx_parse("t.ptx", text, strlen(text), &err);
    if (!m)
        printf("  parse error: %s\n", err.msg);
    return m;
}

static int reg_named(const ptx_function_t *f, const char *name)
{
    for (uint32_t i = 0; i < f->nregs; i++)
        if (strcmp(f->regs[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Is `set` exactly the registers named in the space-separated `names`?
 * Prints the difference when not. */
static int set_is(const ptx_function_t *f, const uint64_t *set,
                  const char *names)
{
    uint32_t words = (f->nregs + 63) / 64;
    uint64_t want[8] = { 0 };
    if (words > 8)
        return 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", names);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        int r = reg_named(f, t);
        if (r < 0) {
            printf("  no register %s\n", t);
            return 0;
        }
        want[r >> 6] |= 1ull << (r & 63);
    }
    int same = 1;
    for (uint32_t w = 0; w < words; w++)
        if (want[w] != set[w])
            same = 0;
    if (!same) {
        printf("  expected {%s}, got {", names);
        for (uint32_t r = 0; r < f->nregs; r++)
            if (ptx_live_has(set, r))
                printf(" %s", f->regs[r].name);
        printf(" }\n");
    }
    return same;
}

/* Are regs[0..n) exactly the registers in `names` (in any order)? */
static int list_is(const ptx_function_t *f, const uint16_t *regs, int n,
                   const char *names)
{
    uint64_t set[8] = { 0 };
    for (int i = 0; i < n; i++) {
        if (regs[i] >= f->nregs || (set[regs[i] >> 6] >> (regs[i] & 63) & 1)) {
            printf("  bad or repeated register %u\n", regs[i]);
            return 0;
        }
        set[regs[i] >> 6] |= 1ull << (regs[i] & 63);
    }
    return set_is(f, set, names);
}

/* Liveness of function 0 of a module, with its CFG. */
typedef struct {
    ptx_module_t *m;
    ptx_cfg_t *cfg;
    ptx_liveness_t *lv;
    const ptx_function_t *f;
    uint64_t set[8];
} fixture_t;

static int setup(fixture_t *x, const char *text)
{
    memset(x, 0, sizeof *x);
    x->m = parse(text);
    if (!x->m)
        return 0;
    x->f = &x->m->funcs[0];
    x->cfg = ptx_cfg_build(x->m, 0);
    x->lv = x->cfg ? ptx_liveness_build(x->m, x->cfg) : NULL;
    return x->lv != NULL && x->lv->words <= 8;
}

static void teardown(fixture_t *x)
{
    ptx_liveness_free(x->lv);
    ptx_cfg_free(x->cfg);
    ptx_module_free(x->m);
}

/* The set live after instruction i (index within the function). */
static const uint64_t *after(fixture_t *x, uint32_t i)
{
    ptx_liveness_after(x->lv, x->m, x->cfg, x->f->first + i, x->set);
    return x->set;
}

static const char straight[] = HDR
    ".visible .entry k(.param .u32 k_p, .param .u64 k_out)\n"
    "{\n"
    "  .reg .b32 %r<5>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u32 %r1, [k_p];\n"      /* 0 */
    "  ld.param.u64 %rd1, [k_out];\n"   /* 1 */
    "  add.s32 %r2, %r1, 1;\n"          /* 2 */
    "  add.s32 %r3, %r1, %r2;\n"        /* 3 */
    "  mul.lo.s32 %r4, %r3, %r3;\n"     /* 4 */
    "  st.global.u32 [%rd1], %r4;\n"    /* 5 */
    "  ret;\n"                          /* 6 */
    "}\n";

TEST(liveness_straight_line)
{
    fixture_t x;
    CHECK(setup(&x, straight));
    CHECK_EQ(x.cfg->nblocks, 1);
    CHECK(set_is(x.f, ptx_live_in(x.lv, 0), ""));
    CHECK(set_is(x.f, ptx_live_out(x.lv, 0), ""));
    CHECK(set_is(x.f, after(&x, 0), "%r1"));
    CHECK(set_is(x.f, after(&x, 1), "%r1 %rd1"));
    CHECK(set_is(x.f, after(&x, 2), "%r1 %r2 %rd1"));
    CHECK(set_is(x.f, after(&x, 3), "%r3 %rd1"));
    CHECK(set_is(x.f, after(&x, 4), "%r4 %rd1"));
    CHECK(set_is(x.f, after(&x, 5), ""));
    CHECK(set_is(x.f, after(&x, 6), ""));
    teardown(&x);
}

/* The walk visits the block bottom-up with the same sets. */
typedef struct {
    fixture_t *x;
    uint32_t next;   /* instruction expected next (within the function) */
    int bad;
} walk_t;

static int visit(void *ctx, uint32_t insn, const uint64_t *live)
{
    walk_t *w = ctx;
    static const char *const want[7] = {
        "%r1", "%r1 %rd1", "%r1 %r2 %rd1", "%r3 %rd1", "%r4 %rd1", "", "",
    };
    uint32_t i = insn - w->x->f->first;
    if (i != w->next || i >= 7 || !set_is(w->x->f, live, want[i]))
        w->bad = 1;
    w->next--;
    return i == 3 ? 42 : 0; /* stop early: the walk must return this */
}

TEST(liveness_walk_block)
{
    fixture_t x;
    CHECK(setup(&x, straight));
    walk_t w = { &x, 6, 0 };
    CHECK_EQ(ptx_liveness_walk(x.lv, x.m, x.cfg, 0, visit, &w), 42);
    CHECK(!w.bad);
    CHECK_EQ(w.next, 2);
    teardown(&x);
}

static const char diamond[] = HDR
    ".visible .entry k(.param .u32 k_p, .param .u32 k_q, .param .u64 k_out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u32 %r1, [k_p];\n"      /* 0 B0 */
    "  ld.param.u32 %r5, [k_q];\n"      /* 1 B0 */
    "  ld.param.u64 %rd1, [k_out];\n"   /* 2 B0 */
    "  setp.eq.s32 %p1, %r1, 0;\n"      /* 3 B0 */
    "  @%p1 bra $L_else;\n"             /* 4 B0 */
    "  add.s32 %r2, %r1, 1;\n"          /* 5 B1 */
    "  bra.uni $L_join;\n"              /* 6 B1 */
    "$L_else:\n"
    "  add.s32 %r2, %r5, 2;\n"          /* 7 B2 */
    "$L_join:\n"
    "  add.s32 %r3, %r2, %r1;\n"        /* 8 B3 */
    "  st.global.u32 [%rd1], %r3;\n"    /* 9 B3 */
    "  ret;\n"                          /* 10 B3 */
    "}\n";

TEST(liveness_diamond)
{
    fixture_t x;
    CHECK(setup(&x, diamond));
    CHECK_EQ(x.cfg->nblocks, 4);
    /* %r5 is only read on the else path, %r1 on both and after */
    CHECK(set_is(x.f, ptx_live_in(x.lv, 0), ""));
    CHECK(set_is(x.f, ptx_live_out(x.lv, 0), "%r1 %r5 %rd1"));
    CHECK(set_is(x.f, ptx_live_in(x.lv, 1), "%r1 %rd1"));
    CHECK(set_is(x.f, ptx_live_out(x.lv, 1), "%r1 %r2 %rd1"));
    CHECK(set_is(x.f, ptx_live_in(x.lv, 2), "%r1 %r5 %rd1"));
    CHECK(set_is(x.f, ptx_live_out(x.lv, 2), "%r1 %r2 %rd1"));
    CHECK(set_is(x.f, ptx_live_in(x.lv, 3), "%r1 %r2 %rd1"));
    CHECK(set_is(x.f, ptx_live_out(x.lv, 3), ""));
    CHECK(set_is(x.f, after(&x, 3), "%p1 %r1 %r5 %rd1"));
    CHECK(set_is(x.f, after(&x, 4), "%r1 %r5 %rd1"));
    CHECK(set_is(x.f, after(&x, 8), "%r3 %rd1"));
    teardown(&x);
}

static const char loop[] = HDR
    ".visible .entry k(.param .u64 k_out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<3>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  mov.u32 %r1, 0;\n"               /* 0 B0 */
    "  mov.u32 %r2, 0;\n"               /* 1 B0 */
    "$L_loop:\n"
    "  add.s32 %r2, %r2, %r1;\n"        /* 2 B1 */
    "  add.s32 %r1, %r1, 1;\n"          /* 3 B1 */
    "  setp.lt.s32 %p1, %r1, 10;\n"     /* 4 B1 */
    "  @%p1 bra $L_loop;\n"             /* 5 B1 */
    "  ld.param.u64 %rd1, [k_out];\n"   /* 6 B2 */
    "  st.global.u32 [%rd1], %r2;\n"    /* 7 B2 */
    "  ret;\n"                          /* 8 B2 */
    "}\n";

TEST(liveness_loop_carried)
{
    fixture_t x;
    CHECK(setup(&x, loop));
    CHECK_EQ(x.cfg->nblocks, 3);
    /* the counter and the sum go round the back edge; only the sum
     * leaves the loop */
    CHECK(set_is(x.f, ptx_live_in(x.lv, 0), ""));
    CHECK(set_is(x.f, ptx_live_out(x.lv, 0), "%r1 %r2"));
    CHECK(set_is(x.f, ptx_live_in(x.lv, 1), "%r1 %r2"));
    CHECK(set_is(x.f, ptx_live_out(x.lv, 1), "%r1 %r2"));
    CHECK(set_is(x.f, ptx_live_in(x.lv, 2), "%r2"));
    CHECK(set_is(x.f, ptx_live_out(x.lv, 2), ""));
    CHECK(set_is(x.f, after(&x, 0), "%r1"));
    CHECK(set_is(x.f, after(&x, 4), "%p1 %r1 %r2"));
    CHECK(set_is(x.f, after(&x, 6), "%r2 %rd1"));
    teardown(&x);
}

/* `guard` is "@%p1" (a predicated redefinition of %r2) or "" (a plain
 * one). */
static char *predicated(const char *guard)
{
    static const char fmt[] = HDR
        ".visible .entry k(.param .u32 k_p, .param .u64 k_out)\n"
        "{\n"
        "  .reg .pred %%p<3>;\n"
        "  .reg .b32 %%r<4>;\n"
        "  .reg .b64 %%rd<2>;\n"
        "  ld.param.u32 %%r1, [k_p];\n"      /* 0 B0 */
        "  ld.param.u64 %%rd1, [k_out];\n"   /* 1 B0 */
        "  mov.u32 %%r2, 5;\n"               /* 2 B0 */
        "  setp.eq.s32 %%p1, %%r1, 0;\n"     /* 3 B0 */
        "  setp.ne.s32 %%p2, %%r1, 3;\n"     /* 4 B0 */
        "  @%%p2 bra $L_def;\n"              /* 5 B0 */
        "  add.s32 %%r3, %%r1, 1;\n"         /* 6 B1 */
        "  st.global.u32 [%%rd1+4], %%r3;\n" /* 7 B1 */
        "$L_def:\n"
        "  %s mov.u32 %%r2, 7;\n"            /* 8 B2 */
        "  st.global.u32 [%%rd1], %%r2;\n"   /* 9 B2 */
        "  ret;\n"                           /* 10 B2 */
        "}\n";
    char *buf = malloc(sizeof fmt + 16);
    if (buf)
        snprintf(buf, sizeof fmt + 16, fmt, guard);
    return buf;
}

TEST(liveness_predicated_definition)
{
    char *text = predicated("@%p1");
    CHECK(text);
    fixture_t x;
    int ok = setup(&x, text);
    free(text);
    CHECK(ok);
    CHECK_EQ(x.cfg->nblocks, 3);
    /* @%p1 mov leaves %r2 alone where %p1 is false, so the first value of
     * %r2 reaches the store: live into B2 and all the way from insn 2 */
    CHECK(set_is(x.f, ptx_live_in(x.lv, 2), "%p1 %r2 %rd1"));
    CHECK(set_is(x.f, ptx_live_in(x.lv, 1), "%p1 %r1 %r2 %rd1"));
    CHECK(set_is(x.f, ptx_live_out(x.lv, 0), "%p1 %r1 %r2 %rd1"));
    CHECK(set_is(x.f, after(&x, 2), "%r1 %r2 %rd1"));
    CHECK(set_is(x.f, after(&x, 8), "%r2 %rd1"));
    CHECK(!ptx_insn_kills(&x.m->insns[x.f->first + 8]));
    teardown(&x);
}

TEST(liveness_unguarded_definition_kills)
{
    char *text = predicated("");
    CHECK(text);
    fixture_t x;
    int ok = setup(&x, text);
    free(text);
    CHECK(ok);
    /* the same function with a plain mov: the first %r2 is dead at once,
     * and %p1 is never read */
    CHECK(set_is(x.f, ptx_live_in(x.lv, 2), "%rd1"));
    CHECK(set_is(x.f, ptx_live_in(x.lv, 1), "%r1 %rd1"));
    CHECK(set_is(x.f, after(&x, 2), "%r1 %rd1"));
    CHECK(set_is(x.f, after(&x, 3), "%r1 %rd1"));
    CHECK(ptx_insn_kills(&x.m->insns[x.f->first + 8]));
    teardown(&x);
}

static const char forms[] = HDR
    ".visible .entry k(.param .u64 k_out)\n"
    "{\n"
    "  .reg .pred %p<5>;\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [k_out];\n"                              /* 0 */
    "  setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;\n"                /* 1 */
    "  @%p4 st.global.v4.u32 [%rd1+16], {%r1, %r2, %r3, %r4};\n"  /* 2 */
    "  ld.global.v2.u32 {%r5, _}, [%rd1];\n"                      /* 3 */
    "  atom.global.cas.b32 %r6, [%rd1], %r1, %r2;\n"              /* 4 */
    "  red.global.add.u32 [%rd1], %r7;\n"                         /* 5 */
    "  shfl.sync.down.b32 %r8|%p1, %r1, 1, 31, -1;\n"             /* 6 */
    "  mov.b64 {%r1, %r2}, %rd2;\n"                               /* 7 */
    "  mov.b64 %rd2, {%r3, %r4};\n"                               /* 8 */
    "  selp.b32 %r9, %r1, %r1, %p2;\n"                            /* 9 */
    "  bar.red.popc.u32 %r3, 0, %p1;\n"                           /* 10 */
    "  bar.sync 0;\n"                                             /* 11 */
    "  vote.sync.ballot.b32 %r4, %p2, -1;\n"                      /* 12 */
    "  @!%p4 bra $L_end;\n"                                       /* 13 */
    "  mov.u32 %r5, %tid.x;\n"                                    /* 14 */
    "$L_end:\n"
    "  ret;\n"                                                    /* 15 */
    "}\n";

TEST(liveness_defs_and_uses_per_form)
{
    static const struct {
        uint32_t insn;
        const char *defs, *uses;
    } want[] = {
        { 0, "%rd1", "" },
        { 1, "%p1 %p2", "%r1 %r2 %p3" },
        { 2, "", "%p4 %rd1 %r1 %r2 %r3 %r4" },
        { 3, "%r5", "%rd1" },
        { 4, "%r6", "%rd1 %r1 %r2" },
        { 5, "", "%rd1 %r7" },
        { 6, "%r8 %p1", "%r1" },
        { 7, "%r1 %r2", "%rd2" },
        { 8, "%rd2", "%r3 %r4" },
        { 9, "%r9", "%r1 %p2" },
        { 10, "%r3", "%p1" },
        { 11, "", "" },
        { 12, "%r4", "%p2" },
        { 13, "", "%p4" },
        { 14, "%r5", "" },
        { 15, "", "" },
    };
    ptx_module_t *m = parse(forms);
    CHECK(m);
    const ptx_function_t *f = &m->funcs[0];
    CHECK_EQ(f->count, 16);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const ptx_insn_t *in = &m->insns[f->first + want[i].insn];
        uint16_t regs[PTX_INSN_MAX_USES];
        int n = ptx_insn_defs(in, regs, PTX_INSN_MAX_DEFS);
        CHECK_MSG(n <= PTX_INSN_MAX_DEFS && list_is(f, regs, n, want[i].defs),
                  "defs of instruction %u", want[i].insn);
        n = ptx_insn_uses(in, regs, PTX_INSN_MAX_USES);
        CHECK_MSG(n <= PTX_INSN_MAX_USES && list_is(f, regs, n, want[i].uses),
                  "uses of instruction %u", want[i].insn);
    }
    /* a short buffer still reports the full count */
    uint16_t one[1];
    CHECK_EQ(ptx_insn_uses(&m->insns[f->first + 2], one, 1), 6);
    ptx_module_free(m);
}

/* A call passes everything through .param memory: its only register is
 * its guard. */
static const char with_call[] = HDR
    ".func (.param .b32 g_r) g(.param .b32 g_a)\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  ld.param.u32 %r1, [g_a];\n"
    "  st.param.b32 [g_r], %r1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k(.param .u32 k_p)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<3>;\n"
    "  ld.param.u32 %r1, [k_p];\n"       /* 0 */
    "  setp.eq.u32 %p1, %r1, 0;\n"       /* 1 */
    "  {\n"
    "  .param .b32 pa;\n"
    "  .param .b32 pr;\n"
    "  st.param.b32 [pa], %r1;\n"        /* 2 */
    "  @%p1 call.uni (pr), g, (pa);\n"   /* 3 */
    "  ld.param.b32 %r2, [pr];\n"        /* 4 */
    "  }\n"
    "  ret;\n"                           /* 5 */
    "}\n";

TEST(liveness_call_uses_only_its_guard)
{
    ptx_module_t *m = parse(with_call);
    CHECK(m);
    int k = ptx_find_function(m, "k");
    CHECK(k >= 0);
    const ptx_function_t *f = &m->funcs[k];
    const ptx_insn_t *call = &m->insns[f->first + 3];
    CHECK_EQ(call->op, PTX_OP_CALL);
    uint16_t regs[PTX_INSN_MAX_USES];
    CHECK_EQ(ptx_insn_defs(call, regs, PTX_INSN_MAX_DEFS), 0);
    int n = ptx_insn_uses(call, regs, PTX_INSN_MAX_USES);
    CHECK(list_is(f, regs, n, "%p1"));
    ptx_cfg_t *cfg = ptx_cfg_build(m, (uint32_t)k);
    CHECK(cfg);
    ptx_liveness_t *lv = ptx_liveness_build(m, cfg);
    CHECK(lv);
    uint64_t set[1];
    /* %r1 went into .param before the call and is dead across it */
    ptx_liveness_after(lv, m, cfg, f->first + 2, set);
    CHECK(set_is(f, set, "%p1"));
    ptx_liveness_after(lv, m, cfg, f->first + 3, set);
    CHECK(set_is(f, set, ""));
    ptx_liveness_free(lv);
    ptx_cfg_free(cfg);
    ptx_module_free(m);
}
