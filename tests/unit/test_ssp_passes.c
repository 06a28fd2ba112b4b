/* test_ssp_passes.c: Scratchpad Sharing's compiler passes (seed 000,
 * Sec. 6; reference notes §3 and §9 tests 17-22): the access-range
 * dataflow (compiler/ssp_access.h), the variable layout (ssp_layout) and
 * relssp placement (relssp, ssp_split; compiler/relssp.h).
 *
 * Expected values come from the paper (the Fig. 9 table, Example 6.5's
 * {A,B}, Table 4's per-thread overheads of 1 and 2) or are worked out by
 * hand from the kernels below (each comment says how).  Placement is
 * checked three ways: statically on the compiled code (relssp count, and
 * every Entry->Exit path of an acyclic CFG enumerated), dynamically by
 * running the compiled kernel with each relssp rewritten into per-thread
 * counters (how many each thread ran, whether a scratchpad access came
 * after one, how far the thread had got), and by the launch's thread
 * instruction count (the overhead the paper's Table 4 reports). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/pipeline.h"
#include "compiler/ssp_access.h"
#include "harness.h"
#include "ptx/cfg.h"
#include "ptx/printer.h"
#include "ptx_kernel_helpers.h"
#include "simt/stats.h"

static ptx_module_t *parse(const char *text)
{
    simt_error_t err;
    memset(&err, 0, sizeof err);
    return ptx_parse("t.ptx", text, strlen(text), &err);
}

/* Defaults plus "key=value" settings (NULL-terminated). */
static int config_with(simt_config_t *cfg, const char *const *sets)
{
    simt_error_t err;
    memset(&err, 0, sizeof err);
    simt_config_defaults(cfg);
    for (unsigned i = 0; sets && sets[i]; i++)
        if (simt_config_set(cfg, sets[i], "test", &err) != SIMT_OK)
            return -1;
    return 0;
}

/* Compiles kernel 0 of `text` with `passes` (NULL: what the settings
 * select); the edited module (or a clone of the parsed one when nothing
 * edited) in *out, NULL on failure. */
static ptx_module_t *compile(const char *text, const char *passes,
                             const char *const *sets)
{
    simt_config_t cfg;
    simt_error_t err;
    memset(&err, 0, sizeof err);
    ptx_module_t *m = parse(text);
    if (!m || config_with(&cfg, sets) != 0) {
        ptx_module_free(m);
        return NULL;
    }
    compiler_unit_t u;
    int k = -1;
    for (uint32_t f = 0; f < m->nfuncs && k < 0; f++)
        if (m->funcs[f].is_entry)
            k = (int)f;
    if (k < 0 || compiler_compile(m, (uint32_t)k, &cfg, passes, &u, &err) != SIMT_OK) {
        if (err.msg[0])
            fprintf(stderr, "compile: %s\n", err.msg);
        ptx_module_free(m);
        return NULL;
    }
    ptx_module_t *edited = compiler_take_module(&u);
    compiler_unit_free(&u);
    if (edited) {
        ptx_module_free(m);
        return edited;
    }
    return m;
}

static uint32_t first_entry(const ptx_module_t *m)
{
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (m->funcs[f].is_entry)
            return f;
    return 0;
}

static unsigned count_op(const ptx_module_t *m, ptx_op_t op)
{
    uint32_t f = first_entry(m);
    unsigned n = 0;
    for (uint32_t i = m->funcs[f].first; i < m->funcs[f].first + m->funcs[f].count; i++)
        n += m->insns[i].op == op;
    return n;
}

static int is_smem_access(const ptx_insn_t *in)
{
    return (in->op == PTX_OP_LD || in->op == PTX_OP_ST || in->op == PTX_OP_ATOM ||
            in->op == PTX_OP_RED) && in->space == PTX_SPACE_SHARED;
}

/* Every Entry->Exit path of an acyclic CFG: how many relssp it runs (the
 * least and the most over the paths) and whether a scratchpad access
 * follows a relssp on one. */
typedef struct paths {
    unsigned n, min_rel, max_rel;
    int access_after, cyclic;
} paths_t;

static void walk(const ptx_module_t *m, const ptx_cfg_t *c, uint32_t b,
                 unsigned rel, unsigned depth, paths_t *p)
{
    if (b == c->exit) {
        p->n++;
        if (rel < p->min_rel)
            p->min_rel = rel;
        if (rel > p->max_rel)
            p->max_rel = rel;
        return;
    }
    if (depth > c->nblocks) {
        p->cyclic = 1;
        return;
    }
    const ptx_block_t *bl = &c->blocks[b];
    for (uint32_t i = bl->first; i < bl->first + bl->count; i++) {
        rel += m->insns[i].op == PTX_OP_RELSSP;
        if (rel && is_smem_access(&m->insns[i]))
            p->access_after = 1;
    }
    for (unsigned e = 0; e < bl->nsucc; e++)
        walk(m, c, bl->succ[e], rel, depth + 1, p);
}

static paths_t all_paths(const ptx_module_t *m)
{
    paths_t p = { 0, ~0u, 0, 0, 0 };
    ptx_cfg_t *c = ptx_cfg_build(m, first_entry(m));
    if (c) {
        walk(m, c, 0, 0, 0, &p);
        ptx_cfg_free(c);
    }
    return p;
}


/* The printed module with each `relssp;` replaced by the counters the
 * probe kernels keep: %rpos = %rs (how far the thread has got), %rc += 1
 * (relssp run). */
static char *instrument(const ptx_module_t *m)
{
    static const char from[] = "relssp;";
    static const char to[] = "mov.u32 %rpos, %rs;\n\tadd.u32 %rc, %rc, 1;";
    char *text = pk_print_module(m);
    if (!text)
        return NULL;
    size_t n = 0;
    for (const char *p = strstr(text, from); p; p = strstr(p + 1, from))
        n++;
    char *out = malloc(strlen(text) + n * sizeof to + 1);
    if (!out) {
        free(text);
        return NULL;
    }
    char *w = out;
    for (const char *p = text, *q; *p; p = q + sizeof from - 1) {
        q = strstr(p, from);
        if (!q) {
            strcpy(w, p);
            w += strlen(p);
            break;
        }
        memcpy(w, p, (size_t)(q - p));
        w += q - p;
        memcpy(w, to, sizeof to - 1);
        w += sizeof to - 1;
    }
    *w = '\0';
    free(text);
    return out;
}

