/* ssp_layout.c: Scratchpad Sharing's variable layout pass (seed 000,
 * Sec. 6.1; reference notes §3.2 and its [decide] 3-4), selected by
 * ssp_layout = min.
 *
 * Offsets are assigned in declaration order (ptx/parser.c; the executed
 * program addresses a variable at its symbol's offset, exec/program.c),
 * so the layout is an order of the kernel's own .shared declarations.
 * For every subset U of them that fits below the boundary when laid out
 * first (each variable of U ends at or below ssp_unshared_limit(R_tb, t)
 * of that layout), the shared region S is every variable with a byte at
 * or above the boundary (a straddling variable is shared, and so are
 * module-scope variables that reach it and the dynamic array);
 * the chosen layout is the one with the least ssp_cost(S) (loop weight
 * ssp_loop_weight).  The declaration order is tried first and a layout
 * replaces the best only when strictly cheaper, so ties keep declaration
 * order and, among others, the first U in increasing bit order.  U first
 * then S, each in declaration order; the pass rewrites the symbols'
 * offsets and the kernel's static size (alignment padding may change it),
 * and renumbers the variables' symbols so that symbol order is offset
 * order again (the parser's invariant: the printer declares them in that
 * order, so the printed PTX lays them out the same way).
 *
 * Module-scope .shared variables are in every kernel's layout at the
 * same offsets and are not moved.  With more than SSP_LAYOUT_MAX_ENUM
 * movable variables (2^n layouts) the declaration order is kept. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/pass.h"
#include "compiler/ssp_access.h"
#include "exec/exec.h"

#define SSP_LAYOUT_MAX_ENUM 16

static uint64_t align_up(uint64_t x, uint64_t a)
{
    return a > 1 ? (x + a - 1) / a * a : x;
}

/* A candidate layout: new CTA-relative offsets of the movable variables
 * (index into a->vars), the kernel's static size, and its cost. */
typedef struct layout {
    uint64_t off[SSP_MAX_VARS];
    uint64_t own_bytes;   /* the kernel's own static bytes */
    int fits;             /* U ends at or below the boundary */
    uint64_t cost;
} layout_t;

/* Lays out the movable variables: those in `u` (bits of a->vars) first,
 * then the rest, each group in the current order. */
static void lay_out(const ssp_access_t *a, ssp_set_t u, uint32_t permille,
                    uint64_t k, layout_t *l)
{
    const ptx_module_t *m = a->m;
    uint64_t base = ptx_kernel_shared_base(m, a->kernel);
    uint64_t rel = 0, u_end = base;
    for (int group = 0; group < 2; group++)
        for (uint32_t v = 0; v < a->nvars; v++) {
            const ssp_var_t *var = &a->vars[v];
            if (!var->movable || (((u >> v) & 1) != (group == 0)))
                continue;
            rel = align_up(rel, m->syms[var->sym].align);
            l->off[v] = base + rel;
            rel += var->size;
            if (group == 0)
                u_end = base + rel;
        }
    l->own_bytes = rel;
    uint64_t rtb = align_up(base + rel, EXEC_SMEM_ALIGN);
    uint64_t limit = ssp_unshared_limit(rtb, permille);
    ssp_set_t s = 0;
    for (uint32_t v = 0; v < a->nvars; v++) {
        const ssp_var_t *var = &a->vars[v];
        uint64_t off = var->movable ? l->off[v] : var->offset;
        if (var->dynamic || off + var->size > limit)
            s |= (ssp_set_t)1 << v;
    }
    l->fits = u_end <= limit;
    l->cost = ssp_cost(a, s, k);
}

/* Gives the moved variables' symbols new indices among the ones they
 * hold, in offset order, and renumbers every reference (address and
 * symbol operands, relocations): symbol order stays declaration order
 * and offset order, as the parser makes it, so the printer declares the
 * variables in their new order and the printed PTX parses back to the
 * same program. */
