/* test_regalloc.c: register allocation (compiler/regalloc.c).
 *
 * Small functions whose best register count is plain by hand (the comment
 * of each says why), then every kernel of tests/kernels checked for a
 * valid allocation: registers live at the same point never share a
 * physical register.  That check recomputes liveness itself and looks
 * only at the allocator's output, not at its interference graph. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/regalloc.h"
#include "harness.h"
#include "ptx/cfg.h"
#include "ptx/ir.h"
#include "ptx/liveness.h"
#include "simt/simt.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n\n"
/* a kernel whose stores need no address register */
#define KERNEL(regs)                                                          \
    ".visible .entry k()\n{\n" regs                                          \
    "  .shared .align 8 .b8 s[64];\n"

static ptx_module_t *parse(const char *text)
{
    simt_error_t err;
    memset(&err, 0, sizeof err);
    ptx_module_t *m = ptx_parse("t.ptx", text, strlen(text), &err);
    if (!m)
        printf("  parse error: %s\n", err.msg);
    return m;
}

static uint32_t reg_named(const ptx_module_t *m, uint32_t func,
                          const char *name)
{
    const ptx_function_t *f = &m->funcs[func];
    for (uint32_t i = 0; i < f->nregs; i++)
        if (strcmp(f->regs[i].name, name) == 0)
            return i;
    return REGALLOC_NONE;
}

/* Allocates function `name` of text alone; the module stays for lookups. */
static int alloc(const char *text, const char *name, ptx_module_t **m,
                 uint32_t *func, regalloc_result_t *r)
{
    *m = parse(text);
    if (!*m)
        return -100;
    int f = ptx_find_function(*m, name);
    if (f < 0)
        return -101;
    *func = (uint32_t)f;
    return regalloc_function(*m, *func, r);
}

#define PHYS(name) r.phys[reg_named(m, fn, name)]

TEST(regalloc_three_live_b32)
{
    /* %r1..%r3 are all live at the first store: 3 registers, all
     * different */
    static const char text[] = HDR KERNEL("  .reg .b32 %r<4>;\n")
        "  mov.u32 %r1, %tid.x;\n"
        "  add.u32 %r2, %r1, 1;\n"
        "  add.u32 %r3, %r1, 2;\n"
        "  st.shared.u32 [s], %r1;\n"
        "  st.shared.u32 [s+4], %r2;\n"
        "  st.shared.u32 [s+8], %r3;\n"
        "  ret;\n}\n";
    ptx_module_t *m;
    uint32_t fn;
    regalloc_result_t r;
    CHECK_EQ(alloc(text, "k", &m, &fn, &r), 0);
    CHECK_EQ(r.regs, 3);
    CHECK_EQ(r.own_regs, 3);
    CHECK_EQ(r.preds, 0);
    CHECK(PHYS("%r1") != PHYS("%r2") && PHYS("%r2") != PHYS("%r3") &&
          PHYS("%r1") != PHYS("%r3"));
    CHECK(PHYS("%r1") < 3 && PHYS("%r2") < 3 && PHYS("%r3") < 3);
    /* %r0 is declared (by %r<4>) but never named */
    CHECK_EQ(PHYS("%r0"), REGALLOC_NONE);
    CHECK_EQ(r.nvregs, m->funcs[fn].nregs);
    regalloc_result_free(&r);
    ptx_module_free(m);
}

TEST(regalloc_pair_and_single)
{
    /* %r1 (one register) and %rd1 (an aligned pair) live together: 3 */
    static const char text[] = HDR KERNEL("  .reg .b32 %r<2>;\n"
                                          "  .reg .b64 %rd<2>;\n")
        "  mov.u32 %r1, %tid.x;\n"
        "  cvt.u64.u32 %rd1, %r1;\n"
        "  st.shared.u32 [s], %r1;\n"
        "  st.shared.u64 [s+8], %rd1;\n"
        "  ret;\n}\n";
    ptx_module_t *m;
    uint32_t fn;
    regalloc_result_t r;
    CHECK_EQ(alloc(text, "k", &m, &fn, &r), 0);
    CHECK_EQ(r.regs, 3);
    CHECK_EQ(r.pressure, 3);
    uint32_t p = PHYS("%rd1"), q = PHYS("%r1");
    CHECK_EQ(p % 2, 0);
    CHECK(p + 2 <= 3 && q < 3);
    CHECK(q != p && q != p + 1);
    regalloc_result_free(&r);
    ptx_module_free(m);
}

