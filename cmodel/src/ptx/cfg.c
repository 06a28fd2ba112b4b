/* cfg.c: basic blocks, dominators and post-dominators.
 *
 * Dominators use the iterative algorithm of Cooper, Harvey and Kennedy ("A
 * Simple, Fast Dominance Algorithm") over reverse postorder; post-dominators
 * are the same computation on the reversed graph rooted at the virtual exit.
 * Blocks that cannot reach the exit (infinite loops) get the exit as their
 * immediate post-dominator. */
#include "ptx/cfg.h"

#include <stdlib.h>
#include <string.h>

static int ends_block(const ptx_insn_t *in)
{
    return in->op == PTX_OP_BRA || in->op == PTX_OP_RET ||
           in->op == PTX_OP_EXIT || in->op == PTX_OP_TRAP;
}

static int unconditional(const ptx_insn_t *in)
{
    return in->guard == PTX_REG_SINK;
}

/* Postorder DFS over succ (forward) or preds (backward), iterative. */
static uint32_t postorder(const ptx_cfg_t *c, uint32_t root, int backward,
                          uint32_t *order, uint8_t *seen, uint32_t *stack,
                          uint32_t *edge)
{
    uint32_t n = 0, sp = 0;
    stack[sp] = root;
    edge[sp++] = 0;
    seen[root] = 1;
    while (sp) {
        uint32_t b = stack[sp - 1];
        const ptx_block_t *blk = &c->blocks[b];
        uint32_t deg = backward ? blk->npreds : blk->nsucc;
        if (edge[sp - 1] < deg) {
            uint32_t s = backward ? blk->preds[edge[sp - 1]] : blk->succ[edge[sp - 1]];
            edge[sp - 1]++;
            if (!seen[s]) {
                seen[s] = 1;
                stack[sp] = s;
                edge[sp++] = 0;
            }
        } else {
            order[n++] = b;
            sp--;
        }
    }
    return n;
}

/* Fills dom[] (immediate dominator per block) for the graph in the given
 * direction; nodes not reached get PTX_CFG_NONE. */
static void dominators(ptx_cfg_t *c, uint32_t root, int backward, uint32_t *dom)
{
    uint32_t n = c->nblocks + 1;
    uint32_t *order = malloc(n * sizeof *order);
    uint32_t *rpo_index = malloc(n * sizeof *rpo_index);
    uint32_t *stack = malloc(n * sizeof *stack);
    uint32_t *edge = malloc(n * sizeof *edge);
    uint8_t *seen = calloc(n, 1);
    if (!order || !rpo_index || !stack || !edge || !seen)
        goto out;
    uint32_t count = postorder(c, root, backward, order, seen, stack, edge);
    for (uint32_t i = 0; i < n; i++) {
        dom[i] = PTX_CFG_NONE;
        rpo_index[i] = PTX_CFG_NONE;
    }
    for (uint32_t i = 0; i < count; i++)
        rpo_index[order[i]] = i; /* higher = earlier in reverse postorder */
    dom[root] = root;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t k = count; k-- > 0;) {
            uint32_t b = order[k];
            if (b == root)
                continue;
            const ptx_block_t *blk = &c->blocks[b];
            uint32_t deg = backward ? blk->nsucc : blk->npreds;
            uint32_t nd = PTX_CFG_NONE;
            for (uint32_t e = 0; e < deg; e++) {
                uint32_t p = backward ? blk->succ[e] : blk->preds[e];
                if (dom[p] == PTX_CFG_NONE)
                    continue;
                if (nd == PTX_CFG_NONE) {
                    nd = p;
                    continue;
                }
                uint32_t a = p, bb = nd;
                while (a != bb) {
                    while (rpo_index[a] < rpo_index[bb])
                        a = dom[a];
                    while (rpo_index[bb] < rpo_index[a])
                        bb = dom[bb];
                }
                nd = a;
            }
            if (nd != dom[b]) {
                dom[b] = nd;
                changed = 1;
            }
        }
    }
    dom[root] = PTX_CFG_NONE;
out:
    free(order);
    free(rpo_index);
    free(stack);
    free(edge);
    free(seen);
}

static int add_pred(ptx_block_t *b, uint32_t p)
{
    uint32_t *q = realloc(b->preds, (b->npreds + 1) * sizeof *q);
    if (!q)
        return -1;
    b->preds = q;
    b->preds[b->npreds++] = p;
    return 0;
}