/* Runs `text`'s kernel `name` on 32 threads with parameter sel under the
 * settings `sets`; out[0..127] receives the kernel's four 32-word rows
 * (see the probe kernels); *tinsns the launch's thread instructions. */
static int run32(const char *text, const char *name, uint32_t sel,
                 const char *const *sets, uint32_t *out, uint64_t *tinsns)
{
    simt_error_t err;
    memset(&err, 0, sizeof err);
    simt_gpu_t *g = pk_gpu(sets, &err);
    simt_module_t *mod = g ? pk_load(g, "t.ptx", text, &err) : NULL;
    simt_devptr_t buf = mod ? pk_alloc_u32(g, 128, 0xdead) : 0;
    simt_arg_t args[2] = { SIMT_ARG(buf), SIMT_ARG(sel) };
    int ok = buf && pk_run(g, mod, name, pk_dim(1, 1, 1), pk_dim(32, 1, 1), 0,
                           args, 2, &err) == SIMT_OK &&
             pk_read_u32(g, buf, out, 128) == SIMT_OK;
    if (!ok)
        fprintf(stderr, "run32 %s: %s\n", name, err.msg);
    if (ok && tinsns)
        *tinsns = simt_gpu_stats(g)->thread_insns;
    pk_gpu_free(g);
    return ok ? 0 : -1;
}

/* Compiles with (passes, sets), instruments, runs with sel: per thread
 * relssp count, access-after-relssp flag, position of the last relssp
 * and the kernel's value, in out[0..31], [32..63], [64..95], [96..127]. */
static int probe(const char *text, const char *name, const char *passes,
                 const char *const *sets, uint32_t sel, uint32_t *out)
{
    ptx_module_t *m = compile(text, passes, sets);
    char *inst = m ? instrument(m) : NULL;
    ptx_module_free(m);
    int rc = inst ? run32(inst, name, sel, NULL, out, NULL) : -1;
    free(inst);
    return rc;
}

/* ---------- 17: the access ranges of Fig. 9 and Example 6.5 ---------- */

/* The reference's reconstruction of the Sec. 6.1 CFG (§3.3): Entry ->
 * BB1 -> BB2; BB2 -> BB3 -> BB2 (the loop); BB2 -> BB4 -> BB5 -> BB6 ->
 * Exit.  A is accessed in BB1 (def) and BB4 (use), B in BB2 (def) and BB3
 * (use), C in BB5 (def) and BB6 (use).  Every block ends in a branch so
 * the blocks are exactly these (numbered 0 Entry .. 7 Exit).  The kernel
 * also writes the addresses of A, B and C (to see the executed layout). */
static const char *const fig9_ptx =
    PK_HEADER
    ".visible .entry fig9(.param .u64 out, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b8 A[64];\n"
    "  .shared .align 4 .b8 B[64];\n"
    "  .shared .align 4 .b8 C[64];\n"
    "  ld.param.u32 %r1, [n];\n"        /* Entry: 3 instructions */
    "  add.u32 %r2, %r1, 7;\n"
    "  bra.uni BB1;\n"
    "BB1:\n"
    "  st.shared.u32 [A], %r2;\n"       /* BB1: 3 */
    "  mov.u32 %r3, 0;\n"
    "  bra.uni BB2;\n"
    "BB2:\n"
    "  st.shared.u32 [B], %r3;\n"       /* BB2: 4, loop depth 1 */
    "  add.u32 %r3, %r3, 1;\n"
    "  setp.ge.u32 %p1, %r3, %r1;\n"
    "  @%p1 bra BB4;\n"
    "BB3:\n"
    "  ld.shared.u32 %r4, [B];\n"       /* BB3: 2, loop depth 1 */
    "  bra.uni BB2;\n"
    "BB4:\n"
    "  ld.shared.u32 %r5, [A];\n"       /* BB4: 2 */
    "  bra.uni BB5;\n"
    "BB5:\n"
    "  st.shared.u32 [C], %r5;\n"       /* BB5: 2 */
    "  bra.uni BB6;\n"
    "BB6:\n"
    "  ld.shared.u32 %r6, [C];\n"       /* BB6: 2 */
    "  bra.uni EXIT;\n"
    "EXIT:\n"
    "  ld.param.u64 %rd1, [out];\n"     /* Exit */
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r7, A;\n"
    "  mov.u32 %r8, B;\n"
    "  mov.u32 %r9, C;\n"
    "  st.global.u32 [%rd1], %r7;\n"
    "  st.global.u32 [%rd1+4], %r8;\n"
    "  st.global.u32 [%rd1+8], %r9;\n"
    "  st.global.u32 [%rd1+12], %r6;\n"
    "  ret;\n"
    "}\n";

