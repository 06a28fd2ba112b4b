/* test_compiler.c: the compile pipeline (compiler/pipeline.h) and its
 * passes: unique exit, critical-edge splitting, spilling under a register
 * cap, the ptxas-like register count, and the PTX printer's round trip.
 *
 * Expected values are worked out by hand from the kernels below (the
 * comments say how), measured with ptxas (the register floor), or come
 * from the program itself before the pass ran (the round trip). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ilp_schedule.h"
#include "compiler/pipeline.h"
#include "harness.h"
#include "ptx/cfg.h"
#include "ptx/printer.h"
#include "ptx_kernel_helpers.h"

/* Per thread t of 64: t = 0, 2 keep the fill (the guarded early ret);
 * other even t and odd t > 20 write t + 100; odd t <= 20 write 7.
 * Three ways out (two ret, one @p ret) and two critical edges into JOIN:
 * from the block ending in `@%p2 bra JOIN` (the branch edge) and from the
 * block ending in `@%p3 ret` (the fall-through edge). */
static const char *const exits_ptx =
    PK_HEADER
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<4>;\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  and.b32 %r2, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r2, 0;\n"
    "  @%p1 bra EVEN;\n"
    "  setp.gt.u32 %p2, %r1, 20;\n"
    "  @%p2 bra JOIN;\n"
    "  st.global.u32 [%rd3], 7;\n"
    "  ret;\n"
    "EVEN:\n"
    "  setp.lt.u32 %p3, %r1, 4;\n"
    "  @%p3 ret;\n"
    "JOIN:\n"
    "  add.u32 %r3, %r1, 100;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n"
    "}\n";

static ptx_module_t *parse(const char *text)
{
    simt_error_t err;
    memset(&err, 0, sizeof err);
    return ptx_parse("t.ptx", text, strlen(text), &err);
}

/* Runs `kernel` of `text` on 64 threads with the settings `sets` and
 * checks the exits kernel's expected output. */
static int exits_output_ok(const char *const *sets, char *why, size_t n)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(sets, &err);
    simt_module_t *m = g ? pk_load(g, "t.ptx", exits_ptx, &err) : NULL;
    simt_devptr_t out = m ? pk_alloc_u32(g, 64, 0xdead) : 0;
    int ok = out && pk_run(g, m, "k", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0,
                           &SIMT_ARG(out), 1, &err) == SIMT_OK;
    uint32_t got[64];
    if (ok)
        ok = pk_read_u32(g, out, got, 64) == SIMT_OK;
    if (!ok)
        snprintf(why, n, "run failed: %.200s", err.msg);
    for (uint32_t t = 0; ok && t < 64; t++) {
        uint32_t want = (t == 0 || t == 2) ? 0xdead
                      : (t % 2 == 0 || t > 20) ? t + 100 : 7;
        if (got[t] != want) {
            snprintf(why, n, "thread %u wrote %u, expected %u", t, got[t], want);
            ok = 0;
        }
    }
    pk_gpu_free(g);
    return ok;
}

static unsigned count_exits(const ptx_module_t *m, uint32_t f)
{
    unsigned n = 0;
    for (uint32_t i = m->funcs[f].first; i < m->funcs[f].first + m->funcs[f].count; i++)
        n += m->insns[i].op == PTX_OP_RET || m->insns[i].op == PTX_OP_EXIT;
    return n;
}

static unsigned count_critical(const ptx_module_t *m, uint32_t f)
{
    ptx_cfg_t *cfg = ptx_cfg_build(m, f);
    unsigned n = 0;
    for (uint32_t b = 0; cfg && b < cfg->nblocks; b++)
        for (unsigned s = 0; cfg->blocks[b].nsucc == 2 && s < 2; s++) {
            uint32_t t = cfg->blocks[b].succ[s];
            n += t != cfg->exit && cfg->blocks[t].npreds >= 2;
        }
    ptx_cfg_free(cfg);
    return n;
}

