/* cfg.h: control-flow graph of one function, with immediate dominators and
 * immediate post-dominators.
 *
 * Blocks are numbered in program order; block `exit` (== nblocks) is a
 * virtual exit that every ret/exit block flows into.  Calls do not end a
 * block (they return).  The reconvergence point of a divergent branch is
 * the first instruction of its block's immediate post-dominator. */
#ifndef PTX_CFG_H
#define PTX_CFG_H

#include <stdint.h>

#include "ptx/ir.h"

#define PTX_CFG_NONE 0xffffffffu

typedef struct ptx_block {
    uint32_t first, count;   /* module instruction range */
    uint32_t succ[2];
    uint8_t nsucc;           /* 0..2; the virtual exit counts */
    uint32_t *preds;
    uint32_t npreds;
    uint32_t idom;           /* PTX_CFG_NONE for the entry / unreachable */
    uint32_t ipdom;          /* `exit` when only the exit post-dominates */
    uint8_t reachable;
} ptx_block_t;

typedef struct ptx_cfg {
    uint32_t func;
    uint32_t nblocks;
    uint32_t exit;           /* == nblocks */
    ptx_block_t *blocks;     /* nblocks + 1 entries (the last is the exit) */
    uint32_t *block_of;      /* per instruction of the function (index - first) */
} ptx_cfg_t;

/* NULL only when out of memory. */
ptx_cfg_t *ptx_cfg_build(const ptx_module_t *m, uint32_t func);
void ptx_cfg_free(ptx_cfg_t *cfg);

/* Block holding module instruction `insn`. */
static inline uint32_t ptx_cfg_block(const ptx_cfg_t *c, const ptx_module_t *m,
                                     uint32_t insn)
{
    return c->block_of[insn - m->funcs[c->func].first];
}

/* Module instruction index where the warp reconverges after a divergent
 * branch at `insn`, or PTX_CFG_NONE when the paths only meet at exit. */
uint32_t ptx_cfg_reconvergence(const ptx_cfg_t *c, const ptx_module_t *m,
                               uint32_t insn);

/* Does block a dominate block b? (post: post-dominate) */
int ptx_cfg_dominates(const ptx_cfg_t *c, uint32_t a, uint32_t b);
int ptx_cfg_postdominates(const ptx_cfg_t *c, uint32_t a, uint32_t b);

#endif