TEST(ssp_fig9_access_ranges)
{
    ptx_module_t *m = parse(fig9_ptx);
    CHECK(m);
    ssp_access_t a;
    simt_error_t err;
    memset(&err, 0, sizeof err);
    CHECK_EQ(ssp_access_build(&a, m, first_entry(m), &err), SIMT_OK);
    CHECK_EQ(a.cfg->nblocks, 8);
    CHECK_EQ(a.nvars, 3);
    /* The seed's table (Fig. 9, as in the reference §3.3), IN/OUT per
     * block Entry, BB1..BB6, Exit, for A, B, C, {A,B}, {B,C}, {C,A}:
     * "ft" = IN false, OUT true. */
    static const char *const want[6][8] = {
        { "ff", "ft", "tt", "tt", "tf", "ff", "ff", "ff" }, /* A */
        { "ff", "ff", "tt", "tt", "ff", "ff", "ff", "ff" }, /* B */
        { "ff", "ff", "ff", "ff", "ff", "ft", "tf", "ff" }, /* C */
        { "ff", "ft", "tt", "tt", "tf", "ff", "ff", "ff" }, /* {A,B} */
        { "ff", "ff", "tt", "tt", "tt", "tt", "tf", "ff" }, /* {B,C} */
        { "ff", "ft", "tt", "tt", "tt", "tt", "tf", "ff" }, /* {C,A} */
    };
    const ssp_set_t A = 1, B = 2, C = 4;
    const ssp_set_t sets[6] = { A, B, C, A | B, B | C, C | A };
    for (int s = 0; s < 6; s++)
        for (uint32_t b = 0; b < 8; b++) {
            int in = ssp_acc_in(&a, sets[s], b), out = ssp_acc_out(&a, sets[s], b);
            CHECK_MSG(in == (want[s][b][0] == 't') && out == (want[s][b][1] == 't'),
                      "set %d block %u: IN/OUT %d/%d, the paper's %s", s, b, in,
                      out, want[s][b]);
        }
    /* cost(S), the point before each instruction, weight 10^depth (BB2
     * and BB3 are in the loop).  {A,B}: BB1 after its st (2) + BB2 (4 x
     * 10) + BB3 (2 x 10) + BB4 up to its ld (1) = 63.  {B,C}: BB2 (40,
     * B reaches it round the loop) + BB3 (20) + BB4 (2) + BB5 (2) + BB6
     * up to its ld (1) = 65.  {C,A}: BB1 (2) + 40 + 20 + 2 + 2 + 1 = 67.
     * With K = 1: 2+4+2+1 = 9, 4+2+2+2+1 = 11, 2+4+2+2+2+1 = 13. */
    CHECK_EQ(ssp_cost(&a, A | B, 10), 63);
    CHECK_EQ(ssp_cost(&a, B | C, 10), 65);
    CHECK_EQ(ssp_cost(&a, C | A, 10), 67);
    CHECK_EQ(ssp_cost(&a, A | B, 1), 9);
    CHECK_EQ(ssp_cost(&a, B | C, 1), 11);
    CHECK_EQ(ssp_cost(&a, C | A, 1), 13);
    CHECK_EQ(a.depth[2], 1);
    CHECK_EQ(a.depth[3], 1);
    CHECK_EQ(a.depth[4], 0);
    ssp_access_free(&a);
    ptx_module_free(m);
}

/* Example 6.5: two of the three equal variables must be shared; {A,B}
 * has the least range, so C goes first (the unshared slice).  R_tb = 192,
 * t = 0.4: the boundary is floor(76.8) rounded down to 4 = 76, so one
 * 64-byte variable fits below it.  The layout is the executed one: the
 * kernel writes the addresses of A, B, C: 64, 128, 0 (declared: 0, 64,
 * 128). */
TEST(ssp_layout_example_6_5)
{
    const char *const min[] = { "ssp_layout=min", "ssp_threshold_permille=400", NULL };
    const char *const decl[] = { "ssp_threshold_permille=400", NULL };
    ptx_module_t *m = compile(fig9_ptx, NULL, min);
    CHECK(m);
    uint64_t off[3] = { 0, 0, 0 };
    for (uint32_t s = 0; s < m->nsyms; s++)
        if (m->syms[s].space == PTX_SPACE_SHARED)
            off[m->syms[s].name[0] - 'A'] = m->syms[s].offset;
    ptx_module_free(m);
    CHECK_EQ(off[0], 64);
    CHECK_EQ(off[1], 128);
    CHECK_EQ(off[2], 0);
    for (int run = 0; run < 2; run++) {
        simt_error_t err;
        memset(&err, 0, sizeof err);
        simt_gpu_t *g = pk_gpu(run ? min : decl, &err);
        simt_module_t *mod = g ? pk_load(g, "t.ptx", fig9_ptx, &err) : NULL;
        simt_devptr_t buf = mod ? pk_alloc_u32(g, 4, 0xdead) : 0;
        uint32_t n = 3, got[4];
        simt_arg_t args[2] = { SIMT_ARG(buf), SIMT_ARG(n) };
        CHECK_MSG(buf && pk_run(g, mod, "fig9", pk_dim(1, 1, 1), pk_dim(1, 1, 1), 0,
                                args, 2, &err) == SIMT_OK &&
                  pk_read_u32(g, buf, got, 4) == SIMT_OK, "run: %s", err.msg);
        CHECK_EQ(got[0], run ? 64 : 0);
        CHECK_EQ(got[1], run ? 128 : 64);
        CHECK_EQ(got[2], run ? 0 : 128);
        CHECK_EQ(got[3], 10); /* C[0] = A[0] = n + 7: the output does not move */
        pk_gpu_free(g);
    }
    /* ...and the printed PTX declares C first, so it lays out the same */
    m = compile(fig9_ptx, NULL, min);
    char *text = m ? pk_print_module(m) : NULL;
    ptx_module_free(m);
    CHECK(text);
    const char *pa = strstr(text, " A[64]"), *pc = strstr(text, " C[64]");
    int c_first = pa && pc && pc < pa;
    ptx_module_t *back = parse(text);
    free(text);
    CHECK(c_first);
    CHECK(back);
    int ok = 0;
    for (uint32_t s = 0; s < back->nsyms; s++)
        if (!strcmp(back->syms[s].name, "C"))
            ok = back->syms[s].offset == 0;
    ptx_module_free(back);
    CHECK(ok);
}

/* ---------- 18-21: relssp placement ---------- */

/* The probe kernel: one scratchpad variable S (512 B: with t = 0.1 the
 * boundary is 48, so all of S is shared region).  Block B0 stores S[tid]
 * and branches on x (x = sel, or tid & 1 when sel == 2): x == 0 goes
 * straight to JOIN (a critical edge: B0 has two successors, JOIN two
 * predecessors), x != 0 runs B1 (loads S[tid], value = 2 tid) and falls
 * into JOIN.  Counters: %rc relssp run, %rbad = the largest %rc seen
 * just before a scratchpad access (non-zero: an access after a relssp),
 * %rs a step count bumped at each block start and after each access,
 * %rpos its value at the relssp.  Out rows: rc, rbad, rpos, value. */