TEST(compiler_unique_exit_one_ret_at_end)
{
    ptx_module_t *m = parse(exits_ptx);
    CHECK(m);
    CHECK_EQ(count_exits(m, 0), 3);
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    simt_error_t err = { 0 };
    compiler_unit_t u;
    CHECK_MSG(compiler_compile(m, 0, &cfg, "unique_exit", &u, &err) == SIMT_OK,
              "%s", err.msg);
    const ptx_function_t *fn = &u.mod->funcs[0];
    const ptx_insn_t *last = &u.mod->insns[fn->first + fn->count - 1];
    CHECK(u.mod != m); /* edited a clone, not the parsed module */
    CHECK_EQ(count_exits(m, 0), 3);
    CHECK_EQ(count_exits(u.mod, 0), 1);
    CHECK_EQ(last->op, PTX_OP_RET);
    CHECK_EQ(last->guard, PTX_REG_SINK);
    /* the last ret was already unguarded: two exits became branches */
    CHECK_EQ(fn->count, m->funcs[0].count);
    compiler_unit_free(&u);
    ptx_module_free(m);
    char why[256] = "";
    const char *sets[] = { "compiler_unique_exit=1", NULL };
    CHECK_MSG(exits_output_ok(sets, why, sizeof why), "%s", why);
    const char *timing[] = { "compiler_unique_exit=1", "functional=0", NULL };
    CHECK_MSG(exits_output_ok(timing, why, sizeof why), "timing: %s", why);
}

TEST(compiler_split_edges_leaves_none_critical)
{
    ptx_module_t *m = parse(exits_ptx);
    CHECK(m);
    CHECK_EQ(count_critical(m, 0), 2);
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    simt_error_t err = { 0 };
    compiler_unit_t u;
    CHECK_MSG(compiler_compile(m, 0, &cfg, "split_edges", &u, &err) == SIMT_OK,
              "%s", err.msg);
    CHECK_EQ(count_critical(u.mod, 0), 0);
    /* one bra.uni block per critical edge */
    CHECK_EQ(u.mod->funcs[0].count, m->funcs[0].count + 2);
    compiler_unit_free(&u);
    /* both passes together, and each pass run twice, change nothing more */
    CHECK(compiler_compile(m, 0, &cfg, "unique_exit,split_edges,split_edges,"
                           "unique_exit", &u, &err) == SIMT_OK);
    CHECK_EQ(count_critical(u.mod, 0), 0);
    CHECK_EQ(count_exits(u.mod, 0), 1);
    compiler_unit_free(&u);
    ptx_module_free(m);
    char why[256] = "";
    const char *sets[] = { "compiler_split_critical_edges=1",
                           "compiler_unique_exit=1", NULL };
    CHECK_MSG(exits_output_ok(sets, why, sizeof why), "%s", why);
    const char *timing[] = { "compiler_split_critical_edges=1", "functional=0",
                             NULL };
    CHECK_MSG(exits_output_ok(timing, why, sizeof why), "timing: %s", why);
}

TEST(compiler_unknown_pass_is_an_error)
{
    ptx_module_t *m = parse(exits_ptx);
    CHECK(m);
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    simt_error_t err = { 0 };
    compiler_unit_t u;
    CHECK_EQ(compiler_compile(m, 0, &cfg, "unique_exit,nosuch", &u, &err),
             SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "'nosuch'") && strstr(err.msg, "split_edges"),
              "%s", err.msg);
    ptx_module_free(m);
}

/* out[t] = in[t] * 1 + in[t+64] * 2 + ... + in[t+7*64] * 8: eight loaded
 * values live at once, then combined last-loaded first. */
static const char *const sum8_ptx =
    PK_HEADER
    ".visible .entry sum8(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<20>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r2, [%rd4];\n"
    "  ld.global.u32 %r3, [%rd4+256];\n"
    "  ld.global.u32 %r4, [%rd4+512];\n"
    "  ld.global.u32 %r5, [%rd4+768];\n"
    "  ld.global.u32 %r6, [%rd4+1024];\n"
    "  ld.global.u32 %r7, [%rd4+1280];\n"
    "  ld.global.u32 %r8, [%rd4+1536];\n"
    "  ld.global.u32 %r9, [%rd4+1792];\n"
    "  mul.lo.u32 %r10, %r9, 8;\n"
    "  mad.lo.u32 %r10, %r8, 7, %r10;\n"
    "  mad.lo.u32 %r10, %r7, 6, %r10;\n"
    "  mad.lo.u32 %r10, %r6, 5, %r10;\n"
    "  mad.lo.u32 %r10, %r5, 4, %r10;\n"
    "  mad.lo.u32 %r10, %r4, 3, %r10;\n"
    "  mad.lo.u32 %r10, %r3, 2, %r10;\n"
    "  add.u32 %r10, %r2, %r10;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  st.global.u32 [%rd5], %r10;\n"
    "  ret;\n"
    "}\n";