TEST(regalloc_single_then_pair_in_four)
{
    /* %r1, then %rd1 and %r2: four registers live at the last definition
     * and four suffice (the pair at 0:1 or 2:3) */
    static const char text[] = HDR KERNEL("  .reg .b32 %r<3>;\n"
                                          "  .reg .b64 %rd<2>;\n")
        "  mov.u32 %r1, %tid.x;\n"
        "  cvt.u64.u32 %rd1, %r1;\n"
        "  add.u32 %r2, %r1, 1;\n"
        "  st.shared.u32 [s], %r1;\n"
        "  st.shared.u32 [s+4], %r2;\n"
        "  st.shared.u64 [s+8], %rd1;\n"
        "  ret;\n}\n";
    ptx_module_t *m;
    uint32_t fn;
    regalloc_result_t r;
    CHECK_EQ(alloc(text, "k", &m, &fn, &r), 0);
    CHECK_EQ(r.regs, 4);
    uint32_t p = PHYS("%rd1"), a = PHYS("%r1"), b = PHYS("%r2");
    CHECK_EQ(p % 2, 0);
    CHECK(a != b && a / 2 != p / 2 && b / 2 != p / 2);
    regalloc_result_free(&r);
    ptx_module_free(m);
}

TEST(regalloc_disjoint_ranges_share)
{
    /* %r1 is dead before %r2 is born: one register for both */
    static const char text[] = HDR KERNEL("  .reg .b32 %r<3>;\n")
        "  mov.u32 %r1, %tid.x;\n"
        "  st.shared.u32 [s], %r1;\n"
        "  mov.u32 %r2, %ctaid.x;\n"
        "  st.shared.u32 [s+4], %r2;\n"
        "  ret;\n}\n";
    ptx_module_t *m;
    uint32_t fn;
    regalloc_result_t r;
    CHECK_EQ(alloc(text, "k", &m, &fn, &r), 0);
    CHECK_EQ(r.regs, 1);
    CHECK_EQ(PHYS("%r1"), 0);
    CHECK_EQ(PHYS("%r2"), 0);
    regalloc_result_free(&r);
    ptx_module_free(m);
}

TEST(regalloc_predicates_separate)
{
    /* %p1 and %p2 are live together (2 predicates); %r1 dies at the
     * second setp before %r2 is defined, so one 32-bit register */
    static const char text[] = HDR KERNEL("  .reg .pred %p<3>;\n"
                                          "  .reg .b32 %r<3>;\n")
        "  mov.u32 %r1, %tid.x;\n"
        "  setp.eq.u32 %p1, %r1, 0;\n"
        "  setp.eq.u32 %p2, %r1, 1;\n"
        "  selp.u32 %r2, 1, 2, %p1;\n"
        "  @%p2 st.shared.u32 [s], %r2;\n"
        "  ret;\n}\n";
    ptx_module_t *m;
    uint32_t fn;
    regalloc_result_t r;
    CHECK_EQ(alloc(text, "k", &m, &fn, &r), 0);
    CHECK_EQ(r.regs, 1);
    CHECK_EQ(r.preds, 2);
    CHECK_EQ(r.own_preds, 2);
    CHECK(PHYS("%p1") != PHYS("%p2"));
    CHECK(PHYS("%p1") < 2 && PHYS("%p2") < 2);
    regalloc_result_free(&r);
    ptx_module_free(m);
}

TEST(regalloc_chain_of_ten)
{
    /* each %rN = %rN-1 + %rN-2: at every definition the previous value is
     * still needed and the one before is dead, so 2 registers */
    static const char text[] = HDR KERNEL("  .reg .b32 %r<11>;\n")
        "  mov.u32 %r1, %tid.x;\n"
        "  add.u32 %r2, %r1, 1;\n"
        "  add.u32 %r3, %r2, %r1;\n"
        "  add.u32 %r4, %r3, %r2;\n"
        "  add.u32 %r5, %r4, %r3;\n"
        "  add.u32 %r6, %r5, %r4;\n"
        "  add.u32 %r7, %r6, %r5;\n"
        "  add.u32 %r8, %r7, %r6;\n"
        "  add.u32 %r9, %r8, %r7;\n"
        "  add.u32 %r10, %r9, %r8;\n"
        "  st.shared.u32 [s], %r10;\n"
        "  ret;\n}\n";
    ptx_module_t *m;
    uint32_t fn;
    regalloc_result_t r;
    CHECK_EQ(alloc(text, "k", &m, &fn, &r), 0);
    CHECK_EQ(r.regs, 2);
    char a[16], b[16];
    /* neighbours overlap (%rN-1 is read again after %rN is made), except
     * the last: nothing reads %r9 after %r10 */
    for (unsigned i = 2; i <= 9; i++) {
        snprintf(a, sizeof a, "%%r%u", (i - 1) % 100);
        snprintf(b, sizeof b, "%%r%u", i % 100);
        CHECK(PHYS(a) != PHYS(b));
    }
    regalloc_result_free(&r);
    ptx_module_free(m);
}