#define PROBE_PROLOGUE                                                        \
    "  .reg .pred %p<3>;\n"                                                   \
    "  .reg .b32 %r<10>;\n"                                                   \
    "  .reg .b64 %rd<4>;\n"                                                   \
    "  .reg .b32 %rc;\n"                                                      \
    "  .reg .b32 %rbad;\n"                                                    \
    "  .reg .b32 %rs;\n"                                                      \
    "  .reg .b32 %rpos;\n"                                                    \
    "  .shared .align 4 .b8 S[512];\n"                                        \
    "  mov.u32 %rc, 0;\n"                                                     \
    "  mov.u32 %rbad, 0;\n"                                                   \
    "  mov.u32 %rs, 0;\n"                                                     \
    "  mov.u32 %rpos, 0;\n"                                                   \
    "  ld.param.u64 %rd1, [out];\n"                                           \
    "  cvta.to.global.u64 %rd1, %rd1;\n"                                      \
    "  ld.param.u32 %r7, [sel];\n"                                            \
    "  mov.u32 %r1, %tid.x;\n"                                                \
    "  shl.b32 %r2, %r1, 2;\n"                                                \
    "  mov.u32 %r3, S;\n"                                                     \
    "  add.u32 %r3, %r3, %r2;\n"                                              \
    "  and.b32 %r4, %r1, 1;\n"                                                \
    "  setp.eq.u32 %p2, %r7, 2;\n"                                            \
    "  selp.b32 %r6, %r4, %r7, %p2;\n"                                        \
    "  setp.eq.u32 %p1, %r6, 0;\n"                                            \
    "  mov.u32 %r5, %r1;\n"
#define PROBE_EPILOGUE                                                        \
    "  mul.wide.u32 %rd2, %r1, 4;\n"                                          \
    "  add.s64 %rd3, %rd1, %rd2;\n"                                           \
    "  st.global.u32 [%rd3], %rc;\n"                                          \
    "  st.global.u32 [%rd3+128], %rbad;\n"                                    \
    "  st.global.u32 [%rd3+256], %rpos;\n"                                    \
    "  st.global.u32 [%rd3+384], %r5;\n"                                      \
    "  ret;\n"
#define ACCESS(insn)                                                          \
    "  max.u32 %rbad, %rbad, %rc;\n  " insn "\n  add.u32 %rs, %rs, 1;\n"

static const char *const crit_ptx =
    PK_HEADER
    ".visible .entry crit(.param .u64 out, .param .u32 sel)\n"
    "{\n"
    PROBE_PROLOGUE
    ACCESS("st.shared.u32 [%r3], %r1;")          /* rs = 1 */
    "  @%p1 bra JOIN;\n"
    "  add.u32 %rs, %rs, 1;\n"                    /* B1: rs = 2 */
    ACCESS("ld.shared.u32 %r5, [%r3];")          /* rs = 3 */
    "  add.u32 %r5, %r5, %r1;\n"
    "JOIN:\n"
    "  add.u32 %rs, %rs, 1;\n"
    PROBE_EPILOGUE
    "}\n";

static int probe_ok(const uint32_t *o, uint32_t rc, uint32_t pos_x0,
                    uint32_t pos_x1, uint32_t sel, char *why, size_t n)
{
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t x = sel == 2 ? (t & 1) : sel;
        uint32_t want_pos = x ? pos_x1 : pos_x0, want_val = x ? 2 * t : t;
        if (o[t] != rc || o[32 + t] != 0 || o[64 + t] != want_pos ||
            o[96 + t] != want_val) {
            snprintf(why, n, "sel %u thread %u: %u relssp (want %u), access "
                     "after relssp %u, position %u (want %u), value %u (want %u)",
                     sel, t, o[t], rc, o[32 + t], o[64 + t], want_pos,
                     o[96 + t], want_val);
            return 0;
        }
    }
    return 1;
}

/* Test 18 with test 20's overhead: after splitting, every path runs one
 * relssp after its last access.  Hand-derived: B1 (x != 0) becomes safe
 * after its ld (eq. 1, hoisted right after it: position 2, before the
 * step bump that follows the access); the edge B0 -> JOIN goes from an
 * unsafe block to a safe one, so ssp_split gives it a block holding
 * relssp + bra (eq. 2: position 1, before JOIN's bump).  Overhead per
 * thread (Table 4's SO - U): 1 through B1, 2 through the split block. */
TEST(ssp_relssp_opt_one_per_path)
{
    const char *const opt[] = { "ssp_relssp=opt", NULL };
    ptx_module_t *m = compile(crit_ptx, NULL, opt);
    CHECK(m);
    paths_t p = all_paths(m);
    unsigned nrel = count_op(m, PTX_OP_RELSSP);
    ptx_module_free(m);
    CHECK_EQ(nrel, 2);
    CHECK_EQ(p.n, 2);
    CHECK(!p.cyclic);
    CHECK_EQ(p.min_rel, 1);
    CHECK_EQ(p.max_rel, 1);
    CHECK(!p.access_after);
    char why[256];
    uint32_t o[128];
    for (uint32_t sel = 0; sel <= 2; sel++) {
        CHECK(probe(crit_ptx, "crit", NULL, opt, sel, o) == 0);
        CHECK_MSG(probe_ok(o, 1, 1, 2, sel, why, sizeof why), "%s", why);
    }
    /* Table 4's overhead, from the launch's thread instructions with the
     * passes run in-process (--set ssp_relssp=opt) against none */
    for (uint32_t sel = 0; sel <= 1; sel++) {
        uint64_t base, with;
        CHECK(run32(crit_ptx, "crit", sel, NULL, o, &base) == 0);
        CHECK(run32(crit_ptx, "crit", sel, opt, o, &with) == 0);
        CHECK_EQ(with - base, 32 * (sel ? 1 : 2));
    }
}

/* The same with split_edges (every critical edge, the paper's literal
 * preprocessing) before relssp: the same placement (the split block of
 * B0 -> JOIN is the only one, and it gets the relssp). */
