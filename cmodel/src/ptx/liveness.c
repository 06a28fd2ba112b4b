/* liveness.c: per-instruction register defs/uses and per-block liveness.
 *
 * The fixed point is reached by sweeping the blocks in reverse program
 * order until nothing changes: a backward problem converges fastest when a
 * block is visited after its successors, which reverse program order gives
 * for everything but loop back edges (one extra sweep per loop nesting
 * level). */
#include "ptx/liveness.h"

#include <stdlib.h>
#include <string.h>

/* Does ops[0] of `in` name a destination? */
static int writes_op0(const ptx_insn_t *in)
{
    if (in->nops == 0)
        return 0;
    switch ((ptx_op_t)in->op) {
    case PTX_OP_ST: case PTX_OP_RED: case PTX_OP_BRA: case PTX_OP_CALL:
    case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_TRAP: case PTX_OP_MEMBAR:
    case PTX_OP_FENCE: case PTX_OP_PREF: case PTX_OP_NANOSLEEP:
    case PTX_OP_RELSSP: case PTX_OP_SUST: case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
    case PTX_OP_STACKRESTORE:
        return 0;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        /* bar.red d, id, [count,] p delivers the reduction into d; the
         * other forms only read (barrier id, thread count) */
        return in->sub == PTX_SUB_RED;
    default:
        return 1;
    }
}

/* Appends r unless it is the sink or already listed. */
static void add_reg(uint16_t *regs, int max, int *n, uint16_t r)
{
    if (r == PTX_REG_SINK)
        return;
    int stored = *n < max ? *n : max;
    for (int i = 0; i < stored; i++)
        if (regs[i] == r)
            return;
    if (*n < max)
        regs[*n] = r;
    (*n)++;
}

/* Every register an operand names: the register itself, an address base,
 * or the elements of a vector.  A '|' second destination is not included
 * (it only exists on destinations and ptx_insn_defs adds it). */
static void add_operand(const ptx_operand_t *o, uint16_t *regs, int max, int *n)
{
    switch ((ptx_opnd_kind_t)o->kind) {
    case PTX_OPND_REG:
        add_reg(regs, max, n, o->reg);
        break;
    case PTX_OPND_ADDR:
        if (o->has_reg)
            add_reg(regs, max, n, o->reg);
        break;
    case PTX_OPND_VEC:
        for (unsigned i = 0; i < o->nvec && i < 4; i++)
            add_reg(regs, max, n, o->vec[i]);
        break;
    default:
        break;
    }
}

int ptx_insn_defs(const ptx_insn_t *in, uint16_t *regs, int max)
{
    int n = 0;
    if (!writes_op0(in))
        return 0;
    const ptx_operand_t *d = &in->ops[0];
    if (d->kind == PTX_OPND_ADDR)
        return 0; /* not a destination register (rejected by the parser) */
    add_operand(d, regs, max, &n);
    if (d->kind == PTX_OPND_REG && d->nvec == 1)
        add_reg(regs, max, &n, d->vec[0]); /* setp p|q, shfl d|p */
    return n;
}

int ptx_insn_uses(const ptx_insn_t *in, uint16_t *regs, int max)
{
    int n = 0;
    add_reg(regs, max, &n, in->guard);
    /* call: the argument and return lists name .param symbols, not
     * registers; the target is a function, or for an indirect call a
     * register it reads */
    if (in->op == PTX_OP_CALL) {
        for (unsigned i = 0; i < in->nops && i < PTX_MAX_OPERANDS; i++)
            if (in->ops[i].kind == PTX_OPND_REG)
                add_reg(regs, max, &n, in->ops[i].reg);
        return n;
    }
    unsigned from = 0;
    if (writes_op0(in)) {
        from = 1;
        if (in->ops[0].kind == PTX_OPND_ADDR)
            from = 0;
    }
    for (unsigned i = from; i < in->nops && i < PTX_MAX_OPERANDS; i++)
        add_operand(&in->ops[i], regs, max, &n);
    return n;
}

static void set_bit(uint64_t *set, uint32_t r)
{
    set[r >> 6] |= 1ull << (r & 63);
}

static void clear_bit(uint64_t *set, uint32_t r)
{
    set[r >> 6] &= ~(1ull << (r & 63));
}

void ptx_liveness_step(const ptx_module_t *m, uint32_t insn, uint64_t *set)
{
    const ptx_insn_t *in = &m->insns[insn];
    uint16_t regs[PTX_INSN_MAX_USES];
    if (ptx_insn_kills(in)) {
        int n = ptx_insn_defs(in, regs, PTX_INSN_MAX_DEFS);
        for (int i = 0; i < n && i < PTX_INSN_MAX_DEFS; i++)
            clear_bit(set, regs[i]);
    }
    int n = ptx_insn_uses(in, regs, PTX_INSN_MAX_USES);
    for (int i = 0; i < n && i < PTX_INSN_MAX_USES; i++)
        set_bit(set, regs[i]);
}