static void renumber(ptx_module_t *m, const ssp_access_t *a, const uint32_t *mov,
                     uint32_t n)
{
    uint32_t slot[SSP_MAX_VARS], by_off[SSP_MAX_VARS], map_from[SSP_MAX_VARS];
    ptx_symbol_t saved[SSP_MAX_VARS];
    for (uint32_t i = 0; i < n; i++) {
        slot[i] = by_off[i] = a->vars[mov[i]].sym;
        saved[i] = m->syms[slot[i]];
    }
    for (uint32_t i = 1; i < n; i++) /* insertion sorts: n <= 16 */
        for (uint32_t j = i; j > 0 && slot[j - 1] > slot[j]; j--) {
            uint32_t t = slot[j]; slot[j] = slot[j - 1]; slot[j - 1] = t;
        }
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && m->syms[by_off[j - 1]].offset >
                                      m->syms[by_off[j]].offset; j--) {
            uint32_t t = by_off[j]; by_off[j] = by_off[j - 1]; by_off[j - 1] = t;
        }
    /* the variable with the k-th lowest offset goes to the k-th slot */
    for (uint32_t k = 0; k < n; k++) {
        map_from[k] = by_off[k];
        for (uint32_t i = 0; i < n; i++)
            if (a->vars[mov[i]].sym == by_off[k])
                m->syms[slot[k]] = saved[i];
    }
    for (uint32_t i = 0; i < m->ninsns; i++)
        for (unsigned o = 0; o < m->insns[i].nops; o++) {
            ptx_operand_t *op = &m->insns[i].ops[o];
            if (op->kind != PTX_OPND_ADDR && op->kind != PTX_OPND_SYM)
                continue;
            for (uint32_t k = 0; k < n; k++)
                if (op->sym == map_from[k]) {
                    op->sym = slot[k];
                    break;
                }
        }
    for (uint32_t r = 0; r < m->nrelocs; r++)
        for (uint32_t k = 0; k < n; k++) {
            if (m->relocs[r].var == map_from[k])
                m->relocs[r].var = slot[k];
            if (m->relocs[r].target == map_from[k])
                m->relocs[r].target = slot[k];
        }
}

static int run(compiler_unit_t *u)
{
    ssp_access_t a;
    if (ssp_access_build(&a, u->mod, u->kernel, u->err) != SIMT_OK)
        return SIMT_EINPUT;
    uint32_t permille = (uint32_t)simt_config_get(u->cfg, SIMT_CFG_SSP_THRESHOLD);
    uint64_t k = (uint64_t)simt_config_get(u->cfg, SIMT_CFG_SSP_LOOP_WEIGHT);
    uint32_t mov[SSP_MAX_VARS], n = 0;
    for (uint32_t v = 0; v < a.nvars; v++)
        if (a.vars[v].movable)
            mov[n++] = v;
    int rc = SIMT_OK;
    if (n >= 2 && n <= SSP_LAYOUT_MAX_ENUM) {
        /* the declaration order: U = the movable variables that end at
         * or below its boundary */
        layout_t best, cand;
        uint64_t limit = ssp_unshared_limit(align_up(ptx_kernel_shared_bytes(
                             a.m, a.kernel), EXEC_SMEM_ALIGN), permille);
        ssp_set_t u0 = 0;
        for (uint32_t i = 0; i < n && a.vars[mov[i]].offset + a.vars[mov[i]].size <= limit; i++)
            u0 |= (ssp_set_t)1 << mov[i];
        lay_out(&a, u0, permille, k, &best);
        for (uint64_t mask = 0; mask < (1ull << n); mask++) {
            ssp_set_t us = 0;
            for (uint32_t i = 0; i < n; i++)
                if (mask >> i & 1)
                    us |= (ssp_set_t)1 << mov[i];
            lay_out(&a, us, permille, k, &cand);
            if (cand.fits && cand.cost < best.cost)
                best = cand;
        }
        int moved = 0;
        for (uint32_t i = 0; i < n; i++)
            moved |= best.off[mov[i]] != a.vars[mov[i]].offset;
        ptx_module_t *m = moved ? compiler_writable(u) : NULL;
        if (moved && !m) {
            rc = SIMT_EINPUT;
        } else if (moved) {
            uint64_t base = ptx_kernel_shared_base(m, u->kernel);
            for (uint32_t i = 0; i < n; i++)
                m->syms[a.vars[mov[i]].sym].offset = best.off[mov[i]] - base;
            m->funcs[u->kernel].shared_bytes = best.own_bytes;
            renumber(m, &a, mov, n);
        }
    }
    ssp_access_free(&a);
    return rc;
}

static int selected(const simt_config_t *cfg)
{
    return simt_config_get(cfg, SIMT_CFG_SSP_LAYOUT) != 0;
}

const compiler_pass_t compiler_pass_ssp_layout = {
    .name = "ssp_layout",
    .summary = "Scratchpad Sharing: order .shared variables so the shared region "
               "has the least access range (ssp_layout = min)",
    .selected = selected,
    .run = run,
};