TEST(ssp_relssp_opt_after_split_edges)
{
    const char *const opt[] = { "ssp_relssp=opt", NULL };
    ptx_module_t *m = compile(crit_ptx, "unique_exit,split_edges,relssp", opt);
    CHECK(m);
    paths_t p = all_paths(m);
    ptx_module_free(m);
    CHECK_EQ(p.min_rel, 1);
    CHECK_EQ(p.max_rel, 1);
    CHECK(!p.access_after);
    uint32_t o[128];
    char why[256];
    CHECK(probe(crit_ptx, "crit", "unique_exit,split_edges,relssp", opt, 2, o) == 0);
    CHECK_MSG(probe_ok(o, 1, 1, 2, 2, why, sizeof why), "%s", why);
}

/* Test 19: without splitting, eq. 2 puts the B0 -> JOIN relssp at JOIN's
 * start, which the B1 path also enters: it runs two (after its ld, and at
 * JOIN), the direct path one. */
TEST(ssp_relssp_needs_split)
{
    const char *const opt[] = { "ssp_relssp=opt", NULL };
    ptx_module_t *m = compile(crit_ptx, "unique_exit,relssp", opt);
    CHECK(m);
    paths_t p = all_paths(m);
    ptx_module_free(m);
    CHECK_EQ(p.min_rel, 1);
    CHECK_EQ(p.max_rel, 2);
    uint32_t o[128];
    CHECK(probe(crit_ptx, "crit", "unique_exit,relssp", opt, 2, o) == 0);
    for (uint32_t t = 0; t < 32; t++)
        CHECK_EQ(o[t], (t & 1) ? 2 : 1);
}

/* Test 21: postdom puts one relssp in JOIN, the nearest block after both
 * accesses that every path passes, at its start (JOIN makes no access):
 * no split, no GOTO, overhead 1 on both paths, and it never runs before
 * opt's (position 3 >= 2 through B1, 1 >= 1 direct). */
TEST(ssp_relssp_postdom)
{
    const char *const pd[] = { "ssp_relssp=postdom", NULL };
    ptx_module_t *m = compile(crit_ptx, NULL, pd);
    CHECK(m);
    paths_t p = all_paths(m);
    unsigned nrel = count_op(m, PTX_OP_RELSSP), nbra = count_op(m, PTX_OP_BRA);
    ptx_module_free(m);
    CHECK_EQ(nrel, 1);
    CHECK_EQ(nbra, 1); /* the kernel's own @%p1 bra JOIN only */
    CHECK_EQ(p.min_rel, 1);
    CHECK_EQ(p.max_rel, 1);
    CHECK(!p.access_after);
    uint32_t o[128];
    char why[256];
    for (uint32_t sel = 0; sel <= 2; sel++) {
        CHECK(probe(crit_ptx, "crit", NULL, pd, sel, o) == 0);
        CHECK_MSG(probe_ok(o, 1, 1, 3, sel, why, sizeof why), "%s", why);
    }
    for (uint32_t sel = 0; sel <= 1; sel++) {
        uint64_t base, with;
        CHECK(run32(crit_ptx, "crit", sel, NULL, o, &base) == 0);
        CHECK(run32(crit_ptx, "crit", sel, pd, o, &with) == 0);
        CHECK_EQ(with - base, 32);
    }
}

/* Test 18, no shared-region access: S2 (16 B at offset 0) is below the
 * boundary (R_tb = 16 + 1024 = 1040, t = 0.1: 104), BIG is never
 * touched.  No relssp, no split, no added instruction, under opt and
 * postdom alike. */
static const char *const unshared_ptx =
    PK_HEADER
    ".visible .entry unsh(.param .u64 out, .param .u32 sel)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<3>;\n"
    "  .shared .align 4 .b8 S2[16];\n"
    "  .shared .align 4 .b8 BIG[1024];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  ld.param.u32 %r1, [sel];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  and.b32 %r3, %r2, 3;\n"
    "  shl.b32 %r3, %r3, 2;\n"
    "  mov.u32 %r4, S2;\n"
    "  add.u32 %r4, %r4, %r3;\n"
    "  st.shared.u32 [%r4], %r2;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 bra DONE;\n"
    "  ld.shared.u32 %r5, [%r4];\n"
    "DONE:\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n"
    "}\n";

TEST(ssp_relssp_no_region_access)
{
    const char *const opt[] = { "ssp_relssp=opt", NULL };
    const char *const pd[] = { "ssp_relssp=postdom", NULL };
    ptx_module_t *base = parse(unshared_ptx);
    CHECK(base);
    uint32_t n0 = base->ninsns;
    ptx_module_free(base);
    for (int v = 0; v < 2; v++) {
        ptx_module_t *m = compile(unshared_ptx, NULL, v ? pd : opt);
        CHECK(m);
        unsigned nrel = count_op(m, PTX_OP_RELSSP);
        uint32_t n = m->ninsns;
        ptx_module_free(m);
        CHECK_EQ(nrel, 0);
        CHECK_EQ(n, n0);
    }
    /* a kernel with no scratchpad at all: the pipeline leaves it alone
     * (the paper's Set-3, identical with and without the passes) */
    ptx_module_t *m = compile(
        PK_HEADER
        ".visible .entry k(.param .u64 out)\n{\n  .reg .pred %p<2>;\n"
        "  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
        "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra L;\n  add.u32 %r1, %r1, 1;\n"
        "L:\n  @%p1 ret;\n  st.global.u32 [%rd1], %r1;\n  ret;\n}\n",
        NULL, opt);
    CHECK(m);
    CHECK_EQ(count_op(m, PTX_OP_BRA), 1);
    CHECK_EQ(count_op(m, PTX_OP_RET), 2);
    ptx_module_free(m);
}

/* Test 18, last access in Exit (Set-2): the kernel diverges, both paths
 * access S, and the join (the exit block) accesses it last.  Only the
 * exit block becomes safe, after its ld: one relssp, there, on every
 * path (hand-derived: B0 and the then-block reach Exit's access, so they
 * are unsafe; Exit turns safe after its last access, eq. 1). */