/* use(B) (read before any killing write in B) and kill(B) (killed
 * somewhere in B), by a backward walk: a use above a kill stays exposed. */
static void block_summary(const ptx_module_t *m, const ptx_block_t *blk,
                          uint32_t words, uint64_t *use, uint64_t *kill)
{
    uint16_t regs[PTX_INSN_MAX_USES];
    memset(use, 0, words * sizeof *use);
    memset(kill, 0, words * sizeof *kill);
    for (uint32_t i = blk->first + blk->count; i-- > blk->first;) {
        const ptx_insn_t *in = &m->insns[i];
        if (ptx_insn_kills(in)) {
            int n = ptx_insn_defs(in, regs, PTX_INSN_MAX_DEFS);
            for (int k = 0; k < n && k < PTX_INSN_MAX_DEFS; k++) {
                set_bit(kill, regs[k]);
                clear_bit(use, regs[k]);
            }
        }
        int n = ptx_insn_uses(in, regs, PTX_INSN_MAX_USES);
        for (int k = 0; k < n && k < PTX_INSN_MAX_USES; k++)
            set_bit(use, regs[k]);
    }
}

ptx_liveness_t *ptx_liveness_build(const ptx_module_t *m, const ptx_cfg_t *cfg)
{
    const ptx_function_t *f = &m->funcs[cfg->func];
    ptx_liveness_t *lv = calloc(1, sizeof *lv);
    if (!lv)
        return NULL;
    lv->func = cfg->func;
    lv->nregs = f->nregs;
    lv->words = (f->nregs + 63) / 64;
    if (lv->words == 0)
        lv->words = 1; /* keep every set addressable */
    lv->nblocks = cfg->nblocks;
    size_t w = lv->words, nb = cfg->nblocks ? cfg->nblocks : 1;
    lv->live_in = calloc(nb * w, sizeof *lv->live_in);
    lv->live_out = calloc(nb * w, sizeof *lv->live_out);
    uint64_t *use = calloc(nb * w, sizeof *use);
    uint64_t *kill = calloc(nb * w, sizeof *kill);
    if (!lv->live_in || !lv->live_out || !use || !kill) {
        free(use);
        free(kill);
        ptx_liveness_free(lv);
        return NULL;
    }
    for (uint32_t b = 0; b < cfg->nblocks; b++)
        block_summary(m, &cfg->blocks[b], lv->words, use + b * w, kill + b * w);
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = cfg->nblocks; b-- > 0;) {
            const ptx_block_t *blk = &cfg->blocks[b];
            uint64_t *out = lv->live_out + b * w, *inb = lv->live_in + b * w;
            for (size_t k = 0; k < w; k++) {
                uint64_t o = 0;
                for (uint32_t e = 0; e < blk->nsucc; e++)
                    if (blk->succ[e] != cfg->exit)
                        o |= lv->live_in[blk->succ[e] * w + k];
                uint64_t i = use[b * w + k] | (o & ~kill[b * w + k]);
                if (o != out[k] || i != inb[k])
                    changed = 1;
                out[k] = o;
                inb[k] = i;
            }
        }
    }
    free(use);
    free(kill);
    return lv;
}

void ptx_liveness_free(ptx_liveness_t *lv)
{
    if (!lv)
        return;
    free(lv->live_in);
    free(lv->live_out);
    free(lv);
}

int ptx_liveness_walk(const ptx_liveness_t *lv, const ptx_module_t *m,
                      const ptx_cfg_t *cfg, uint32_t block, ptx_live_fn fn,
                      void *ctx)
{
    const ptx_block_t *blk = &cfg->blocks[block];
    uint64_t *set = malloc(lv->words * sizeof *set);
    if (!set)
        return -1;
    memcpy(set, ptx_live_out(lv, block), lv->words * sizeof *set);
    int rc = 0;
    for (uint32_t i = blk->first + blk->count; i-- > blk->first;) {
        rc = fn(ctx, i, set);
        if (rc)
            break;
        ptx_liveness_step(m, i, set);
    }
    free(set);
    return rc;
}

void ptx_liveness_after(const ptx_liveness_t *lv, const ptx_module_t *m,
                        const ptx_cfg_t *cfg, uint32_t insn, uint64_t *out)
{
    uint32_t b = ptx_cfg_block(cfg, m, insn);
    const ptx_block_t *blk = &cfg->blocks[b];
    memcpy(out, ptx_live_out(lv, b), lv->words * sizeof *out);
    for (uint32_t i = blk->first + blk->count; --i > insn;)
        ptx_liveness_step(m, i, out);
}
