/* test_cfg.c: basic blocks, successors, dominators, post-dominators and
 * reconvergence points of ptx/cfg.c on small hand-written functions.
 *
 * Every expectation was worked out by hand from the listing: the comment
 * beside each instruction gives its index within the function and its
 * block. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "ptx/cfg.h"
#include "ptx/ir.h"
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

/* Block b holds instructions [first, first + count) of the function. */
static int block_is(const ptx_module_t *m, const ptx_cfg_t *c, uint32_t b,
                    uint32_t first, uint32_t count)
{
    uint32_t base = m->funcs[c->func].first;
    return c->blocks[b].first == base + first && c->blocks[b].count == count;
}

/* Successor set of block b is exactly {s0, s1} (s1 = PTX_CFG_NONE: one). */
static int succs_are(const ptx_cfg_t *c, uint32_t b, uint32_t s0, uint32_t s1)
{
    const ptx_block_t *k = &c->blocks[b];
    if (s1 == PTX_CFG_NONE)
        return k->nsucc == 1 && k->succ[0] == s0;
    return k->nsucc == 2 && ((k->succ[0] == s0 && k->succ[1] == s1) ||
                             (k->succ[0] == s1 && k->succ[1] == s0));
}

static int has_pred(const ptx_cfg_t *c, uint32_t b, uint32_t p)
{
    for (uint32_t i = 0; i < c->blocks[b].npreds; i++)
        if (c->blocks[b].preds[i] == p)
            return 1;
    return 0;
}

#define NO PTX_CFG_NONE

/* if/else diamond: B0 branches to B2 (else) or falls into B1 (then); both
 * meet in B3. */
static const char diamond[] = HDR
    ".visible .entry k(.param .u32 k_p)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<4>;\n"
    "  ld.param.u32 %r1, [k_p];\n"      /* 0 B0 */
    "  setp.eq.s32 %p1, %r1, 0;\n"      /* 1 B0 */
    "  @%p1 bra $L_else;\n"             /* 2 B0 */
    "  add.s32 %r2, %r1, 1;\n"          /* 3 B1 */
    "  bra.uni $L_join;\n"              /* 4 B1 */
    "$L_else:\n"
    "  add.s32 %r2, %r1, 2;\n"          /* 5 B2 */
    "$L_join:\n"
    "  add.s32 %r3, %r2, %r2;\n"        /* 6 B3 */
    "  ret;\n"                          /* 7 B3 */
    "}\n";

TEST(cfg_diamond_blocks_and_trees)
{
    ptx_module_t *m = parse(diamond);
    CHECK(m);
    ptx_cfg_t *c = ptx_cfg_build(m, 0);
    CHECK(c);
    CHECK_EQ(c->nblocks, 4);
    CHECK_EQ(c->exit, 4);
    CHECK(block_is(m, c, 0, 0, 3));
    CHECK(block_is(m, c, 1, 3, 2));
    CHECK(block_is(m, c, 2, 5, 1));
    CHECK(block_is(m, c, 3, 6, 2));
    CHECK(succs_are(c, 0, 1, 2));
    CHECK(succs_are(c, 1, 3, NO));
    CHECK(succs_are(c, 2, 3, NO));
    CHECK(succs_are(c, 3, 4, NO));
    CHECK_EQ(c->blocks[3].npreds, 2);
    CHECK(has_pred(c, 3, 1) && has_pred(c, 3, 2));
    /* dominator tree: B0 is the parent of all three */
    CHECK_EQ(c->blocks[0].idom, NO);
    CHECK_EQ(c->blocks[1].idom, 0);
    CHECK_EQ(c->blocks[2].idom, 0);
    CHECK_EQ(c->blocks[3].idom, 0);
    /* post-dominator tree: B3 is the parent of B0, B1, B2 */
    CHECK_EQ(c->blocks[0].ipdom, 3);
    CHECK_EQ(c->blocks[1].ipdom, 3);
    CHECK_EQ(c->blocks[2].ipdom, 3);
    CHECK_EQ(c->blocks[3].ipdom, c->exit);
    CHECK(ptx_cfg_dominates(c, 0, 3));
    CHECK(!ptx_cfg_dominates(c, 1, 3));
    CHECK(ptx_cfg_postdominates(c, 3, 0));
    CHECK(!ptx_cfg_postdominates(c, 1, 0));
    for (uint32_t b = 0; b < 4; b++)
        CHECK(c->blocks[b].reachable);
    ptx_cfg_free(c);
    ptx_module_free(m);
}

TEST(cfg_diamond_reconvergence)
{
    ptx_module_t *m = parse(diamond);
    CHECK(m);
    ptx_cfg_t *c = ptx_cfg_build(m, 0);
    CHECK(c);
    uint32_t base = m->funcs[0].first;
    /* the divergent @%p1 bra reconverges at the join, instruction 6 */
    CHECK_EQ(ptx_cfg_reconvergence(c, m, base + 2), base + 6);
    CHECK_EQ(ptx_cfg_block(c, m, base + 5), 2);
    ptx_cfg_free(c);
    ptx_module_free(m);
}