static const char *const lastexit_ptx =
    PK_HEADER
    ".visible .entry lastexit(.param .u64 out, .param .u32 sel)\n"
    "{\n"
    PROBE_PROLOGUE
    ACCESS("st.shared.u32 [%r3], %r1;")          /* rs = 1 */
    "  @%p1 bra JOIN;\n"
    "  add.u32 %rs, %rs, 1;\n"                    /* rs = 2 */
    ACCESS("ld.shared.u32 %r5, [%r3];")          /* rs = 3 */
    "  add.u32 %r5, %r5, %r1;\n"
    "JOIN:\n"
    "  add.u32 %rs, %rs, 1;\n"                    /* rs = 4 or 2 */
    ACCESS("ld.shared.u32 %r8, [%r3];")          /* rs = 5 or 3 */
    "  add.u32 %r5, %r5, %r8;\n"
    "  sub.u32 %r5, %r5, %r1;\n"
    PROBE_EPILOGUE
    "}\n";

TEST(ssp_relssp_last_access_in_exit)
{
    const char *const opt[] = { "ssp_relssp=opt", NULL };
    ptx_module_t *m = compile(lastexit_ptx, NULL, opt);
    CHECK(m);
    paths_t p = all_paths(m);
    unsigned nrel = count_op(m, PTX_OP_RELSSP);
    /* the relssp is the instruction after the last ld.shared */
    uint32_t f = first_entry(m), last_ld = 0;
    for (uint32_t i = m->funcs[f].first; i < m->funcs[f].first + m->funcs[f].count; i++)
        if (is_smem_access(&m->insns[i]))
            last_ld = i;
    int after = m->insns[last_ld + 1].op == PTX_OP_RELSSP;
    ptx_module_free(m);
    CHECK_EQ(nrel, 1);
    CHECK(after);
    CHECK_EQ(p.min_rel, 1);
    CHECK_EQ(p.max_rel, 1);
    CHECK(!p.access_after);
    uint32_t o[128];
    char why[256];
    /* positions: x = 1 reaches the last access at rs = 4, x = 0 at 2;
     * the relssp comes before the bump after it; value 2t or t */
    for (uint32_t sel = 0; sel <= 2; sel++) {
        CHECK(probe(lastexit_ptx, "lastexit", NULL, opt, sel, o) == 0);
        CHECK_MSG(probe_ok(o, 1, 2, 4, sel, why, sizeof why), "%s", why);
    }
}

/* A loop whose body is the last access, with a zero-trip test (Set-2's
 * shape: the paper's 2.0 per thread for FDTD3d, histogram, MC1): both
 * ways out of the unsafe part (the loop's exit edge and the skip edge)
 * are critical, so each gets a split block with relssp + bra.  Every
 * thread runs one relssp however many iterations it makes, and the
 * overhead is 2 per thread on each path (hand-derived from eqs. 1-2:
 * LOOP reaches its own access, so only AFTER is safe). */
static const char *const loop_ptx =
    PK_HEADER
    ".visible .entry loop(.param .u64 out, .param .u32 sel)\n"
    "{\n"
    PROBE_PROLOGUE
    "  mov.u32 %r9, 0;\n"
    "  setp.eq.u32 %p1, %r7, 0;\n"
    "  @%p1 bra AFTER;\n"
    "LOOP:\n"
    "  add.u32 %rs, %rs, 1;\n"
    ACCESS("st.shared.u32 [%r3], %r9;")
    "  add.u32 %r9, %r9, 1;\n"
    "  setp.lt.u32 %p1, %r9, %r7;\n"
    "  @%p1 bra LOOP;\n"
    "AFTER:\n"
    "  add.u32 %r5, %r1, %r9;\n"
    PROBE_EPILOGUE
    "}\n";

TEST(ssp_relssp_loop_exit)
{
    const char *const opt[] = { "ssp_relssp=opt", NULL };
    uint32_t o[128];
    for (uint32_t sel = 0; sel <= 5; sel += 5) {
        /* sel iterations (0: the skip edge); the value is tid + sel, and
         * the position 2 sel (two bumps per iteration) */
        CHECK(probe(loop_ptx, "loop", NULL, opt, sel, o) == 0);
        for (uint32_t t = 0; t < 32; t++) {
            CHECK_EQ(o[t], 1);
            CHECK_EQ(o[32 + t], 0);
            CHECK_EQ(o[64 + t], 2 * sel);
            CHECK_EQ(o[96 + t], t + sel);
        }
        uint64_t base, with;
        CHECK(run32(loop_ptx, "loop", sel, NULL, o, &base) == 0);
        CHECK(run32(loop_ptx, "loop", sel, opt, o, &with) == 0);
        CHECK_EQ(with - base, 32 * 2);
    }
    /* postdom: AFTER post-dominates the loop and the entry, outside the
     * loop: one relssp at its start, overhead 1 */
    const char *const pd[] = { "ssp_relssp=postdom", NULL };
    uint64_t base, with;
    CHECK(run32(loop_ptx, "loop", 5, NULL, o, &base) == 0);
    CHECK(run32(loop_ptx, "loop", 5, pd, o, &with) == 0);
    CHECK_EQ(with - base, 32);
}

/* ---------- 22: the layout keeps backprop's input_node unshared ---------- */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *t = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (t && fread(t, 1, (size_t)n, f) != (size_t)n) {
        free(t);
        t = NULL;
    }
    if (t)
        t[n] = '\0';
    fclose(f);
    return t;
}

static uint64_t offset_of(const ptx_module_t *m, const char *suffix)
{
    for (uint32_t s = 0; s < m->nsyms; s++) {
        size_t n = strlen(m->syms[s].name), k = strlen(suffix);
        if (n >= k && !strcmp(m->syms[s].name + n - k, suffix))
            return m->syms[s].offset;
    }
    return ~0ull;
}

/* backprop: input_node (192 B) then weight_matrix (9216 B); R_tb = 9408,
 * boundary floor(940.8) -> 940.  Declared order keeps input_node below
 * it (the reference's derivation: already optimal).  With the two
 * declarations swapped, weight_matrix first puts both in the shared
 * region; the layout moves input_node back to offset 0: its stores come
 * before the first weight_matrix access, so sharing weight_matrix alone
 * has the strictly smaller range. */
