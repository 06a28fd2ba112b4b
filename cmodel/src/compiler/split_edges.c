/* split_edges.c: the critical-edge splitting pass.  An edge is critical
 * when its source block has two successors and its target two or more
 * predecessors: code placed on it (seed 000's relssp on the edge where a
 * CTA stops using the scratchpad) would run on other paths too.  Each one
 * gets a block of its own holding `bra.uni target`:
 *   - the branch edge (A's `@p bra S`): the block is appended to the end
 *     of the function and A's branch retargeted to it;
 *   - the fall-through edge (A into A+1): the block goes between A and
 *     A+1, and the other branches to A+1 still go to A+1.
 * Edges to the virtual exit are not split (nothing can be placed there).
 * Afterwards no function reached from the kernel has a critical edge, and
 * every thread runs the same instructions as before apart from the added
 * branches. */
#include "compiler/split_edges.h"

#include <stdlib.h>

#include "base/error.h"
#include "compiler/pass.h"
#include "ptx/callgraph.h"
#include "ptx/cfg.h"
#include "ptx/edit.h"

void split_edge_ends(const ptx_module_t *m, const ptx_cfg_t *cfg, uint32_t b,
                     uint32_t t, uint32_t *from, uint32_t *to, int *taken)
{
    const ptx_block_t *bl = &cfg->blocks[b];
    const ptx_insn_t *br = &m->insns[bl->first + bl->count - 1];
    *from = bl->first + bl->count - 1;
    *to = cfg->blocks[t].first;
    *taken = br->op == PTX_OP_BRA && br->ops[0].imm == *to && t != b + 1;
}

/* Finds a critical edge of f: *from gets its source block's last
 * instruction, *to the target's first, *taken whether it is the branch
 * edge.  1 when found, 0 when none, -1 when out of memory. */
static int find_critical(const ptx_module_t *m, uint32_t f, uint32_t *from,
                         uint32_t *to, int *taken)
{
    ptx_cfg_t *cfg = ptx_cfg_build(m, f);
    if (!cfg)
        return -1;
    int found = 0;
    for (uint32_t b = 0; b < cfg->nblocks && !found; b++) {
        const ptx_block_t *bl = &cfg->blocks[b];
        if (bl->nsucc != 2 || bl->succ[0] == bl->succ[1] || !bl->reachable)
            continue;
        for (int s = 0; s < 2 && !found; s++) {
            uint32_t t = bl->succ[s];
            if (t == cfg->exit || cfg->blocks[t].npreds < 2)
                continue;
            split_edge_ends(m, cfg, b, t, from, to, taken);
            found = 1;
        }
    }
    ptx_cfg_free(cfg);
    return found;
}

int split_edge(ptx_module_t *m, uint32_t f, uint32_t from, uint32_t to,
               int taken)
{
    const ptx_function_t *fn = &m->funcs[f];
    uint32_t end = fn->first + fn->count;
    ptx_insn_t b = ptx_make_bra(to, f);
    if (!taken)
        return ptx_insert(m, f, to, &b, 1, 0);
    const ptx_insn_t *tail = &m->insns[end - 1];
    int falls = tail->guard != PTX_REG_SINK ||
                (tail->op != PTX_OP_BRA && tail->op != PTX_OP_RET &&
                 tail->op != PTX_OP_EXIT && tail->op != PTX_OP_TRAP);
    if (falls) { /* keep the end of the function the end */
        ptx_insn_t ret = ptx_make_ret(f);
        if (ptx_insert(m, f, end, &ret, 1, 0) != 0)
            return -1;
        end++;
    }
    if (ptx_insert(m, f, end, &b, 1, 0) != 0)
        return -1;
    m->insns[from].ops[0].imm = end;
    return 0;
}

/* 0, or -1 when out of memory. */
static int split_all(ptx_module_t *m, uint32_t f)
{
    uint32_t from, to;
    int taken, r;
    while ((r = find_critical(m, f, &from, &to, &taken)) == 1)
        if (split_edge(m, f, from, to, taken) != 0)
            return -1;
    return r;
}

static int run(compiler_unit_t *u)
{
    uint32_t n;
    uint32_t *funcs = ptx_reachable(u->mod, u->kernel, &n, u->err);
    if (!funcs)
        return SIMT_EINPUT;
    int rc = SIMT_OK;
    for (uint32_t i = 0; i < n && rc == SIMT_OK; i++) {
        uint32_t from, to;
        int taken, r = find_critical(u->mod, funcs[i], &from, &to, &taken);
        ptx_module_t *m = r == 1 ? compiler_writable(u) : NULL;
        if (r < 0 || (r == 1 && (!m || split_all(m, funcs[i]) != 0)))
            rc = set_error(u->err, SIMT_EINPUT, "out of host memory in pass "
                           "split_edges");
    }
    free(funcs);
    return rc;
}

static int selected(const simt_config_t *cfg)
{
    return simt_config_get(cfg, SIMT_CFG_SPLIT_EDGES) != 0;
}

const compiler_pass_t compiler_pass_split_edges = {
    .name = "split_edges",
    .summary = "split every critical CFG edge with a block holding one bra",
    .selected = selected,
    .run = run,
};