/* Loop with a break: B1 is the header (exits to B3 on %p1), B2 the latch
 * (back to B1 on %p2, else falls into B3). */
static const char loop_break[] = HDR
    ".visible .entry k()\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<2>;\n"
    "  mov.u32 %r1, 0;\n"               /* 0 B0 */
    "$L_loop:\n"
    "  add.s32 %r1, %r1, 1;\n"          /* 1 B1 */
    "  setp.gt.s32 %p1, %r1, 10;\n"     /* 2 B1 */
    "  @%p1 bra $L_done;\n"             /* 3 B1 */
    "  setp.lt.s32 %p2, %r1, 100;\n"    /* 4 B2 */
    "  @%p2 bra $L_loop;\n"             /* 5 B2 */
    "$L_done:\n"
    "  ret;\n"                          /* 6 B3 */
    "}\n";

TEST(cfg_loop_with_break)
{
    ptx_module_t *m = parse(loop_break);
    CHECK(m);
    ptx_cfg_t *c = ptx_cfg_build(m, 0);
    CHECK(c);
    uint32_t base = m->funcs[0].first;
    CHECK_EQ(c->nblocks, 4);
    CHECK(block_is(m, c, 0, 0, 1));
    CHECK(block_is(m, c, 1, 1, 3));
    CHECK(block_is(m, c, 2, 4, 2));
    CHECK(block_is(m, c, 3, 6, 1));
    CHECK(succs_are(c, 0, 1, NO));
    CHECK(succs_are(c, 1, 3, 2));
    CHECK(succs_are(c, 2, 1, 3));
    CHECK(succs_are(c, 3, c->exit, NO));
    CHECK(has_pred(c, 1, 0) && has_pred(c, 1, 2));
    CHECK_EQ(c->blocks[1].idom, 0);
    CHECK_EQ(c->blocks[2].idom, 1);
    CHECK_EQ(c->blocks[3].idom, 1);
    CHECK_EQ(c->blocks[0].ipdom, 1);
    CHECK_EQ(c->blocks[1].ipdom, 3);
    CHECK_EQ(c->blocks[2].ipdom, 3);
    CHECK_EQ(c->blocks[3].ipdom, c->exit);
    /* both the break and the back edge reconverge after the loop */
    CHECK_EQ(ptx_cfg_reconvergence(c, m, base + 3), base + 6);
    CHECK_EQ(ptx_cfg_reconvergence(c, m, base + 5), base + 6);
    ptx_cfg_free(c);
    ptx_module_free(m);
}

/* An if inside a loop: B1 tests, B2 is the then-part, B3 the latch. */
static const char nested_if[] = HDR
    ".visible .entry k()\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, 0;\n"               /* 0 B0 */
    "  mov.u32 %r3, 0;\n"               /* 1 B0 */
    "$L_loop:\n"
    "  and.b32 %r2, %r1, 1;\n"          /* 2 B1 */
    "  setp.eq.s32 %p1, %r2, 0;\n"      /* 3 B1 */
    "  @%p1 bra $L_skip;\n"             /* 4 B1 */
    "  add.s32 %r3, %r3, %r1;\n"        /* 5 B2 */
    "$L_skip:\n"
    "  add.s32 %r1, %r1, 1;\n"          /* 6 B3 */
    "  setp.lt.s32 %p2, %r1, 8;\n"      /* 7 B3 */
    "  @%p2 bra $L_loop;\n"             /* 8 B3 */
    "  ret;\n"                          /* 9 B4 */
    "}\n";

TEST(cfg_if_inside_loop)
{
    ptx_module_t *m = parse(nested_if);
    CHECK(m);
    ptx_cfg_t *c = ptx_cfg_build(m, 0);
    CHECK(c);
    uint32_t base = m->funcs[0].first;
    CHECK_EQ(c->nblocks, 5);
    CHECK(block_is(m, c, 0, 0, 2));
    CHECK(block_is(m, c, 1, 2, 3));
    CHECK(block_is(m, c, 2, 5, 1));
    CHECK(block_is(m, c, 3, 6, 3));
    CHECK(block_is(m, c, 4, 9, 1));
    CHECK(succs_are(c, 0, 1, NO));
    CHECK(succs_are(c, 1, 3, 2));
    CHECK(succs_are(c, 2, 3, NO));
    CHECK(succs_are(c, 3, 1, 4));
    CHECK(succs_are(c, 4, c->exit, NO));
    CHECK_EQ(c->blocks[1].idom, 0);
    CHECK_EQ(c->blocks[2].idom, 1);
    CHECK_EQ(c->blocks[3].idom, 1);
    CHECK_EQ(c->blocks[4].idom, 3);
    CHECK_EQ(c->blocks[0].ipdom, 1);
    CHECK_EQ(c->blocks[1].ipdom, 3);
    CHECK_EQ(c->blocks[2].ipdom, 3);
    CHECK_EQ(c->blocks[3].ipdom, 4);
    CHECK_EQ(c->blocks[4].ipdom, c->exit);
    /* the inner if reconverges at the latch, the loop after it */
    CHECK_EQ(ptx_cfg_reconvergence(c, m, base + 4), base + 6);
    CHECK_EQ(ptx_cfg_reconvergence(c, m, base + 8), base + 9);
    ptx_cfg_free(c);
    ptx_module_free(m);
}