static int sum8_ok(const char *const *sets, char *why, size_t n)
{
    simt_error_t err;
    simt_gpu_t *g = pk_gpu(sets, &err);
    simt_module_t *m = g ? pk_load(g, "sum8.ptx", sum8_ptx, &err) : NULL;
    simt_devptr_t in = m ? pk_alloc_u32(g, 8 * 64, 0) : 0;
    simt_devptr_t out = in ? pk_alloc_u32(g, 64, 0) : 0;
    uint32_t h[8 * 64];
    for (uint32_t i = 0; i < 8 * 64; i++)
        h[i] = i * 2654435761u;
    simt_arg_t args[] = { SIMT_ARG(in), SIMT_ARG(out) };
    int ok = out && simt_memcpy_htod(g, in, h, sizeof h, &err) == SIMT_OK &&
             pk_run(g, m, "sum8", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, args, 2,
                    &err) == SIMT_OK;
    uint32_t got[64];
    if (ok)
        ok = pk_read_u32(g, out, got, 64) == SIMT_OK;
    if (!ok)
        snprintf(why, n, "run failed: %.200s", err.msg);
    for (uint32_t t = 0; ok && t < 64; t++) {
        uint32_t want = 0;
        for (uint32_t k = 0; k < 8; k++)
            want += h[t + 64 * k] * (k + 1);
        if (got[t] != want) {
            snprintf(why, n, "thread %u: %u, expected %u", t, got[t], want);
            ok = 0;
        }
    }
    pk_gpu_free(g);
    return ok;
}

TEST(compiler_spill_under_cap_keeps_results)
{
    ptx_module_t *m = parse(sum8_ptx);
    CHECK(m);
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    simt_error_t err = { 0 };
    compiler_unit_t u;
    CHECK(compiler_compile(m, 0, &cfg, NULL, &u, &err) == SIMT_OK);
    uint32_t free_regs = u.res.regs;
    CHECK_EQ(u.res.spilled, 0);
    compiler_unit_free(&u);
    /* 8 values + the 64-bit address + a temporary need more than 8 */
    CHECK(free_regs > 8);
    CHECK(simt_config_set(&cfg, "maxrregcount=8", "test", &err) == SIMT_OK);
    CHECK_MSG(compiler_compile(m, 0, &cfg, NULL, &u, &err) == SIMT_OK, "%s", err.msg);
    CHECK(u.res.spilled > 0);
    CHECK(u.res.regs <= 8);
    CHECK_EQ(u.res.local_bytes, 8 * u.res.spilled);
    unsigned ld = 0, st = 0;
    const ptx_function_t *fn = &u.mod->funcs[0];
    for (uint32_t i = fn->first; i < fn->first + fn->count; i++) {
        ld += u.mod->insns[i].op == PTX_OP_LD && u.mod->insns[i].space == PTX_SPACE_LOCAL;
        st += u.mod->insns[i].op == PTX_OP_ST && u.mod->insns[i].space == PTX_SPACE_LOCAL;
    }
    CHECK(ld >= u.res.spilled && st >= u.res.spilled);
    compiler_unit_free(&u);
    ptx_module_free(m);
    char why[256] = "";
    CHECK_MSG(sum8_ok(NULL, why, sizeof why), "no cap: %s", why);
    const char *capped[] = { "maxrregcount=8", NULL };
    CHECK_MSG(sum8_ok(capped, why, sizeof why), "cap 8: %s", why);
    const char *timing[] = { "maxrregcount=6", "functional=0", NULL };
    CHECK_MSG(sum8_ok(timing, why, sizeof why), "cap 6, timing: %s", why);
}

TEST(compiler_cap_too_low_is_an_input_error)
{
    simt_error_t err;
    const char *sets[] = { "maxrregcount=3", NULL };
    simt_gpu_t *g = pk_gpu(sets, &err);
    CHECK(g);
    simt_module_t *m = pk_load(g, "sum8.ptx", sum8_ptx, &err);
    CHECK(m);
    simt_devptr_t p = pk_alloc_u32(g, 8 * 64, 0);
    simt_arg_t args[] = { SIMT_ARG(p), SIMT_ARG(p) };
    int rc = pk_run(g, m, "sum8", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, args, 2,
                    &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "sum8.ptx:5:") && strstr(err.msg, "'sum8'") &&
              strstr(err.msg, "cannot fit in 3 registers"), "%s", err.msg);
    pk_gpu_free(g);
}