TEST(regalloc_chain_each_dead_at_next_def)
{
    /* each %rN = %rN-1 + 1: the old value dies as the new one is made,
     * so one register holds the whole chain */
    static const char text[] = HDR KERNEL("  .reg .b32 %r<6>;\n")
        "  mov.u32 %r1, %tid.x;\n"
        "  add.u32 %r2, %r1, 1;\n"
        "  add.u32 %r3, %r2, 1;\n"
        "  add.u32 %r4, %r3, 1;\n"
        "  add.u32 %r5, %r4, 1;\n"
        "  st.shared.u32 [s], %r5;\n"
        "  ret;\n}\n";
    ptx_module_t *m;
    uint32_t fn;
    regalloc_result_t r;
    CHECK_EQ(alloc(text, "k", &m, &fn, &r), 0);
    CHECK_EQ(r.regs, 1);
    regalloc_result_free(&r);
    ptx_module_free(m);
}

TEST(regalloc_loop_carried_and_pair)
{
    /* %r1 and %r2 go round the loop (2 registers); after it %r2 and the
     * pair %rd1 are live (3), and %r1 is dead there, so %rd1 can reuse
     * %r1's register: 3 in all, which needs %r2 outside %rd1's pair */
    static const char text[] = HDR
        ".visible .entry k(.param .u64 k_out)\n{\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
        "  mov.u32 %r1, 0;\n"
        "  mov.u32 %r2, 0;\n"
        "$L_loop:\n"
        "  add.s32 %r2, %r2, %r1;\n"
        "  add.s32 %r1, %r1, 1;\n"
        "  setp.lt.s32 %p1, %r1, 10;\n"
        "  @%p1 bra $L_loop;\n"
        "  ld.param.u64 %rd1, [k_out];\n"
        "  st.global.u32 [%rd1], %r2;\n"
        "  ret;\n}\n";
    ptx_module_t *m;
    uint32_t fn;
    regalloc_result_t r;
    CHECK_EQ(alloc(text, "k", &m, &fn, &r), 0);
    CHECK_EQ(r.regs, 3);
    CHECK_EQ(r.preds, 1);
    CHECK(PHYS("%r1") != PHYS("%r2"));
    CHECK_EQ(PHYS("%rd1") % 2, 0);
    CHECK(PHYS("%r2") / 2 != PHYS("%rd1") / 2);
    regalloc_result_free(&r);
    ptx_module_free(m);
}

static char *guarded_text(const char *guard)
{
    static const char fmt[] = HDR
        ".visible .entry k()\n{\n"
        "  .reg .pred %%p<2>;\n  .reg .b32 %%r<3>;\n"
        "  .shared .align 4 .b8 s[16];\n"
        "  mov.u32 %%r2, 5;\n"
        "  mov.u32 %%r1, %%tid.x;\n"
        "  setp.eq.u32 %%p1, %%r1, 0;\n"
        "  st.shared.u32 [s], %%r1;\n"
        "  %s mov.u32 %%r2, 7;\n"
        "  st.shared.u32 [s+4], %%r2;\n"
        "  ret;\n}\n";
    char *buf = malloc(sizeof fmt + 16);
    if (buf)
        snprintf(buf, sizeof fmt + 16, fmt, guard);
    return buf;
}