/* Early return: B1 returns, B2 carries on and returns too, so the two
 * paths only meet at the virtual exit. */
static const char early_ret[] = HDR
    ".visible .entry k(.param .u32 k_p)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<3>;\n"
    "  ld.param.u32 %r1, [k_p];\n"      /* 0 B0 */
    "  setp.eq.s32 %p1, %r1, 0;\n"      /* 1 B0 */
    "  @%p1 bra $L_cont;\n"             /* 2 B0 */
    "  ret;\n"                          /* 3 B1 */
    "$L_cont:\n"
    "  add.s32 %r2, %r1, 2;\n"          /* 4 B2 */
    "  ret;\n"                          /* 5 B2 */
    "}\n";

TEST(cfg_early_return)
{
    ptx_module_t *m = parse(early_ret);
    CHECK(m);
    ptx_cfg_t *c = ptx_cfg_build(m, 0);
    CHECK(c);
    uint32_t base = m->funcs[0].first;
    CHECK_EQ(c->nblocks, 3);
    CHECK(block_is(m, c, 0, 0, 3));
    CHECK(block_is(m, c, 1, 3, 1));
    CHECK(block_is(m, c, 2, 4, 2));
    CHECK(succs_are(c, 0, 2, 1));
    CHECK(succs_are(c, 1, c->exit, NO));
    CHECK(succs_are(c, 2, c->exit, NO));
    CHECK_EQ(c->blocks[c->exit].npreds, 2);
    CHECK_EQ(c->blocks[1].idom, 0);
    CHECK_EQ(c->blocks[2].idom, 0);
    CHECK_EQ(c->blocks[0].ipdom, c->exit);
    CHECK_EQ(c->blocks[1].ipdom, c->exit);
    CHECK_EQ(c->blocks[2].ipdom, c->exit);
    CHECK_EQ(ptx_cfg_reconvergence(c, m, base + 2), NO);
    ptx_cfg_free(c);
    ptx_module_free(m);
}

/* A guarded ret ends its block with two successors: the exit (taken) and
 * the next block (not taken). */
static const char guarded_ret[] = HDR
    ".visible .entry k(.param .u32 k_p)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<3>;\n"
    "  ld.param.u32 %r1, [k_p];\n"      /* 0 B0 */
    "  setp.eq.s32 %p1, %r1, 0;\n"      /* 1 B0 */
    "  @%p1 ret;\n"                     /* 2 B0 */
    "  add.s32 %r2, %r1, 2;\n"          /* 3 B1 */
    "  ret;\n"                          /* 4 B1 */
    "}\n";

TEST(cfg_guarded_ret)
{
    ptx_module_t *m = parse(guarded_ret);
    CHECK(m);
    ptx_cfg_t *c = ptx_cfg_build(m, 0);
    CHECK(c);
    uint32_t base = m->funcs[0].first;
    CHECK_EQ(c->nblocks, 2);
    CHECK(block_is(m, c, 0, 0, 3));
    CHECK(block_is(m, c, 1, 3, 2));
    CHECK(succs_are(c, 0, c->exit, 1));
    CHECK(succs_are(c, 1, c->exit, NO));
    CHECK(has_pred(c, c->exit, 0) && has_pred(c, c->exit, 1));
    CHECK_EQ(c->blocks[1].idom, 0);
    CHECK_EQ(c->blocks[0].ipdom, c->exit);
    CHECK_EQ(c->blocks[1].ipdom, c->exit);
    CHECK_EQ(ptx_cfg_reconvergence(c, m, base + 2), NO);
    ptx_cfg_free(c);
    ptx_module_free(m);
}

/* A call returns to the next instruction, so it does not end a block. */
static const char with_call[] = HDR
    ".func f()\n"
    "{\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k()\n"
    "{\n"
    "  .reg .b32 %r<3>;\n"
    "  mov.u32 %r1, 1;\n"               /* 0 B0 */
    "  call.uni f;\n"                   /* 1 B0 */
    "  add.s32 %r2, %r1, 1;\n"          /* 2 B0 */
    "  ret;\n"                          /* 3 B0 */
    "}\n";

TEST(cfg_call_does_not_end_block)
{
    ptx_module_t *m = parse(with_call);
    CHECK(m);
    int k = ptx_find_function(m, "k");
    CHECK(k >= 0);
    ptx_cfg_t *c = ptx_cfg_build(m, (uint32_t)k);
    CHECK(c);
    CHECK_EQ(c->nblocks, 1);
    CHECK(block_is(m, c, 0, 0, 4));
    CHECK(succs_are(c, 0, c->exit, NO));
    ptx_cfg_free(c);
    ptx_module_free(m);
}