ptx_cfg_t *ptx_cfg_build(const ptx_module_t *m, uint32_t func)
{
    const ptx_function_t *f = &m->funcs[func];
    ptx_cfg_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->func = func;
    uint32_t n = f->count;
    uint8_t *leader = calloc(n + 1, 1);
    c->block_of = malloc((n ? n : 1) * sizeof *c->block_of);
    if (!leader || !c->block_of)
        goto fail;
    if (n)
        leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const ptx_insn_t *in = &m->insns[f->first + i];
        if (in->op == PTX_OP_BRA)
            leader[in->ops[0].imm - f->first] = 1;
        if (ends_block(in) && i + 1 < n)
            leader[i + 1] = 1;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++)
        nb += leader[i];
    c->nblocks = nb;
    c->exit = nb;
    c->blocks = calloc(nb + 1, sizeof *c->blocks);
    if (!c->blocks)
        goto fail;
    uint32_t b = PTX_CFG_NONE;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i]) {
            b = b == PTX_CFG_NONE ? 0 : b + 1;
            c->blocks[b].first = f->first + i;
        }
        c->blocks[b].count++;
        c->block_of[i] = b;
    }
    for (uint32_t k = 0; k < nb; k++) {
        ptx_block_t *blk = &c->blocks[k];
        const ptx_insn_t *last = &m->insns[blk->first + blk->count - 1];
        int falls = 1;
        if (last->op == PTX_OP_BRA) {
            blk->succ[blk->nsucc++] =
                c->block_of[last->ops[0].imm - f->first];
            falls = !unconditional(last);
        } else if (last->op == PTX_OP_RET || last->op == PTX_OP_EXIT ||
                   last->op == PTX_OP_TRAP) {
            blk->succ[blk->nsucc++] = c->exit;
            falls = !unconditional(last);
        }
        if (falls) {
            uint32_t next = k + 1 < nb ? k + 1 : c->exit; /* off the end: exit */
            if (!(blk->nsucc == 1 && blk->succ[0] == next))
                blk->succ[blk->nsucc++] = next;
        }
        for (uint32_t e = 0; e < blk->nsucc; e++)
            if (add_pred(&c->blocks[blk->succ[e]], k) < 0)
                goto fail;
    }
    uint32_t *dom = malloc((nb + 1) * sizeof *dom);
    if (!dom)
        goto fail;
    if (nb) {
        dominators(c, 0, 0, dom);
        for (uint32_t k = 0; k <= nb; k++) {
            c->blocks[k].idom = dom[k];
            c->blocks[k].reachable = k == 0 || dom[k] != PTX_CFG_NONE;
        }
        dominators(c, c->exit, 1, dom);
        for (uint32_t k = 0; k < nb; k++)
            c->blocks[k].ipdom = dom[k] == PTX_CFG_NONE ? c->exit : dom[k];
    }
    c->blocks[nb].idom = PTX_CFG_NONE;
    c->blocks[nb].ipdom = PTX_CFG_NONE;
    free(dom);
    free(leader);
    return c;
fail:
    free(leader);
    ptx_cfg_free(c);
    return NULL;
}

void ptx_cfg_free(ptx_cfg_t *c)
{
    if (!c)
        return;
    if (c->blocks)
        for (uint32_t k = 0; k <= c->nblocks; k++)
            free(c->blocks[k].preds);
    free(c->blocks);
    free(c->block_of);
    free(c);
}

uint32_t ptx_cfg_reconvergence(const ptx_cfg_t *c, const ptx_module_t *m,
                               uint32_t insn)
{
    uint32_t b = ptx_cfg_block(c, m, insn);
    uint32_t p = c->blocks[b].ipdom;
    if (p == PTX_CFG_NONE || p == c->exit)
        return PTX_CFG_NONE;
    return c->blocks[p].first;
}

static int walks_to(const ptx_cfg_t *c, uint32_t a, uint32_t b, int post)
{
    for (uint32_t x = b; x != PTX_CFG_NONE;) {
        if (x == a)
            return 1;
        uint32_t up = post ? c->blocks[x].ipdom : c->blocks[x].idom;
        if (up == x)
            break;
        x = up;
    }
    return 0;
}

int ptx_cfg_dominates(const ptx_cfg_t *c, uint32_t a, uint32_t b)
{
    return walks_to(c, a, b, 0);
}

int ptx_cfg_postdominates(const ptx_cfg_t *c, uint32_t a, uint32_t b)
{
    return walks_to(c, a, b, 1);
}