TEST(compiler_maxntid_caps_registers)
{
    /* .maxntid 1024: 32768 registers / 1024 threads = 32 per thread; with
     * gpgpu_shader_registers = 8192 only 8, so values spill */
    char text[4096];
    const char *entry = strstr(sum8_ptx, ".visible");
    const char *brace = strchr(entry, '{');
    snprintf(text, sizeof text, "%.*s.maxntid 1024, 1, 1\n%s",
             (int)(brace - sum8_ptx), sum8_ptx, brace);
    ptx_module_t *m = parse(text);
    CHECK(m);
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    simt_error_t err = { 0 };
    compiler_unit_t u;
    CHECK(compiler_compile(m, 0, &cfg, NULL, &u, &err) == SIMT_OK);
    CHECK_EQ(u.res.cap, 32);
    CHECK_EQ(u.res.spilled, 0);
    compiler_unit_free(&u);
    CHECK(simt_config_set(&cfg, "gpgpu_shader_registers=8192", "t", &err) == SIMT_OK);
    CHECK(compiler_compile(m, 0, &cfg, NULL, &u, &err) == SIMT_OK);
    CHECK_EQ(u.res.cap, 8);
    CHECK(u.res.spilled > 0 && u.res.regs <= 8);
    compiler_unit_free(&u);
    ptx_module_free(m);
}

TEST(compiler_ptxas_floor_and_reserved_register)
{
    /* measured with ptxas -v -arch=sm_75 (CUDA 13.0): a kernel that is
     * only `ret;` uses 4 registers, sum8 uses 15; the model is to come
     * within 20% of that (the measure docs/regalloc.md reports) */
    const char *empty = PK_HEADER ".visible .entry e()\n{\n  ret;\n}\n";
    ptx_module_t *m = parse(empty);
    CHECK(m);
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    simt_error_t err = { 0 };
    compiler_unit_t u;
    CHECK(compiler_compile(m, 0, &cfg, NULL, &u, &err) == SIMT_OK);
    CHECK_EQ(u.res.alloc_regs, 0);
    CHECK_EQ(u.res.regs, 4);
    compiler_unit_free(&u);
    ptx_module_free(m);
    m = parse(sum8_ptx);
    CHECK(m);
    CHECK(compiler_compile(m, 0, &cfg, NULL, &u, &err) == SIMT_OK);
    CHECK_EQ(u.res.regs, u.res.alloc_regs + COMPILER_RESERVED_REGS);
    CHECK_MSG(u.res.regs >= 12 && u.res.regs <= 18, "sum8: %u registers, "
              "ptxas 15", u.res.regs);
    compiler_unit_free(&u);
    ptx_module_free(m);
}

TEST(compiler_ilp_schedule_hoists_past_independent_code)
{
    const char *text =
        PK_HEADER
        ".visible .entry s(.param .u64 p)\n{\n"
        "  .reg .b32 %r<6>;\n  .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [p];\n"
        "  ld.global.u32 %r1, [%rd1];\n"
        "  add.u32 %r2, %r1, 1;\n"        /* needs %r1: stays */
        "  ld.global.u32 %r3, [%rd1+4];\n" /* independent: moves up 1 */
        "  st.global.u32 [%rd1], %r2;\n"
        "  ld.global.u32 %r4, [%rd1+8];\n" /* after a store: stays */
        "  add.u32 %r5, %r4, %r3;\n"
        "  st.global.u32 [%rd1+12], %r5;\n"
        "  ret;\n}\n";
    ptx_module_t *m = parse(text);
    CHECK(m);
    CHECK_EQ(ilp_schedule(m, 0), 0);
    const ptx_insn_t *in = &m->insns[m->funcs[0].first];
    /* ld.param (stays), ld r1 and ld r3 (both need only %rd1; in program
     * order), the add of r1, st, then ld r4 (not above the store), add,
     * st, ret */
    static const uint8_t want[] = { PTX_OP_LD, PTX_OP_LD, PTX_OP_LD, PTX_OP_ADD,
                                    PTX_OP_ST, PTX_OP_LD, PTX_OP_ADD, PTX_OP_ST,
                                    PTX_OP_RET };
    CHECK_EQ(m->funcs[0].count, sizeof want);
    for (unsigned i = 0; i < sizeof want; i++)
        CHECK_MSG(in[i].op == want[i], "insn %u: op %s", i,
                  ptx_op_name((ptx_op_t)in[i].op));
    CHECK_EQ(in[1].ops[0].reg, 1);
    CHECK_EQ(in[2].ops[0].reg, 3);
    ptx_module_free(m);
}