TEST(regalloc_guarded_definition_keeps_value)
{
    /* with @%p1 the first %r2 may reach the last store, so it is live
     * across all of %r1: 2 registers; a plain mov makes the first %r2
     * dead at once and %r1, %r2 can share: 1 register */
    char *text = guarded_text("@%p1");
    CHECK(text);
    ptx_module_t *m;
    uint32_t fn;
    regalloc_result_t r;
    int rc = alloc(text, "k", &m, &fn, &r);
    free(text);
    CHECK_EQ(rc, 0);
    CHECK_EQ(r.regs, 2);
    CHECK(PHYS("%r1") != PHYS("%r2"));
    regalloc_result_free(&r);
    ptx_module_free(m);

    text = guarded_text("");
    CHECK(text);
    rc = alloc(text, "k", &m, &fn, &r);
    free(text);
    CHECK_EQ(rc, 0);
    CHECK_EQ(r.regs, 1);
    regalloc_result_free(&r);
    ptx_module_free(m);
}

/* g needs 2 registers and 1 predicate.  k holds %r1, %r2 and %p1 across
 * its call of g, and 3 registers at its own peak. */
static const char call_text[] = HDR
    ".func (.param .b32 g_r) g(.param .b32 g_a)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
    "  ld.param.u32 %r1, [g_a];\n"
    "  add.u32 %r2, %r1, 1;\n"
    "  setp.gt.u32 %p1, %r1, 9;\n"
    "  selp.u32 %r3, %r1, %r2, %p1;\n"
    "  st.param.b32 [g_r], %r3;\n"
    "  ret;\n}\n"
    ".visible .entry k()\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<5>;\n"
    "  .shared .align 4 .b8 s[16];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  {\n  .param .b32 pa;\n  .param .b32 pr;\n"
    "  st.param.b32 [pa], %r3;\n"
    "  call.uni (pr), g, (pa);\n"
    "  ld.param.b32 %r4, [pr];\n  }\n"
    "  add.u32 %r4, %r4, %r1;\n"
    "  add.u32 %r4, %r4, %r2;\n"
    "  @%p1 st.shared.u32 [s], %r4;\n"
    "  ret;\n}\n";

TEST(regalloc_callee_on_top_of_live_across)
{
    ptx_module_t *m = parse(call_text);
    CHECK(m);
    int k = ptx_find_function(m, "k"), g = ptx_find_function(m, "g");
    CHECK(k >= 0 && g >= 0);
    regalloc_result_t r;
    CHECK_EQ(regalloc_function(m, (uint32_t)g, &r), 0);
    CHECK_EQ(r.regs, 2);
    CHECK_EQ(r.preds, 1);
    regalloc_result_free(&r);
    /* k alone: %r1..%r3 at the third mov */
    CHECK_EQ(regalloc_function(m, (uint32_t)k, &r), 0);
    CHECK_EQ(r.own_regs, 3);
    CHECK_EQ(r.regs, 3);
    CHECK_EQ(r.own_preds, 1);
    regalloc_result_free(&r);
    /* with g: 2 live across + 2 = 4 > 3; predicates 1 across + 1 = 2 */
    CHECK_EQ(regalloc_kernel(m, (uint32_t)k, &r), 0);
    CHECK_EQ(r.own_regs, 3);
    CHECK_EQ(r.regs, 4);
    CHECK_EQ(r.own_preds, 1);
    CHECK_EQ(r.preds, 2);
    regalloc_result_free(&r);
    /* a function without calls: its total is its own */
    CHECK_EQ(regalloc_kernel(m, (uint32_t)g, &r), 0);
    CHECK_EQ(r.regs, 2);
    regalloc_result_free(&r);
    ptx_module_free(m);
}

TEST(regalloc_callee_pairs_aligned_base)
{
    /* h needs one pair (2 registers).  k holds only %r1 across the call,
     * so h's registers start at 1, rounded up to 2 to keep the pair
     * aligned: 4, more than k's own 3 (%r1 and %rd1) */
    static const char text[] = HDR
        ".func (.param .b64 h_r) h(.param .b32 h_a)\n{\n"
        "  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
        "  ld.param.u32 %r1, [h_a];\n"
        "  cvt.u64.u32 %rd1, %r1;\n"
        "  st.param.b64 [h_r], %rd1;\n"
        "  ret;\n}\n"
        ".visible .entry k()\n{\n"
        "  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
        "  .shared .align 4 .b8 s[16];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  {\n  .param .b32 pa;\n  .param .b64 pr;\n"
        "  st.param.b32 [pa], %r1;\n"
        "  call.uni (pr), h, (pa);\n"
        "  ld.param.b64 %rd1, [pr];\n  }\n"
        "  cvt.u32.u64 %r2, %rd1;\n"
        "  add.u32 %r2, %r2, %r1;\n"
        "  st.shared.u32 [s], %r2;\n"
        "  ret;\n}\n";
    ptx_module_t *m = parse(text);
    CHECK(m);
    int k = ptx_find_function(m, "k"), h = ptx_find_function(m, "h");
    CHECK(k >= 0 && h >= 0);
    regalloc_result_t r;
    CHECK_EQ(regalloc_kernel(m, (uint32_t)h, &r), 0);
    CHECK_EQ(r.regs, 2);
    CHECK(r.pairs);
    regalloc_result_free(&r);
    CHECK_EQ(regalloc_kernel(m, (uint32_t)k, &r), 0);
    CHECK_EQ(r.own_regs, 3);
    CHECK_EQ(r.regs, 4);
    regalloc_result_free(&r);
    ptx_module_free(m);
}

