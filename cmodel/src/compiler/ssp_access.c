/* ssp_access.c: the access-range dataflow of Scratchpad Sharing
 * (ssp_access.h has the contract: which variables, how addresses are
 * resolved, the equations and the cost). */
#include "compiler/ssp_access.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "exec/exec.h"
#include "ptx/callgraph.h"

static int is_access(const ptx_insn_t *in)
{
    return in->op == PTX_OP_LD || in->op == PTX_OP_LDU || in->op == PTX_OP_ST ||
           in->op == PTX_OP_ATOM || in->op == PTX_OP_RED;
}

/* Does the instruction touch memory that may be the scratchpad? */
static int may_touch_smem(const ptx_insn_t *in)
{
    return is_access(in) &&
           (in->space == PTX_SPACE_SHARED || in->space == PTX_SPACE_NONE);
}

/* Instructions whose ops[0] register is not written. */
static int writes_op0(const ptx_insn_t *in)
{
    switch (in->op) {
    case PTX_OP_ST: case PTX_OP_RED: case PTX_OP_BRA: case PTX_OP_CALL:
    case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_BAR: case PTX_OP_BARRIER:
    case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_TRAP: case PTX_OP_RELSSP:
    case PTX_OP_PREF: case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
    case PTX_OP_SUST: case PTX_OP_NANOSLEEP: case PTX_OP_STACKRESTORE:
        return 0;
    default:
        return in->nops > 0 && in->ops[0].kind == PTX_OPND_REG;
    }
}

static int is_global_space(uint8_t s)
{
    return s == PTX_SPACE_GLOBAL || s == PTX_SPACE_CONST || s == PTX_SPACE_LOCAL;
}

/* Provenance of every register of the kernel, flow-insensitively: the
 * variables its value may point into (pts) and whether it may be derived
 * from a global, const or local address (glob). */
typedef struct prov {
    ssp_set_t *pts;
    uint8_t *glob;
} prov_t;

static void provenance(const ssp_access_t *a, prov_t *p)
{
    const ptx_module_t *m = a->m;
    const ptx_function_t *fn = &m->funcs[a->kernel];
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = fn->first; i < fn->first + fn->count; i++) {
            const ptx_insn_t *in = &m->insns[i];
            if (!writes_op0(in))
                continue;
            uint16_t d = in->ops[0].reg;
            if (d >= fn->nregs)
                continue;
            ssp_set_t pts = 0;
            uint8_t glob = 0;
            if (in->op == PTX_OP_LD || in->op == PTX_OP_LDU ||
                in->op == PTX_OP_ATOM) {
                /* a value from memory: a kernel parameter is a global
                 * pointer; anything else has no provenance we can see */
                glob = in->space == PTX_SPACE_PARAM;
            } else if (in->op == PTX_OP_CVTA && is_global_space(in->space)) {
                glob = 1;
            } else {
                for (unsigned k = 1; k < in->nops; k++) {
                    const ptx_operand_t *o = &in->ops[k];
                    if (o->kind == PTX_OPND_REG && o->reg < fn->nregs) {
                        pts |= p->pts[o->reg];
                        glob |= p->glob[o->reg];
                    } else if (o->kind == PTX_OPND_SYM && o->sym != PTX_NO_SYM) {
                        int v = ssp_var_index(a, o->sym);
                        if (v >= 0)
                            pts |= (ssp_set_t)1 << v;
                        else if (is_global_space(m->syms[o->sym].space))
                            glob = 1;
                    }
                }
            }
            if ((p->pts[d] | pts) != p->pts[d] || (p->glob[d] | glob) != p->glob[d]) {
                p->pts[d] |= pts;
                p->glob[d] |= glob;
                changed = 1;
            }
        }
    }
}

/* The variables one instruction may access (every variable when the
 * address cannot be resolved; see the header). */