TEST(ssp_layout_backprop_input_node)
{
    char *text = read_text("workloads/backprop/kernel.ptx");
    CHECK(text);
    const char *const min[] = { "ssp_layout=min", NULL };
    ptx_module_t *m = compile(text, NULL, min);
    CHECK(m);
    uint64_t in = offset_of(m, "input_node"), w = offset_of(m, "weight_matrix");
    ptx_module_free(m);
    CHECK_EQ(in, 0);
    CHECK_EQ(w, 192);
    /* swap the two declaration lines */
    char *a = strstr(text, "\t.shared .align 4 .b8 _ZZ21backprop_layerforwardE10input_node[192];");
    char *b = strstr(text, "\t.shared .align 4 .b8 _ZZ21backprop_layerforwardE13weight_matrix[9216];");
    CHECK(a && b && a < b);
    char la[128], lb[128];
    size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
    CHECK(na < sizeof la && nb < sizeof lb);
    memcpy(la, a, na);
    la[na] = '\0';
    memcpy(lb, b, nb);
    lb[nb] = '\0';
    size_t total = strlen(text);
    char *sw = malloc(total + 1);
    CHECK(sw);
    size_t pa = (size_t)(a - text), pb = (size_t)(b - text);
    memcpy(sw, text, pa);
    memcpy(sw + pa, lb, nb);
    memcpy(sw + pa + nb, text + pa + na, pb - pa - na);
    memcpy(sw + pb - na + nb, la, na);
    strcpy(sw + pb + nb - na + na, text + pb + nb);
    free(text);
    ptx_module_t *d = compile(sw, NULL, NULL);
    m = compile(sw, NULL, min);
    free(sw);
    CHECK(d && m);
    uint64_t d_in = offset_of(d, "input_node"), m_in = offset_of(m, "input_node");
    uint64_t m_w = offset_of(m, "weight_matrix");
    ptx_module_free(d);
    ptx_module_free(m);
    CHECK_EQ(d_in, 9216); /* as declared: after weight_matrix */
    CHECK_EQ(m_in, 0);
    CHECK_EQ(m_w, 192);
}

/* An access-free loop after the last access: with Safe* starting true
 * (the greatest fixed point, reference §3.4) the loop is safe and the
 * relssp goes right after the st, before it and before the step bump
 * that follows the access (position 0); starting from false would leave
 * the loop unsafe and release only after it (position 1 + iterations).  postdom: the entry block itself post-dominates every
 * access and is in no loop, so the same place. */
static const char *const tail_loop_ptx =
    PK_HEADER
    ".visible .entry tailloop(.param .u64 out, .param .u32 sel)\n"
    "{\n"
    PROBE_PROLOGUE
    ACCESS("st.shared.u32 [%r3], %r1;")          /* relssp; rs = 1 */
    "  mov.u32 %r9, 0;\n"
    "LOOP:\n"
    "  add.u32 %rs, %rs, 1;\n"
    "  add.u32 %r9, %r9, 1;\n"
    "  setp.lt.u32 %p1, %r9, %r7;\n"
    "  @%p1 bra LOOP;\n"
    "  add.u32 %r5, %r1, %r9;\n"
    PROBE_EPILOGUE
    "}\n";

TEST(ssp_relssp_access_free_loop)
{
    const char *const opt[] = { "ssp_relssp=opt", NULL };
    const char *const pd[] = { "ssp_relssp=postdom", NULL };
    uint32_t o[128];
    for (int v = 0; v < 2; v++) {
        CHECK(probe(tail_loop_ptx, "tailloop", NULL, v ? pd : opt, 3, o) == 0);
        for (uint32_t t = 0; t < 32; t++) {
            CHECK_EQ(o[t], 1);
            CHECK_EQ(o[32 + t], 0);
            CHECK_EQ(o[64 + t], 0);
            CHECK_EQ(o[96 + t], t + 3);
        }
    }
}

/* postdom with the access inside a do-while loop: the entry falls into
 * the loop, so the nearest common post-dominator of the entry and the
 * loop block is the loop block itself; a relssp there would run once per
 * iteration, so it moves out to the loop's post-dominator AFTER (at its
 * start: one per thread, position 2 x iterations).  opt puts its relssp
 * there too (the loop exit is AFTER's only predecessor: no split), so
 * both cost 1 instruction per thread. */
static const char *const dowhile_ptx =
    PK_HEADER
    ".visible .entry dowhile(.param .u64 out, .param .u32 sel)\n"
    "{\n"
    PROBE_PROLOGUE
    "  mov.u32 %r9, 0;\n"
    "LOOP:\n"
    "  add.u32 %rs, %rs, 1;\n"
    ACCESS("st.shared.u32 [%r3], %r9;")
    "  add.u32 %r9, %r9, 1;\n"
    "  setp.lt.u32 %p1, %r9, %r7;\n"
    "  @%p1 bra LOOP;\n"
    "  add.u32 %r5, %r1, %r9;\n"
    PROBE_EPILOGUE
    "}\n";

TEST(ssp_relssp_postdom_leaves_loops)
{
    const char *const opt[] = { "ssp_relssp=opt", NULL };
    const char *const pd[] = { "ssp_relssp=postdom", NULL };
    uint32_t o[128];
    for (int v = 0; v < 2; v++) {
        CHECK(probe(dowhile_ptx, "dowhile", NULL, v ? pd : opt, 4, o) == 0);
        for (uint32_t t = 0; t < 32; t++) {
            CHECK_EQ(o[t], 1);
            CHECK_EQ(o[32 + t], 0);
            CHECK_EQ(o[64 + t], 8);
            CHECK_EQ(o[96 + t], t + 4);
        }
        uint64_t base, with;
        CHECK(run32(dowhile_ptx, "dowhile", 4, NULL, o, &base) == 0);
        CHECK(run32(dowhile_ptx, "dowhile", 4, v ? pd : opt, o, &with) == 0);
        CHECK_EQ(with - base, 32);
    }
}