TEST(regalloc_recursion_and_bad_index)
{
    static const char text[] = HDR
        ".func f()\n{\n  call.uni f;\n  ret;\n}\n"
        ".visible .entry k()\n{\n  call.uni f;\n  ret;\n}\n";
    ptx_module_t *m = parse(text);
    CHECK(m);
    int k = ptx_find_function(m, "k"), f = ptx_find_function(m, "f");
    CHECK(k >= 0 && f >= 0);
    regalloc_result_t r;
    /* the recursive call adds nothing: its activation's registers go to
     * the thread's stack */
    CHECK_EQ(regalloc_kernel(m, (uint32_t)k, &r), 0);
    CHECK_EQ(r.regs, 0);
    regalloc_result_free(&r);
    CHECK_EQ(regalloc_function(m, (uint32_t)f, &r), 0);
    CHECK_EQ(r.regs, 0);
    regalloc_result_free(&r);
    CHECK_EQ(regalloc_function(m, m->nfuncs, &r), REGALLOC_EBADFUNC);
    CHECK_EQ(regalloc_kernel(m, m->nfuncs, &r), REGALLOC_EBADFUNC);
    ptx_module_free(m);
}

/* ---- every kernel of tests/kernels ---- */

static char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = NULL;
    if (fseek(fp, 0, SEEK_END) == 0) {
        long n = ftell(fp);
        if (n >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
            (buf = malloc((size_t)n + 1))) {
            *len = fread(buf, 1, (size_t)n, fp);
            buf[*len] = '\0';
        }
    }
    fclose(fp);
    return buf;
}

/* Do the registers in `set` (plus extra[]) get pairwise disjoint physical
 * registers of the right shape?  Also tracks the pressure. */
typedef struct {
    const ptx_module_t *m;
    const ptx_function_t *f;
    const regalloc_result_t *r;
    uint32_t pressure;
    char why[200];
} verify_t;

static int width_of(const ptx_function_t *f, uint32_t v)
{
    return ptx_type_bits((ptx_type_t)f->regs[v].type) == 64 ? 2 : 1;
}

static int is_pred(const ptx_function_t *f, uint32_t v)
{
    return f->regs[v].type == PTX_T_PRED;
}

static int check_point(verify_t *x, const uint64_t *set, const uint16_t *extra,
                       int nextra)
{
    uint32_t list[512], n = 0, units = 0;
    for (uint32_t v = 0; v < x->f->nregs; v++)
        if (ptx_live_has(set, v) && n < 512)
            list[n++] = v;
    for (int i = 0; i < nextra; i++)
        if (!ptx_live_has(set, extra[i]) && n < 512)
            list[n++] = extra[i];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = list[i], pa = x->r->phys[a];
        if (pa == REGALLOC_NONE) {
            snprintf(x->why, sizeof x->why, "%s has no register",
                     x->f->regs[a].name);
            return 0;
        }
        if (!is_pred(x->f, a))
            units += (uint32_t)width_of(x->f, a);
        for (uint32_t j = i + 1; j < n; j++) {
            uint32_t b = list[j], pb = x->r->phys[b];
            if (is_pred(x->f, a) != is_pred(x->f, b))
                continue;
            uint32_t wa = is_pred(x->f, a) ? 1 : (uint32_t)width_of(x->f, a);
            uint32_t wb = is_pred(x->f, b) ? 1 : (uint32_t)width_of(x->f, b);
            if (pa < pb + wb && pb < pa + wa) {
                snprintf(x->why, sizeof x->why, "%s and %s are live together "
                         "and share register %u/%u", x->f->regs[a].name,
                         x->f->regs[b].name, pa, pb);
                return 0;
            }
        }
    }
    if (units > x->pressure)
        x->pressure = units;
    return 1;
}