static ssp_set_t insn_access(const ssp_access_t *a, const prov_t *p,
                             const ptx_insn_t *in, int calls_touch)
{
    ssp_set_t all = a->nvars == 64 ? ~(ssp_set_t)0
                                   : (((ssp_set_t)1 << a->nvars) - 1);
    if (in->op == PTX_OP_CALL)
        return calls_touch ? all : 0;
    if (!may_touch_smem(in) || !a->nvars)
        return 0;
    const ptx_operand_t *addr = NULL;
    for (unsigned k = 0; k < in->nops && !addr; k++)
        if (in->ops[k].kind == PTX_OPND_ADDR)
            addr = &in->ops[k];
    if (!addr)
        return all;
    if (addr->sym != PTX_NO_SYM) {
        int v = ssp_var_index(a, addr->sym);
        if (v >= 0)
            return (ssp_set_t)1 << v;
        if (in->space == PTX_SPACE_NONE && is_global_space(a->m->syms[addr->sym].space))
            return 0;
        return all;
    }
    if (addr->has_reg && addr->reg < a->m->funcs[a->kernel].nregs) {
        if (p->pts[addr->reg])
            return p->pts[addr->reg];
        if (in->space == PTX_SPACE_NONE && p->glob[addr->reg])
            return 0;
    }
    return all;
}

/* Does any function the kernel reaches (other than itself) make a
 * .shared or generic access?  -1 when out of memory. */
static int callees_touch(const ptx_module_t *m, uint32_t kernel, simt_error_t *err)
{
    uint32_t n;
    uint32_t *funcs = ptx_reachable(m, kernel, &n, err);
    if (!funcs)
        return -1;
    int touch = 0;
    for (uint32_t j = 0; j < n && !touch; j++) {
        const ptx_function_t *fn = &m->funcs[funcs[j]];
        if (funcs[j] == kernel)
            continue;
        for (uint32_t i = fn->first; i < fn->first + fn->count && !touch; i++)
            touch = may_touch_smem(&m->insns[i]);
    }
    free(funcs);
    return touch;
}

static int add_var(ssp_access_t *a, uint32_t s, uint64_t offset,
                   simt_error_t *err)
{
    const ptx_symbol_t *y = &a->m->syms[s];
    if (a->nvars == SSP_MAX_VARS)
        return set_error(err, SIMT_EINPUT, "kernel '%s' has more than %d "
                         ".shared variables: the scratchpad-sharing passes "
                         "handle at most %d", a->m->funcs[a->kernel].name,
                         SSP_MAX_VARS, SSP_MAX_VARS);
    a->vars[a->nvars++] = (ssp_var_t){
        .sym = s, .offset = offset, .size = y->is_extern ? 0 : y->size,
        .movable = y->func == a->kernel && !y->is_extern,
        .dynamic = y->is_extern,
    };
    return SIMT_OK;
}

/* The variables in layout order: module scope, the kernel's own (each by
 * offset), then the dynamic array. */
static int collect_vars(ssp_access_t *a, simt_error_t *err)
{
    const ptx_module_t *m = a->m;
    uint64_t base = ptx_kernel_shared_base(m, a->kernel);
    for (int pass = 0; pass < 3; pass++) {
        uint32_t first = a->nvars;
        for (uint32_t s = 0; s < m->nsyms; s++) {
            const ptx_symbol_t *y = &m->syms[s];
            if (y->kind != PTX_SYM_VAR || y->space != PTX_SPACE_SHARED)
                continue;
            int mine = pass == 0 ? y->func == ~0u && !y->is_extern
                     : pass == 1 ? y->func == a->kernel && !y->is_extern
                                 : y->is_extern &&
                                   (y->func == ~0u || y->func == a->kernel);
            if (!mine)
                continue;
            uint64_t off = pass == 0 ? y->offset : pass == 1 ? base + y->offset
                                                            : a->rtb;
            if (add_var(a, s, off, err) != SIMT_OK)
                return SIMT_EINPUT;
        }
        /* by offset (insertion sort: declaration order on ties) */
        for (uint32_t i = first + 1; i < a->nvars; i++) {
            ssp_var_t v = a->vars[i];
            uint32_t j = i;
            for (; j > first && a->vars[j - 1].offset > v.offset; j--)
                a->vars[j] = a->vars[j - 1];
            a->vars[j] = v;
        }
    }
    return SIMT_OK;
}

/* depth[b] = number of natural loops containing b: each back edge t->h
 * (h dominates t) contributes h and every block reaching t without
 * passing h; back edges into one header make one loop. */