TEST(compiler_regs_source_ptxas)
{
    simt_error_t err;
    const char *sets[] = { "gpgpu_regs_source=ptxas", NULL };
    simt_gpu_t *g = pk_gpu(sets, &err);
    CHECK(g);
    simt_module_t *m = pk_load(g, "sum8.ptx", sum8_ptx, &err);
    CHECK(m);
    simt_devptr_t p = pk_alloc_u32(g, 8 * 64, 0);
    simt_arg_t args[] = { SIMT_ARG(p), SIMT_ARG(p) };
    int rc = pk_run(g, m, "sum8", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, args, 2,
                    &err);
    CHECK_EQ(rc, SIMT_EINPUT);
    CHECK_MSG(strstr(err.msg, "'sum8'") && strstr(err.msg, "ptxas"), "%s", err.msg);
    memset(&err, 0, sizeof err);
    CHECK(simt_module_set_ptxas_regs(m, "nosuch", 9, &err) == SIMT_EINPUT);
    CHECK(simt_module_set_ptxas_regs(m, "sum8", 37, &err) == SIMT_OK);
    CHECK_MSG(pk_run(g, m, "sum8", pk_dim(1, 1, 1), pk_dim(64, 1, 1), 0, args, 2,
                     &err) == SIMT_OK, "%s", err.msg);
    const simt_kernel_stats_t *ks;
    CHECK_EQ(simt_gpu_kernels(g, &ks), 1);
    CHECK_EQ(ks[0].regs_per_thread, 37);
    pk_gpu_free(g);
}

/* ---------- printer round trip ---------- */


/* The same program: functions, registers, symbols' layout, and every
 * instruction with its operands (labels as positions in the function). */
static int same_program(const ptx_module_t *a, const ptx_module_t *b, char *why,
                        size_t n)
{
    if (a->nfuncs != b->nfuncs || a->ninsns != b->ninsns || a->nsyms != b->nsyms) {
        snprintf(why, n, "funcs %u/%u insns %u/%u syms %u/%u", a->nfuncs,
                 b->nfuncs, a->ninsns, b->ninsns, a->nsyms, b->nsyms);
        return 0;
    }
    for (uint32_t f = 0; f < a->nfuncs; f++) {
        const ptx_function_t *x = &a->funcs[f], *y = &b->funcs[f];
        if (strcmp(x->name, y->name) || x->nregs != y->nregs ||
            x->count != y->count || x->first != y->first ||
            x->frame_bytes != y->frame_bytes || x->shared_bytes != y->shared_bytes ||
            x->param_bytes != y->param_bytes || x->maxntid[0] != y->maxntid[0]) {
            snprintf(why, n, "function %s differs", x->name);
            return 0;
        }
        for (uint32_t r = 0; r < x->nregs; r++)
            if (x->regs[r].type != y->regs[r].type) {
                snprintf(why, n, "%s: register %s type", x->name, x->regs[r].name);
                return 0;
            }
    }
    for (uint32_t s = 0; s < a->nsyms; s++) {
        const ptx_symbol_t *x = &a->syms[s], *y = &b->syms[s];
        if (x->kind != y->kind || x->space != y->space || x->size != y->size ||
            x->offset != y->offset || x->func != y->func ||
            (x->init && (!y->init || memcmp(x->init, y->init, x->size)))) {
            snprintf(why, n, "symbol %s differs", x->name);
            return 0;
        }
    }
    for (uint32_t i = 0; i < a->ninsns; i++) {
        ptx_insn_t x = a->insns[i], y = b->insns[i];
        x.line = y.line = x.col = y.col = 0;
        /* memory-order qualifiers print as one that sets the same flag */
        if (memcmp(&x, &y, offsetof(ptx_insn_t, ops)) != 0) {
            snprintf(why, n, "instruction %u (line %u, %s) modifiers differ", i,
                     a->insns[i].line, ptx_op_name((ptx_op_t)x.op));
            return 0;
        }
        for (unsigned k = 0; k < x.nops; k++) {
            const ptx_operand_t *p = &x.ops[k], *q = &y.ops[k];
            int same = p->kind == q->kind && p->neg == q->neg && p->nvec == q->nvec &&
                       p->has_reg == q->has_reg && p->imm == q->imm &&
                       p->sym == q->sym && p->is_float == q->is_float &&
                       (p->kind != PTX_OPND_REG && !p->has_reg ? 1 : p->reg == q->reg) &&
                       !memcmp(p->vec, q->vec, p->nvec * sizeof p->vec[0]);
            if (!same) {
                snprintf(why, n, "instruction %u (line %u, %s) operand %u differs",
                         i, a->insns[i].line, ptx_op_name((ptx_op_t)x.op), k);
                return 0;
            }
        }
    }
    return 1;
}