static int verify_function(const ptx_module_t *m, uint32_t func,
                           const regalloc_result_t *r, char *why, size_t size)
{
    verify_t x = { m, &m->funcs[func], r, 0, "" };
    const ptx_function_t *f = x.f;
    /* shape: pairs even, everything inside the reported counts */
    for (uint32_t v = 0; v < f->nregs; v++) {
        uint32_t p = r->phys[v];
        if (p == REGALLOC_NONE)
            continue;
        int bad = is_pred(f, v) ? p >= r->own_preds
                                : p + (uint32_t)width_of(f, v) > r->own_regs ||
                                      (width_of(f, v) == 2 && p % 2);
        if (bad) {
            snprintf(why, size, "%s: %s at %u (regs %u, preds %u)", f->name,
                     f->regs[v].name, p, r->own_regs, r->own_preds);
            return 0;
        }
    }
    ptx_cfg_t *cfg = ptx_cfg_build(m, func);
    ptx_liveness_t *lv = cfg ? ptx_liveness_build(m, cfg) : NULL;
    uint64_t *set = lv ? malloc(lv->words * sizeof *set) : NULL;
    int ok = set != NULL;
    for (uint32_t b = 0; ok && b < cfg->nblocks; b++) {
        ok = check_point(&x, ptx_live_in(lv, b), NULL, 0);
        const ptx_block_t *blk = &cfg->blocks[b];
        for (uint32_t i = blk->first; ok && i < blk->first + blk->count; i++) {
            uint16_t defs[PTX_INSN_MAX_DEFS];
            int nd = ptx_insn_defs(&m->insns[i], defs, PTX_INSN_MAX_DEFS);
            ptx_liveness_after(lv, m, cfg, i, set);
            ok = check_point(&x, set, defs, nd);
        }
    }
    if (!ok)
        snprintf(why, size, "%s: %s", f->name, x.why);
    else if (r->own_regs < x.pressure)
        ok = 0, snprintf(why, size, "%s: %u registers below pressure %u",
                         f->name, r->own_regs, x.pressure);
    free(set);
    ptx_liveness_free(lv);
    ptx_cfg_free(cfg);
    return ok;
}

TEST(regalloc_all_kernels_valid)
{
    DIR *d = opendir("tests/kernels");
    CHECK_MSG(d, "tests/kernels not found (run from the repository root)");
    int files = 0, funcs = 0, ok = 1;
    char why[512] = "";
    for (struct dirent *e; ok && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "tests/kernels/%s/kernel.ptx", e->d_name);
        size_t len = 0;
        char *text = read_file(path, &len);
        if (!text)
            continue;
        simt_error_t err;
        memset(&err, 0, sizeof err);
        ptx_module_t *m = ptx_parse(path, text, len, &err);
        free(text);
        if (!m) {
            snprintf(why, sizeof why, "%.500s", err.msg);
            ok = 0;
            break;
        }
        files++;
        for (uint32_t fi = 0; ok && fi < m->nfuncs; fi++) {
            if (!m->funcs[fi].count)
                continue;
            regalloc_result_t own, total;
            int rc = regalloc_function(m, fi, &own);
            int rc2 = regalloc_kernel(m, fi, &total);
            if (rc || rc2) {
                snprintf(why, sizeof why, "%.200s: %.200s: rc %d/%d", path,
                         m->funcs[fi].name, rc, rc2);
                ok = 0;
            } else {
                funcs++;
                ok = verify_function(m, fi, &own, why, sizeof why) &&
                     verify_function(m, fi, &total, why, sizeof why);
                /* the total never undercuts the body alone */
                if (ok && (total.regs < own.regs || total.preds < own.preds ||
                           total.own_regs != own.own_regs)) {
                    snprintf(why, sizeof why, "%s: total %u/%u below own %u/%u",
                             m->funcs[fi].name, total.regs, total.preds,
                             own.regs, own.preds);
                    ok = 0;
                }
            }
            if (!rc)
                regalloc_result_free(&own);
            if (!rc2)
                regalloc_result_free(&total);
        }
        ptx_module_free(m);
    }
    closedir(d);
    CHECK_MSG(ok, "%s", why);
    CHECK(files >= 8);
    CHECK(funcs >= files);
}