static int loop_depths(ssp_access_t *a)
{
    const ptx_cfg_t *c = a->cfg;
    uint32_t nb = c->nblocks;
    uint8_t *in = calloc(nb ? nb : 1, 1);
    uint32_t *stack = malloc((nb ? nb : 1) * sizeof *stack);
    if (!in || !stack) {
        free(in);
        free(stack);
        return -1;
    }
    for (uint32_t h = 0; h < nb; h++) {
        if (!c->blocks[h].reachable)
            continue;
        int header = 0;
        uint32_t sp = 0;
        memset(in, 0, nb);
        in[h] = 1;
        for (uint32_t e = 0; e < c->blocks[h].npreds; e++) {
            uint32_t t = c->blocks[h].preds[e];
            if (!c->blocks[t].reachable || !ptx_cfg_dominates(c, h, t))
                continue;
            header = 1;
            if (!in[t]) {
                in[t] = 1;
                stack[sp++] = t;
            }
        }
        while (sp) {
            uint32_t x = stack[--sp];
            for (uint32_t e = 0; e < c->blocks[x].npreds; e++) {
                uint32_t q = c->blocks[x].preds[e];
                if (!in[q] && c->blocks[q].reachable) {
                    in[q] = 1;
                    stack[sp++] = q;
                }
            }
        }
        for (uint32_t b = 0; header && b < nb; b++)
            a->depth[b] += in[b];
    }
    free(in);
    free(stack);
    return 0;
}

static void dataflow(ssp_access_t *a)
{
    const ptx_cfg_t *c = a->cfg;
    uint32_t nb = c->nblocks;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = 0; b < nb; b++) {
            ssp_set_t in = 0;
            for (uint32_t e = 0; e < c->blocks[b].npreds; e++)
                in |= a->pre_out[c->blocks[b].preds[e]];
            ssp_set_t out = a->blk_acc[b] | in;
            changed |= in != a->pre_in[b] || out != a->pre_out[b];
            a->pre_in[b] = in;
            a->pre_out[b] = out;
        }
        for (uint32_t b = nb; b-- > 0;) {
            ssp_set_t out = 0;
            for (uint32_t e = 0; e < c->blocks[b].nsucc; e++)
                out |= a->post_in[c->blocks[b].succ[e]];
            ssp_set_t in = a->blk_acc[b] | out;
            changed |= in != a->post_in[b] || out != a->post_out[b];
            a->post_in[b] = in;
            a->post_out[b] = out;
        }
    }
    /* the virtual exit: reached from its predecessors, accesses nothing */
    ssp_set_t in = 0;
    for (uint32_t e = 0; e < c->blocks[nb].npreds; e++)
        in |= a->pre_out[c->blocks[nb].preds[e]];
    a->pre_in[nb] = a->pre_out[nb] = in;
    a->post_in[nb] = a->post_out[nb] = 0;
}

int ssp_access_build(ssp_access_t *a, const ptx_module_t *m, uint32_t kernel,
                     simt_error_t *err)
{
    memset(a, 0, sizeof *a);
    a->m = m;
    a->kernel = kernel;
    uint64_t st = ptx_kernel_shared_bytes(m, kernel);
    a->rtb = (st + EXEC_SMEM_ALIGN - 1) / EXEC_SMEM_ALIGN * EXEC_SMEM_ALIGN;
    if (collect_vars(a, err) != SIMT_OK)
        return SIMT_EINPUT;
    const ptx_function_t *fn = &m->funcs[kernel];
    int touch = callees_touch(m, kernel, err);
    a->cfg = touch < 0 ? NULL : ptx_cfg_build(m, kernel);
    uint32_t nb = a->cfg ? a->cfg->nblocks : 0;
    prov_t p = {
        .pts = calloc(fn->nregs ? fn->nregs : 1, sizeof *p.pts),
        .glob = calloc(fn->nregs ? fn->nregs : 1, 1),
    };
    a->acc = calloc(fn->count ? fn->count : 1, sizeof *a->acc);
    a->blk_acc = calloc(nb + 1, sizeof *a->blk_acc);
    a->depth = calloc(nb + 1, sizeof *a->depth);
    a->pre_in = calloc(nb + 1, sizeof *a->pre_in);
    a->pre_out = calloc(nb + 1, sizeof *a->pre_out);
    a->post_in = calloc(nb + 1, sizeof *a->post_in);
    a->post_out = calloc(nb + 1, sizeof *a->post_out);
    if (!a->cfg || !p.pts || !p.glob || !a->acc || !a->blk_acc || !a->depth ||
        !a->pre_in || !a->pre_out || !a->post_in || !a->post_out ||
        loop_depths(a) != 0) {
        free(p.pts);
        free(p.glob);
        ssp_access_free(a);
        if (touch >= 0)
            set_error(err, SIMT_EINPUT, "out of host memory in the "
                      "scratchpad access analysis");
        return SIMT_EINPUT;
    }
    provenance(a, &p);
    for (uint32_t i = 0; i < fn->count; i++) {
        a->acc[i] = insn_access(a, &p, &m->insns[fn->first + i], touch);
        a->blk_acc[a->cfg->block_of[i]] |= a->acc[i];
    }
    free(p.pts);
    free(p.glob);
    dataflow(a);
    return SIMT_OK;
}

