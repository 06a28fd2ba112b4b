/* callgraph.c: the functions a kernel reaches (callgraph.h). */
#include <stdlib.h>

#include "base/error.h"
#include "ptx/callgraph.h"

/* Walks the direct callees of a function, one per call operand: start
 * at {fn->first, 0}; next_callee gives UINT32_MAX after the last. */
typedef struct callee_walk {
    uint32_t insn;
    unsigned opnd;
} callee_walk_t;

static uint32_t next_callee(const ptx_module_t *m, const ptx_function_t *fn,
                            callee_walk_t *w)
{
    for (; w->insn < fn->first + fn->count; w->insn++, w->opnd = 0) {
        const ptx_insn_t *in = &m->insns[w->insn];
        if (in->op != PTX_OP_CALL)
            continue;
        while (w->opnd < in->nops) {
            const ptx_operand_t *o = &in->ops[w->opnd++];
            if (o->kind == PTX_OPND_FUNC)
                return (uint32_t)o->imm;
        }
    }
    return UINT32_MAX;
}

/* Depth-first over calls; 1 marks the path, 2 done (a call back into
 * the path is recursion, which the model runs: ptx_calls_itself). */
static int reach(const ptx_module_t *m, uint32_t f, uint8_t *state,
                 uint32_t *out, uint32_t *n, simt_error_t *err)
{
    state[f] = 1;
    out[(*n)++] = f;
    const ptx_function_t *fn = &m->funcs[f];
    callee_walk_t w = { fn->first, 0 };
    for (uint32_t g; (g = next_callee(m, fn, &w)) != UINT32_MAX;) {
        if (m->funcs[g].builtin)
            continue; /* provided by the model: no body to walk */
        if (state[g] == 0 && reach(m, g, state, out, n, err) != SIMT_OK)
            return SIMT_EINPUT;
    }
    state[f] = 2;
    return SIMT_OK;
}

/* Function g, whose address is taken, still to be walked? */
static int address_taken(const ptx_module_t *m, uint64_t g, const uint8_t *state)
{
    return g < m->nfuncs && state[g] == 0 && m->funcs[g].count &&
           !m->funcs[g].is_entry && !m->funcs[g].builtin;
}

uint32_t *ptx_reachable(const ptx_module_t *m, uint32_t kernel, uint32_t *n,
                        simt_error_t *err)
{
    uint8_t *state = calloc(m->nfuncs ? m->nfuncs : 1, 1);
    uint32_t *out = malloc((m->nfuncs ? m->nfuncs : 1) * sizeof *out);
    *n = 0;
    if (!state || !out)
        set_error(err, SIMT_EINPUT, "out of host memory");
    int rc = !state || !out ? SIMT_EINPUT : reach(m, kernel, state, out, n, err);
    /* functions whose address is taken, by a reached function or by an
     * initializer, may be called through a register: reach them too */
    for (uint32_t r = 0; rc == SIMT_OK && r < m->nrelocs; r++) {
        const ptx_symbol_t *t = &m->syms[m->relocs[r].target];
        if (t->kind == PTX_SYM_FUNC && address_taken(m, t->offset, state))
            rc = reach(m, (uint32_t)t->offset, state, out, n, err);
    }
    for (uint32_t i = 0; rc == SIMT_OK && i < *n; i++) {
        const ptx_function_t *fn = &m->funcs[out[i]];
        for (uint32_t k = fn->first; rc == SIMT_OK && k < fn->first + fn->count;
             k++) {
            const ptx_insn_t *in = &m->insns[k];
            for (unsigned o = 0; rc == SIMT_OK && o < in->nops; o++)
                if (in->op != PTX_OP_CALL && in->ops[o].kind == PTX_OPND_FUNC &&
                    address_taken(m, (uint64_t)in->ops[o].imm, state))
                    rc = reach(m, (uint32_t)in->ops[o].imm, state, out, n, err);
        }
    }
    if (rc != SIMT_OK) {
        free(out);
        out = NULL;
    }
    free(state);
    return out;
}

/* Does a chain of direct calls from g lead back to g? */
static int leads_to(const ptx_module_t *m, uint32_t from, uint32_t g,
                    uint8_t *seen)
{
    seen[from] = 1;
    const ptx_function_t *fn = &m->funcs[from];
    callee_walk_t w = { fn->first, 0 };
    for (uint32_t c; (c = next_callee(m, fn, &w)) != UINT32_MAX;)
        if (c == g || (!seen[c] && m->funcs[c].count && leads_to(m, c, g, seen)))
            return 1;
    return 0;
}

int ptx_calls_itself(const ptx_module_t *m, uint32_t g)
{
    uint8_t *seen = calloc(m->nfuncs ? m->nfuncs : 1, 1);
    if (!seen)
        return -1;
    int r = leads_to(m, g, g, seen);
    free(seen);
    return r;
}