/* Examples 6.6 and 6.7 of the paper (Figs. 12-13; the figure is lost, so
 * the CFG is built from the text): BB1 branches to BB4 (no access on that
 * path) or BB2, which branches to BB3 (last access L1) or BB9 (last access
 * L2); all three meet in BB12, the post-dominator.  postdom: one relssp at
 * pi, the start of BB12.  opt: OPT1 right after L1, OPT3 right after L2,
 * OPT2 at the start of BB4 (a path with no access, leaving the unsafe
 * part), none in BB1 or BB2 (they reach an access: moving the relssp up
 * into BB1 is what Example 6.7b forbids, since its other successor BB2
 * does not allow it; Example 6.7a: after L1 is the earliest point, before
 * it would not be safe).  BB12's predecessors each have one successor, so
 * nothing is split: one instruction per thread either way.  Positions
 * (step bumps before the relssp), by hand: BB4 path opt 0, postdom 2; BB3
 * and BB9 paths opt 2 (BB2 and their own start bump, the relssp comes
 * right after the access), postdom 4. */
static const char *const ex66_ptx =
    PK_HEADER
    ".visible .entry ex66(.param .u64 out, .param .u32 sel)\n"
    "{\n"
    PROBE_PROLOGUE
    "  setp.eq.u32 %p1, %r7, 0;\n"               /* BB1 */
    "  @%p1 bra BB4;\n"
    "  add.u32 %rs, %rs, 1;\n"                    /* BB2 */
    "  setp.eq.u32 %p2, %r7, 1;\n"
    "  @%p2 bra BB3;\n"
    "  add.u32 %rs, %rs, 1;\n"                    /* BB9 */
    ACCESS("ld.shared.u32 %r8, [%r3];")          /* L2 */
    "  add.u32 %rs, %rs, 1;\n"
    "  bra.uni BB12;\n"
    "BB3:\n"
    "  add.u32 %rs, %rs, 1;\n"
    ACCESS("st.shared.u32 [%r3], %r1;")          /* L1 */
    "  add.u32 %rs, %rs, 1;\n"
    "  bra.uni BB12;\n"
    "BB4:\n"
    "  add.u32 %rs, %rs, 1;\n"
    "  add.u32 %rs, %rs, 1;\n"
    "  bra.uni BB12;\n"
    "BB12:\n"
    "  add.u32 %rs, %rs, 1;\n"
    PROBE_EPILOGUE
    "}\n";

TEST(ssp_relssp_examples_6_6_and_6_7)
{
    const char *const opt[] = { "ssp_relssp=opt", NULL };
    const char *const pd[] = { "ssp_relssp=postdom", NULL };
    static const uint32_t want[2][3] = { { 0, 2, 2 }, { 2, 4, 4 } };
    for (int v = 0; v < 2; v++) {
        ptx_module_t *m = compile(ex66_ptx, NULL, v ? pd : opt);
        CHECK(m);
        paths_t p = all_paths(m);
        unsigned nrel = count_op(m, PTX_OP_RELSSP), nbra = count_op(m, PTX_OP_BRA);
        ptx_module_free(m);
        CHECK_EQ(nrel, v ? 1 : 3);
        CHECK_EQ(nbra, 5); /* the kernel's own: nothing split */
        CHECK_EQ(p.n, 3);
        CHECK_EQ(p.min_rel, 1);
        CHECK_EQ(p.max_rel, 1);
        CHECK(!p.access_after);
        uint32_t o[128];
        for (uint32_t sel = 0; sel <= 2; sel++) {
            CHECK(probe(ex66_ptx, "ex66", NULL, v ? pd : opt, sel, o) == 0);
            for (uint32_t t = 0; t < 32; t++) {
                CHECK_EQ(o[t], 1);
                CHECK_EQ(o[32 + t], 0);
                CHECK_EQ(o[64 + t], want[v][sel]);
                CHECK_EQ(o[96 + t], t);
            }
        }
    }
}

/* Ties keep the declaration order: X and Y (64 B each, R_tb = 128, t =
 * 0.5: boundary 64, one fits below) are each stored then loaded once, in
 * that order, so sharing X alone or Y alone covers one point each (the
 * point before its load): cost 1 and 1.  X stays first.  Then with Y
 * used twice more around X's accesses (its range now covers X's), Y's
 * cost exceeds X's (4 points: before st X, ld X, st Y, ld Y; against 1): Y is kept unshared, X goes to
 * the shared region, and the layout puts Y first. */
static const char *const tie_ptx =
    PK_HEADER
    ".visible .entry tie(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .shared .align 4 .b8 X[64];\n"
    "  .shared .align 4 .b8 Y[64];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  st.shared.u32 [X], %r1;\n"
    "  ld.shared.u32 %r2, [X];\n"
    "  st.shared.u32 [Y], %r2;\n"
    "  ld.shared.u32 %r3, [Y];\n"
    "  ret;\n"
    "}\n";

static const char *const untie_ptx =
    PK_HEADER
    ".visible .entry untie(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .shared .align 4 .b8 X[64];\n"
    "  .shared .align 4 .b8 Y[64];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  st.shared.u32 [Y], %r1;\n"
    "  st.shared.u32 [X], %r1;\n"
    "  ld.shared.u32 %r2, [X];\n"
    "  st.shared.u32 [Y], %r2;\n"
    "  ld.shared.u32 %r3, [Y];\n"
    "  ret;\n"
    "}\n";

TEST(ssp_layout_ties_keep_declaration_order)
{
    const char *const min[] = { "ssp_layout=min", "ssp_threshold_permille=500", NULL };
    ptx_module_t *m = compile(tie_ptx, NULL, min);
    CHECK(m);
    uint64_t x = offset_of(m, "X"), y = offset_of(m, "Y");
    ptx_module_free(m);
    CHECK_EQ(x, 0);
    CHECK_EQ(y, 64);
    m = compile(untie_ptx, NULL, min);
    CHECK(m);
    x = offset_of(m, "X");
    y = offset_of(m, "Y");
    ptx_module_free(m);
    CHECK_EQ(x, 64);
    CHECK_EQ(y, 0);
}