void ssp_access_free(ssp_access_t *a)
{
    ptx_cfg_free(a->cfg);
    free(a->acc);
    free(a->blk_acc);
    free(a->depth);
    free(a->pre_in);
    free(a->pre_out);
    free(a->post_in);
    free(a->post_out);
    memset(a, 0, sizeof *a);
}

int ssp_acc_in(const ssp_access_t *a, ssp_set_t s, uint32_t b)
{
    return (a->pre_in[b] & s) && (a->post_in[b] & s);
}

int ssp_acc_out(const ssp_access_t *a, ssp_set_t s, uint32_t b)
{
    return (a->pre_out[b] & s) && (a->post_out[b] & s);
}

static uint64_t sat_mul(uint64_t x, uint64_t y)
{
    return y && x > UINT64_MAX / y ? UINT64_MAX : x * y;
}

uint64_t ssp_cost(const ssp_access_t *a, ssp_set_t s, uint64_t k)
{
    const ptx_cfg_t *c = a->cfg;
    uint64_t cost = 0;
    for (uint32_t b = 0; b < c->nblocks; b++) {
        const ptx_block_t *bl = &c->blocks[b];
        if (!bl->reachable)
            continue;
        uint64_t w = 1;
        for (uint32_t d = 0; d < a->depth[b]; d++)
            w = sat_mul(w, k);
        uint32_t base = bl->first - a->m->funcs[a->kernel].first;
        uint32_t last = PTX_CFG_NONE; /* last instruction accessing s */
        for (uint32_t i = 0; i < bl->count; i++)
            if (a->acc[base + i] & s)
                last = i;
        int pre = (a->pre_in[b] & s) != 0;
        int post_out = (a->post_out[b] & s) != 0;
        for (uint32_t i = 0; i < bl->count; i++) {
            int post = post_out || (last != PTX_CFG_NONE && i <= last);
            if (pre && post) {
                cost += w;
                if (cost < w)
                    cost = UINT64_MAX;
            }
            pre |= (a->acc[base + i] & s) != 0;
        }
    }
    return cost;
}

uint64_t ssp_unshared_limit(uint64_t rtb, uint32_t permille)
{
    return rtb * permille / 1000 / 4 * 4;
}

ssp_set_t ssp_region_vars(const ssp_access_t *a, uint64_t limit)
{
    ssp_set_t s = 0;
    for (uint32_t v = 0; v < a->nvars; v++)
        if (a->vars[v].dynamic || a->vars[v].offset + a->vars[v].size > limit)
            s |= (ssp_set_t)1 << v;
    return s;
}

int ssp_var_index(const ssp_access_t *a, uint32_t sym)
{
    for (uint32_t v = 0; v < a->nvars; v++)
        if (a->vars[v].sym == sym)
            return (int)v;
    return -1;
}

int ssp_kernel_touches(const ptx_module_t *m, uint32_t kernel, simt_error_t *err)
{
    ssp_access_t a;
    if (ssp_access_build(&a, m, kernel, err) != SIMT_OK)
        return -1;
    int touch = 0;
    for (uint32_t b = 0; b < a.cfg->nblocks && !touch; b++)
        touch = a.blk_acc[b] != 0;
    ssp_access_free(&a);
    return touch;
}