static int round_trip(const char *path, const char *passes,
                      const char *const *sets, char *why, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, n, "%.400s: cannot open", path);
        return 0;
    }
    static char text[4 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    simt_error_t err = { 0 };
    ptx_module_t *m = ptx_parse(path, text, len, &err);
    if (!m) {
        snprintf(why, n, "%.400s", err.msg);
        return 0;
    }
    simt_config_t cfg;
    simt_config_defaults(&cfg);
    for (unsigned i = 0; sets && sets[i]; i++)
        if (simt_config_set(&cfg, sets[i], "test", &err) != SIMT_OK) {
            snprintf(why, n, "%.400s", err.msg);
            ptx_module_free(m);
            return 0;
        }
    for (uint32_t k = 0; passes && k < m->nfuncs; k++) {
        if (!m->funcs[k].is_entry || !m->funcs[k].count)
            continue;
        compiler_unit_t u;
        if (compiler_compile(m, k, &cfg, passes, &u, &err) != SIMT_OK)
            break;
        ptx_module_t *e = compiler_take_module(&u);
        compiler_unit_free(&u);
        if (e) {
            ptx_module_free(m);
            m = e;
        }
    }
    char *out = pk_print_module(m);
    ptx_module_t *back = out ? ptx_parse("printed.ptx", out, strlen(out), &err) : NULL;
    int ok = back && same_program(m, back, why, n);
    if (!back)
        snprintf(why, n, "%.200s: printed PTX does not parse: %.200s", path, err.msg);
    free(out);
    ptx_module_free(back);
    ptx_module_free(m);
    return ok;
}

static void round_trip_all(const char *passes, const char *const *sets)
{
    const char *dirs[] = { "tests/kernels", "workloads" };
    unsigned files = 0;
    for (int d = 0; d < 2; d++) {
        DIR *dir = opendir(dirs[d]);
        CHECK_MSG(dir, "%s not found (run from the repository root)", dirs[d]);
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (e->d_name[0] == '.')
                continue;
            char path[1024], why[512] = "";
            snprintf(path, sizeof path, "%s/%s/kernel.ptx", dirs[d], e->d_name);
            FILE *probe = fopen(path, "rb");
            if (!probe)
                continue;
            fclose(probe);
            files++;
            if (!round_trip(path, passes, sets, why, sizeof why)) {
                closedir(dir);
                CHECK_MSG(0, "%s (passes %s): %s", path, passes ? passes : "none",
                          why);
            }
        }
        closedir(dir);
    }
    CHECK(files >= 30);
}

TEST(printer_round_trip_every_kernel)
{
    round_trip_all(NULL, NULL);
}

TEST(printer_round_trip_after_passes)
{
    round_trip_all("unique_exit,split_edges", NULL);
}

/* Scratchpad Sharing's passes: relssp placed and .shared variables
 * reordered (nqueens' sum moves first) print and parse back to the same
 * program, offsets included (docs/compiler.md). */
TEST(printer_round_trip_after_ssp_passes)
{
    const char *const opt[] = { "ssp_relssp=opt", "ssp_layout=min", NULL };
    const char *const pd[] = { "ssp_relssp=postdom", "ssp_layout=min", NULL };
    round_trip_all("unique_exit,ssp_layout,ssp_split,relssp", opt);
    if (!harness_failed())
        round_trip_all("unique_exit,ssp_layout,relssp", pd);
}
